// The layout picture's text as the painter draws it, read from a context that records every fillText: no text of a
// tile is drawn under 9 px at any tile size (at 22–27 px tiles the labels were 7–8 px), and only a group that mixes
// prompts is said in the error colour (a group of another size than k is a fact of the run, in its box's purple).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Gather, RegroupRow } from '../../src/core/layout/types.ts';
import { Grid, groupIndices, paintFrame } from '../../src/ui/layout-painter.ts';
import { buildScene } from '../../src/ui/scene.ts';
import { tweenPositions } from '../../src/ui/layout-tween.ts';
import { phaseIds } from '../../src/ui/story.ts';

/** 2 ranks × 2 slots × 2 steps: prompts 7 and 3 twice each per step, as seed-000's shipped loader doubles a group. */
const samples: Gather['samples'] = [];
for (let rank = 0; rank < 2; rank++)
  for (let step = 0; step < 2; step++)
    for (let slot = 0; slot < 2; slot++)
      samples.push({ promptId: slot === 0 ? 7 : 3, rank, stepIndex: step, slot, uid: `${rank}${step}${slot}` });
const gather: Gather = { epoch: 0, stepIndices: [0, 1], samples };
const byId = (p: number) => samples.flatMap((s, i) => (s.promptId === p ? [i] : []));
/** By prompt id: two groups of 4 (k = 2, so each is off size); by view(-1, 2): rows that mix 7 and 3. */
const promptRows: RegroupRow[] = [7, 3].map((p) => ({
  key: `p${p}`,
  members: byId(p),
  promptIds: byId(p).map(() => p),
  mixed: false,
  offSize: true,
}));
const viewRows: RegroupRow[] = [0, 1, 2, 3].map((r) => {
  const members = [2 * r, 2 * r + 1];
  return { key: `v${r}`, members, promptIds: members.map((i) => samples[i]!.promptId), mixed: true, offSize: false };
});

interface Drawn {
  text: string;
  font: string;
  fill: string;
}

/** A 2D context that records the text drawn (everything else is a no-op). */
function recordingContext(): { ctx: CanvasRenderingContext2D; drawn: Drawn[] } {
  const drawn: Drawn[] = [];
  const state = { font: '10px sans-serif', fillStyle: '#000' as unknown };
  const ctx = new Proxy(state, {
    get: (target, key) =>
      key in target
        ? target[key as keyof typeof target]
        : key === 'fillText'
          ? (text: string) => drawn.push({ text, font: state.font, fill: String(state.fillStyle) })
          : () => undefined,
    set: (target, key, value) => {
      (target as Record<string | symbol, unknown>)[key] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, drawn };
}

function paint(rows: RegroupRow[], method: 'prompt-id' | 'view', cell: number, phase: number): Drawn[] {
  const scene = buildScene(gather, rows, 2, 40, method);
  const advantages = samples.map((_, i) => (i % 3) - 1);
  const { ctx, drawn } = recordingContext();
  paintFrame(
    ctx,
    {
      scene,
      grid: new Grid(cell),
      phase,
      progress: 1,
      positions: tweenPositions(scene, phase, 1),
      colours: new Map([
        [7, '#4e79a7'],
        [3, '#f28e2b'],
      ]),
      byPrompt: groupIndices(samples.map((s) => s.promptId)),
      byAdvantage: groupIndices(advantages),
      advantages,
      active: null,
      cursor: null,
    },
    2000,
    2000,
  );
  return drawn;
}

const px = (font: string) => Number(/(\d+(?:\.\d+)?)px/.exec(font)![1]);

test('no text in the picture under 9 px, at any tile size and phase', () => {
  for (let cell = 4; cell <= 46; cell++)
    for (let phase = 0; phase < phaseIds.length; phase++)
      for (const [rows, method] of [
        [promptRows, 'prompt-id'],
        [viewRows, 'view'],
      ] as const)
        for (const d of paint(rows, method, cell, phase))
          assert.ok(px(d.font) >= 9, `cell ${cell}, ${phaseIds[phase]}: "${d.text}" at ${d.font}`);
});

test('a tile carries its prompt at tiles of 28 px and more, none below', () => {
  // The gather phase: its row labels name ranks, so every "P7" drawn is a tile's.
  const gathered = phaseIds.indexOf('gather');
  assert.ok(paint(promptRows, 'prompt-id', 28, gathered).some((d) => d.text === 'P7'));
  assert.ok(!paint(promptRows, 'prompt-id', 27, gathered).some((d) => d.text === 'P7'));
});

test('a group that mixes prompts is flagged in the error colour; a group of another size than k is not', () => {
  const regroup = phaseIds.indexOf('regroup');
  const mixes = paint(viewRows, 'view', 40, regroup).filter((d) => d.text.includes('7') && d.text.includes('3') && !/^P/.test(d.text));
  const size = paint(promptRows, 'prompt-id', 40, regroup).filter((d) => d.text.includes('≠ k'));
  assert.ok(mixes.length > 0 && size.length > 0, 'both flags are drawn');
  const colours = (ds: Drawn[]) => new Set(ds.map((d) => d.fill));
  for (const c of colours(size)) assert.ok(!colours(mixes).has(c), `size ≠ k in ${c}, the colour of a mix`);
});
