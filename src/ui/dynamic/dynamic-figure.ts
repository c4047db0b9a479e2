// The picture of <grpo-dynamic> at one step, as one SVG (the element's figure()): the draw's
// gathered groups per rank marked valid or flat, the pool filling towards its target coloured by
// origin rank (this draw's additions outlined) with a key to those colours, and, from the slicing
// step on, each rank's slice coloured by the rank each sample came from (a size off the target in
// the error colour only where it breaks the next gather: the naive slicing).
import { section } from '../i18n/index.ts';
import { html, svg, type TemplateResult } from 'lit';
import type { Sample, StepPlan } from '../../core/dynamic/index.ts';
import { promptColour } from '../palette.ts';
import type { StepTrace } from './dynamic-trace.ts';

/** The figure's words: its section of the en/zh catalogues (src/ui/i18n). */
export const FIG_MSG = section('dynamicFig');

/** Rank r's colour (the explorer's categorical palette). */
export const rankColour = (r: number) => promptColour(r);

/** The figure's width at most (its units are CSS px: drawn at the width of its column, never scaled, so its 12 px text stays 12 px). */
export const FIGURE_WIDTH_MAX = 960;
/** The narrowest it is drawn (a 390 px phone's column is about 340). */
const FIGURE_WIDTH_MIN = 300;
const LEFT = 70;
/** A 12 px label's width per character, estimated (system-ui's digits and brackets are about 0.6 em). */
const CHAR_PX = 7.2;

/** `text` broken at spaces into lines of at most `width` px (estimated), for SVG text, which does not wrap. */
export function wrapLines(text: string, width: number): string[] {
  const most = Math.max(8, Math.floor(width / CHAR_PX));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > most) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A text of one or more lines (16 px apart) from baseline `y`; returns it and the height its extra lines take. */
function textBlock(text: string, x: number, y: number, width: number, cls: string): { part: unknown; extra: number } {
  const lines = wrapLines(text, width - x);
  return {
    part: svg`<text x=${x} y=${y} class=${cls}>${lines.map((l, i) => svg`<tspan x=${x} dy=${i === 0 ? 0 : 16}>${l}</tspan>`)}</text>`,
    extra: (lines.length - 1) * 16,
  };
}

export function drawLabel(draw: number, plan: StepPlan<Sample>): string {
  return draw === 0 ? FIG_MSG.initial : plan.policy === 'stream' ? FIG_MSG.round(draw) : FIG_MSG.resample(draw);
}

/**
 * The SVG for `step`: 0…draws−1 a draw (its groups; the pool after it), draws the slices
 * (and the train step after it shows the same picture), laid out for a column `width` CSS px wide
 * (960 at most): it fits the column and does not scroll. Each slice's words ("[48:62] 14 of 16",
 * what the tours and the article point at) sit right of its bar where they fit, else on a line under it.
 */
