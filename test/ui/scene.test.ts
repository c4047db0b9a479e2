import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildScene } from '../../src/ui/scene.ts';
import type { Gather, RegroupRow } from '../../src/core/layout/types.ts';

// 2 ranks × 2 slots × 2 steps, k = 2: a hand-written gather (rank-major over steps 0 and 1).
const ids = [
  [
    [7, 3],
    [3, 9],
  ],
  [
    [1, 7],
    [9, 1],
  ],
]; // ids[step][rank][slot]
const samples: Gather['samples'] = [];
for (let rank = 0; rank < 2; rank++)
  for (let step = 0; step < 2; step++)
    for (let slot = 0; slot < 2; slot++) {
      samples.push({ promptId: ids[step]![rank]![slot]!, rank, stepIndex: step, slot, uid: `s${step}:p${ids[step]![rank]![slot]}` });
    }
const gather: Gather = { epoch: 0, stepIndices: [0, 1], samples };
const rows: RegroupRow[] = [7, 3, 1, 9].map((p) => {
  const members = samples.flatMap((s, i) => (s.promptId === p ? [i] : []));
  return { key: `p${p}`, members, promptIds: members.map(() => p), mixed: false, offSize: false };
});

test('scatter puts rank r, slot s of step t at row 1 + r, column t·(B+1) + s; accumulate closes the gaps', () => {
  const scene = buildScene(gather, rows, 2, 40, 'prompt-id');
  samples.forEach((s, i) => {
    assert.equal(scene.phases.scatter.y[i], 1 + s.rank);
    assert.equal(scene.phases.scatter.x[i], s.stepIndex * 3 + s.slot);
    assert.equal(scene.phases.accumulate.x[i], s.stepIndex * 2 + s.slot);
  });
});

test("gather is one rank-major line in gathered order; slice puts gathered[r·n, (r+1)·n) on rank r's row", () => {
  const scene = buildScene(gather, rows, 2, 40, 'prompt-id');
  for (let i = 0; i < samples.length; i++) {
    assert.deepEqual([scene.phases.gather.x[i], scene.phases.gather.y[i]], [i, 1]);
    assert.deepEqual([scene.phases.slice.x[i], scene.phases.slice.y[i]], [i % 4, 1 + Math.floor(i / 4)]);
  }
});

test("a narrow canvas wraps the gathered line at whole ranks; regroup puts each row's members side by side", () => {
  const scene = buildScene(gather, rows, 2, 6, 'prompt-id');
  for (let i = 0; i < samples.length; i++)
    assert.deepEqual([scene.phases.gather.x[i], scene.phases.gather.y[i]], [i % 4, 1 + Math.floor(i / 4)]);
  rows.forEach((row) => {
    const ys = row.members.map((i) => scene.phases.regroup.y[i]);
    assert.equal(new Set(ys).size, 1);
    assert.deepEqual(
      row.members.map((i) => scene.phases.regroup.x[i]! - scene.phases.regroup.x[row.members[0]!]!),
      [0, 1],
    );
  });
});
