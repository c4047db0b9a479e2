import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig } from '../../src/core/samplers/index.ts';
import { deriveView } from '../../src/ui/explorer-model.ts';
import { advantageColour, contrastRatio, promptColour, promptColourCount, relativeLuminance, textOn } from '../../src/ui/palette.ts';
import { parseState } from '../../src/ui/url-state.ts';

/** CIE L*a*b* of a #rrggbb colour (D65), for ΔE*ab: how far apart two colours look. */
function lab(hex: string): [number, number, number] {
  const lin = (i: number) => {
    const x = parseInt(hex.slice(i, i + 2), 16) / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [lin(1), lin(3), lin(5)];
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  const fx = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const fy = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const fz = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
const deltaE = (a: string, b: string) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]!));

test('a prompt keeps its colour under every sampler; neighbouring ids never share one', () => {
  for (let p = 0; p < 200; p++) assert.notEqual(promptColour(p), promptColour(p + 1), `P${p} and P${p + 1}`);
  // Ids 12 apart share a hue (P6 and P18 sit side by side in seed-000): their lightness differs.
  for (let p = 0; p < 200; p++) {
    for (const gap of [12, 24]) {
      assert.notEqual(promptColour(p), promptColour(p + gap), `P${p} and P${p + gap}`);
      assert.ok(deltaE(promptColour(p), promptColour(p + gap)) >= 12, `P${p} and P${p + gap} look alike`);
    }
    assert.ok(deltaE(promptColour(p), promptColour(p + 1)) >= 12, `P${p} and P${p + 1} look alike`);
  }
  // Every two distinct colours stay apart, and there are promptColourCount of them.
  const distinct = [...new Set(Array.from({ length: 200 }, (_, p) => promptColour(p)))];
  assert.equal(distinct.length, promptColourCount);
  for (let i = 0; i < distinct.length; i++)
    for (let j = i + 1; j < distinct.length; j++) assert.ok(deltaE(distinct[i]!, distinct[j]!) >= 8, `${distinct[i]} and ${distinct[j]}`);
  const colourOf = (sampler: 'flow-grpo' | 'trl' | 'dance-grpo') => {
    const config = { ...defaultConfig, sampler, ranks: 4, batch: 4, k: 2, datasetSize: 16 };
    const view = deriveView({ ...parseState('', config, {}), config });
    assert.equal(view.error, null);
    return view.colours;
  };
  const a = colourOf('flow-grpo');
  for (const other of [colourOf('trl'), colourOf('dance-grpo')])
    for (const [id, colour] of other) if (a.has(id)) assert.equal(colour, a.get(id), `P${id}`);
  // seed-000's rank 0 shows P6 and P18 side by side.
  assert.notEqual(promptColour(6), promptColour(18));
});

test('contrast ratio is WCAG 2’s', () => {
  assert.equal(contrastRatio('#000000', '#ffffff'), 21);
  assert.equal(contrastRatio('#777', '#777'), 1);
  assert.ok(Math.abs(relativeLuminance([255, 255, 255]) - 1) < 1e-12);
  // Known values: #767676 on white is the lightest grey that passes AA (4.54 : 1).
  assert.ok(Math.abs(contrastRatio('#767676', '#ffffff') - 4.54) < 0.01);
  assert.ok(Math.abs(contrastRatio('rgb(118 118 118)', '#fff') - 4.54) < 0.01);
});

test('every label on a tile meets WCAG AA (4.5 : 1): each prompt colour and each advantage shade', () => {
  for (let p = 0; p < promptColourCount; p++) {
    const fill = promptColour(p);
    const ratio = contrastRatio(fill, textOn(fill));
    assert.ok(ratio >= 4.5, `P${p} ${fill}: ${textOn(fill)} at ${ratio.toFixed(2)} : 1`);
  }
  // The fills the audit measured below AA with white labels, now labelled in dark text.
  for (const fill of ['#59a14f', '#d37295', '#b07aa1', '#e15759', '#9c755f']) assert.ok(contrastRatio(fill, textOn(fill)) >= 4.5, fill);
  for (let a = -2.5; a <= 2.5; a += 0.05) {
    const fill = advantageColour(a);
    assert.ok(contrastRatio(fill, textOn(fill)) >= 4.5, `advantage ${a.toFixed(2)} ${fill}: ${textOn(fill)}`);
  }
  assert.ok(contrastRatio('#999', textOn('#999')) >= 4.5, 'NaN advantage');
  assert.ok(contrastRatio('#888', textOn('#888')) >= 4.5, 'unknown prompt');
});