export function dynamicSvg(t: StepTrace, step: number, width = FIGURE_WIDTH_MAX): TemplateResult {
  const W = Math.round(Math.min(FIGURE_WIDTH_MAX, Math.max(FIGURE_WIDTH_MIN, width)));
  const plan = t.plan;
  const draws = t.draws.length;
  const d = Math.min(step, draws - 1);
  const showSlices = step >= draws;
  const draw = t.draws[d]!;
  const ranks = draw.byRank.length;
  const maxGroups = Math.max(1, ...draw.byRank.map((g) => g.length));
  const gw = Math.min(60, (W - LEFT - 10) / maxGroups);
  const rowH = 20;
  const parts: unknown[] = [];
  let y = 16;
  const groupsTitle = textBlock(FIG_MSG.groups(drawLabel(draw.draw, plan)), 0, y, W, 'title');
  parts.push(groupsTitle.part);
  y += 8 + groupsTitle.extra;
  draw.byRank.forEach((groups, r) => {
    const top = y + r * rowH;
    parts.push(svg`<text x=${LEFT - 6} y=${top + 14} text-anchor="end" fill=${rankColour(r)} class="rank">${FIG_MSG.rank(r)}</text>`);
    groups.forEach((g, i) => {
      const x = LEFT + i * gw;
      const text = FIG_MSG.groupTitle(g.group, g.origin, g.rewards, g.valid);
      parts.push(svg`<g class=${g.valid ? 'group valid' : 'group flat'} data-group=${g.group} data-text=${text}><title>${text}</title>
        <rect x=${x + 1} y=${top + 2} width=${gw - 2} height=${rowH - 4} rx="2"></rect>
        ${gw >= 34 ? svg`<text x=${x + gw / 2} y=${top + 14} text-anchor="middle">${g.valid ? FIG_MSG.valid : FIG_MSG.flat}</text>` : null}
      </g>`);
    });
  });
  y += ranks * rowH + 26;

  // The pool: target slots, the samples collected up to this draw coloured by origin rank.
  const target = plan.target;
  const upTo = plan.events[d]!;
  const before = d > 0 ? plan.events[d - 1]!.pool : 0;
  const slot = (W - LEFT - 10) / Math.max(target, upTo.pool);
  const origins = poolOrigins(t, d);
  parts.push(svg`<text x="0" y=${y - 6} class="title">${FIG_MSG.pool(upTo.pool, target)}</text>`);
  parts.push(svg`<rect class="target" x=${LEFT} y=${y} width=${target * slot} height="18"></rect>`);
  origins.forEach((o, i) => {
    parts.push(svg`<rect class=${i >= before ? 'slot new' : 'slot'} x=${LEFT + i * slot} y=${y} width=${Math.max(0.5, slot)} height="18"
      fill=${rankColour(o)}></rect>`);
  });
  if (upTo.pool > before)
    parts.push(svg`<rect class="added" x=${LEFT + before * slot} y=${y} width=${(upTo.pool - before) * slot} height="18"></rect>`);
  parts.push(
    svg`<text x=${LEFT - 6} y=${y + 13} text-anchor="end" class="pool-label" data-pool=${upTo.pool}>${upTo.pool}/${target}</text>`,
  );
  y += 24;
  // The key to the colours of the pool and the slices: one swatch per rank, on a line of their own under the
  // key's words (beside them the swatches began 300 units in, past a phone's screen).
  // As many swatches a line as the width holds (a narrow column wraps them).
  const keyX = W < 480 ? 0 : LEFT;
  const perLine = Math.max(1, Math.floor((W - keyX) / 76));
  const keyLines = Math.ceil(ranks / perLine);
  const keyWords = textBlock(FIG_MSG.originKey, keyX, y + 10, W, '');
  parts.push(
    svg`<g class="origin-key">${keyWords.part}${Array.from({ length: ranks }, (_, r) => {
      const kx = keyX + (r % perLine) * 76;
      const ky = y + keyWords.extra + 16 + Math.floor(r / perLine) * 18;
      return svg`<rect x=${kx} y=${ky} width="12" height="12" fill=${rankColour(r)}></rect>
      <text x=${kx + 16} y=${ky + 10}>${FIG_MSG.rank(r)}</text>`;
    })}</g>`,
  );
  y += 32 + keyWords.extra + keyLines * 18;

  if (showSlices) {
    const slicesTitle = textBlock(FIG_MSG.slices, 0, y - 6, W, 'title');
    parts.push(slicesTitle.part);
    y += slicesTitle.extra;
    if (plan.slices.length === 0) {
      const note = textBlock(FIG_MSG.noSlices, W < 480 ? 0 : LEFT, y + 12, W, 'note');
      parts.push(note.part);
      y += 24 + note.extra;
    }
    const words = plan.slices.map((s) => `${FIG_MSG.slice(s.from, s.to, s.source)} ${FIG_MSG.size(s.samples.length, plan.localTarget)}`);
    const wordsRoom = Math.ceil(Math.max(0, ...words.map((w) => w.length)) * CHAR_PX) + 12;
    const widest = Math.max(1, plan.localTarget, ...plan.slices.map((s) => s.samples.length));
    // Right of the bar while a sample keeps at least 6 px beside them; else under it.
    const beside = (W - LEFT - 10 - wordsRoom) / widest >= 6;
    const cell = (W - LEFT - 10 - (beside ? wordsRoom : 0)) / widest;
    const sliceH = beside ? rowH : rowH + 16;
    // Unequal slices are the bug only under the naive slicing (the next gather breaks); rebalance makes them on purpose.
    const broken = plan.policy === 'naive';
    const uneven = plan.slices.some((s) => s.samples.length !== plan.localTarget);
    plan.slices.forEach((s, r) => {
      const top = y + r * sliceH;
      const short = s.samples.length !== plan.localTarget;
      const mark = short ? (broken ? 'short' : 'uneven') : '';
      parts.push(svg`<g class="slice" data-rank=${s.rank} data-size=${s.samples.length}>
        <text x=${LEFT - 6} y=${top + 14} text-anchor="end" fill=${rankColour(s.rank)} class="rank">${FIG_MSG.rank(s.rank)}</text>
        <rect class="target" x=${LEFT} y=${top + 2} width=${plan.localTarget * cell} height=${rowH - 4}></rect>
        ${s.samples.map(
          (
            x,
            i,
          ) => svg`<rect x=${LEFT + i * cell} y=${top + 2} width=${Math.max(0.5, cell - 0.5)} height=${rowH - 4} fill=${rankColour(x.origin)}>
            <title>${x.id}: ${FIG_MSG.origin(x.origin)}</title></rect>`,
        )}
        <text x=${beside ? LEFT + Math.max(plan.localTarget, s.samples.length) * cell + 8 : LEFT} y=${beside ? top + 14 : top + 30}
          class=${`words ${mark}`}>${words[r]}</text>
      </g>`);
    });
    y += plan.slices.length * sliceH + 10;
    if (uneven && !broken) {
      const note = textBlock(FIG_MSG.byDesign, W < 480 ? 0 : LEFT, y + 6, W, 'by-design');
      parts.push(note.part);
      y += 18 + note.extra;
    }
  }
  const height = y + 6;
  return html`<svg class="dynamic-figure" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width=${W} height=${height} role="img"
      aria-label=${FIG_MSG.aria(drawLabel(draw.draw, plan))}>
    <style>
      text { font: 12px system-ui, sans-serif; fill: #222; } .title { font-weight: 600; } .rank { font-weight: 600; }
      .group.valid rect { fill: #2e7d32; } .group.valid text { fill: #fff; } .group.flat rect { fill: #d5d5d5; } .group.flat text { fill: #555; }
      .target { fill: none; stroke: #999; stroke-dasharray: 3 2; } .added { fill: none; stroke: #000; stroke-width: 2; }
      .short { fill: #b00020; font-weight: 700; } .uneven { font-weight: 700; } .by-design { fill: #555; } .note { fill: #b00020; }
    </style>
    ${parts}
  </svg>`;
}

/** The origin rank of every pooled sample after draw `d`, in pool order (stream: each rank's own kept groups). */
function poolOrigins(t: StepTrace, d: number): number[] {
  const out: number[] = [];
  for (let i = 0; i <= d; i++) {
    if (t.plan.policy === 'stream') {
      t.plan.events[i]!.addedByRank.forEach((n, r) => out.push(...Array.from({ length: n }, () => r)));
      continue;
    }
    // A batched draw adds its valid groups whole, in gathered (rank) order, as the protocol's pool.push does.
    for (const g of t.draws[i]!.byRank.flat()) if (g.valid) out.push(...g.rewards.map(() => g.origin));
  }
  return out;
}
