// The embed library's pure parts (no browser): isolationProblem's sentence for each situation a
// page can be in, and the layout figure painted through the SVG-recording context — every tile
// of the followed gather is a rect in the SVG, at the size asked for, fitted inside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isolationProblem, MSG } from '../../src/ui/isolation.ts';
import { SvgContext } from '../../src/ui/embed/svg-context.ts';
import { paintFigure, type FigurePicture } from '../../src/ui/embed/layout-figure.ts';
import { buildLayout, defaultConfig } from '../../src/core/samplers/index.ts';
import { gathers } from '../../src/core/layout/gather.ts';
import { regroup } from '../../src/core/layout/regroup.ts';
import { phaseIds } from '../../src/ui/story.ts';

const facts = { crossOriginIsolated: false, sharedArrayBuffer: false, secureContext: true, inFrame: false };

test('isolationProblem names what is missing: nothing, the headers, the frame, https', () => {
  assert.equal(isolationProblem({ ...facts, crossOriginIsolated: true, sharedArrayBuffer: true }), null);
  assert.equal(isolationProblem(facts), MSG.page);
  assert.match(MSG.page, /Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp/);
  assert.equal(isolationProblem({ ...facts, inFrame: true }), MSG.frame);
  assert.match(MSG.frame, /allow="cross-origin-isolated"/);
  assert.equal(isolationProblem({ ...facts, secureContext: false, inFrame: true }), MSG.insecure);
  assert.match(MSG.insecure, /https/);
  // Isolated but without the constructor (an old browser): not a header problem.
  assert.equal(isolationProblem({ ...facts, crossOriginIsolated: true }), MSG.noSab);
});

function picture(): FigurePicture {
  const layout = buildLayout(defaultConfig);
  const gather = gathers(layout)[0]!;
  return {
    title: 'regrouped by prompt id',
    gather,
    rows: regroup(gather, 'prompt-id', layout.config.k),
    ranks: layout.config.ranks,
    method: 'prompt-id',
    colours: new Map(gather.samples.map((s) => [s.promptId, '#4e79a7'])),
    advantages: null,
    highlight: null,
  };
}

const attr = (tag: string, name: string) => Number(new RegExp(`${name}="([-0-9.]+)"`).exec(tag)![1]);

test('the layout figure as SVG: the chosen size, one rect per tile, every tile inside the figure', () => {
  const p = picture();
  for (const [w, h] of [
    [1600, 900],
    [640, 360],
    [300, 1200],
  ] as const) {
    const ctx = new SvgContext(w, h);
    paintFigure(ctx, [p], phaseIds.indexOf('scatter'), w, h);
    const svg = ctx.toSvg();
    assert.match(svg, new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`));
    assert.ok(svg.endsWith('</svg>'));
    const tiles = [...svg.matchAll(/<rect [^>]*fill="#4e79a7"[^>]*\/>/g)].map((m) => m[0]);
    assert.equal(tiles.length, p.gather.samples.length, `${w}×${h}`);
    for (const t of tiles) {
      assert.ok(attr(t, 'x') >= 0 && attr(t, 'x') + attr(t, 'width') <= w + 0.01, t);
      assert.ok(attr(t, 'y') >= 0 && attr(t, 'y') + attr(t, 'height') <= h + 0.01, t);
    }
    assert.match(svg, /<text [^>]*>regrouped by prompt id<\/text>/);
  }
});

test('two pictures side by side: twice the tiles, the second right of the first', () => {
  const p = picture();
  const ctx = new SvgContext(1600, 600);
  paintFigure(ctx, [p, { ...p, title: 'view(-1, k)' }], phaseIds.indexOf('regroup'), 1600, 600);
  const xs = [...ctx.toSvg().matchAll(/<rect [^>]*fill="#4e79a7"[^>]*\/>/g)].map((m) => attr(m[0], 'x'));
  const n = p.gather.samples.length;
  assert.equal(xs.length, 2 * n);
  assert.ok(Math.min(...xs.slice(n)) > Math.max(...xs.slice(0, n)));
});

test('SvgContext escapes text and keeps alpha, stroke and the scaled font', () => {
  const ctx = new SvgContext(100, 100);
  ctx.scale(2, 2);
  ctx.globalAlpha = 0.5;
  ctx.font = '600 10px system-ui, sans-serif';
  ctx.fillStyle = '#111';
  ctx.fillText('a<b & "c"', 5, 5);
  ctx.strokeStyle = '#d62728';
  ctx.lineWidth = 2;
  ctx.strokeRect(1, 1, 10, 10);
  const svg = ctx.toSvg();
  assert.match(
    svg,
    /<text x="10" y="10" [^>]*style="font: 600 20px system-ui, sans-serif" opacity="0.5">a&lt;b &amp; &quot;c&quot;<\/text>/,
  );
  assert.match(svg, /<rect x="2" y="2" width="20" height="20" fill="none" stroke="#d62728" stroke-width="4" opacity="0.5"\/>/);
});
