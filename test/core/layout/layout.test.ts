// Gathers (rank-major, per scope), the three regroupings and their flags, copies and statistics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copiesOf, explainLayout, gathers, layoutStats, regroup } from '../../../src/core/layout/index.ts';
import type { Gather, Layout, LayoutConfig } from '../../../src/core/layout/types.ts';
import { buildLayout, defaultConfig, samplerNames } from '../../../src/core/samplers/index.ts';
import { advantagesOfRegroup, danceGrpoAdvantages, sliceToRanks } from '../../../src/core/grpo/advantages.ts';

/** A hand-made layout: two steps of one epoch, 2 ranks × 2 slots, k = 2; prompt 7 drawn in both steps. */
function handLayout(gatherScope: 'epoch' | 'step'): Layout {
  const config: LayoutConfig = { ...defaultConfig, ranks: 2, batch: 2, k: 2, batchesPerEpoch: 2, epochs: 1, datasetSize: 10 };
  return {
    sampler: 'flow-grpo',
    config,
    gatherScope,
    drawScope: 'step',
    notes: [],
    counts: {
      perEpoch: { generationBatches: 2, microSteps: 2, optimizerSteps: 2 },
      total: { generationBatches: 2, microSteps: 2, optimizerSteps: 2 },
      factors: [],
    },
    steps: [
      {
        epoch: 0,
        step: 0,
        ranks: [
          [7, 3],
          [3, 7],
        ],
      },
      {
        epoch: 0,
        step: 1,
        ranks: [
          [7, 7],
          [5, 5],
        ],
      },
    ],
  };
}

test('epoch-scope gather: each rank concatenates its batches, then rank-major', () => {
  const [g, ...rest] = gathers(handLayout('epoch'));
  assert.equal(rest.length, 0);
  assert.deepEqual(g!.stepIndices, [0, 1]);
  assert.deepEqual(
    g!.samples.map((s) => s.promptId),
    [7, 3, 7, 7, 3, 7, 5, 5],
  );
  assert.deepEqual(
    g!.samples.map((s) => `${s.rank}.${s.stepIndex}.${s.slot}`),
    ['0.0.0', '0.0.1', '0.1.0', '0.1.1', '1.0.0', '1.0.1', '1.1.0', '1.1.1'],
  );
});

test('step-scope gathers: one per step, rank-major', () => {
  const gs = gathers(handLayout('step'));
  assert.deepEqual(
    gs.map((g) => g.samples.map((s) => s.promptId)),
    [
      [7, 3, 3, 7],
      [7, 7, 5, 5],
    ],
  );
});

test('uids: one per draw, so a prompt drawn in two batches gets two', () => {
  const g = gathers(handLayout('epoch'))[0]!;
  const uids = new Map<string, number[]>();
  g.samples.forEach((s, i) => uids.set(s.uid, [...(uids.get(s.uid) ?? []), i]));
  assert.equal(uids.size, 4);
  assert.deepEqual(
    [...uids.values()].map((m) => m.length),
    [2, 2, 2, 2],
  );
});

test('regroup by prompt id accumulates over the epoch: a prompt drawn twice forms a 2k group', () => {
  const rows = regroup(gathers(handLayout('epoch'))[0]!, 'prompt-id', 2);
  assert.deepEqual(
    rows.map((r) => [r.key, r.members, r.offSize, r.mixed]),
    [
      ['p7', [0, 2, 3, 5], true, false],
      ['p3', [1, 4], false, false],
      ['p5', [6, 7], false, false],
    ],
  );
});

test('regroup view(-1, k) flags rows that mix prompts and a short last row', () => {
  const g = gathers(handLayout('epoch'))[0]!;
  const rows = regroup(g, 'view', 2);
  assert.deepEqual(
    rows.map((r) => [r.promptIds, r.mixed]),
    [
      [[7, 3], true],
      [[7, 7], false],
      [[3, 7], true],
      [[5, 5], false],
    ],
  );
  const short = regroup(g, 'view', 3);
  assert.deepEqual(
    short.map((r) => r.offSize),
    [false, false, true],
  );
});

test('regroup by uid keeps every draw its own group of k', () => {
  const rows = regroup(gathers(handLayout('epoch'))[0]!, 'uid', 2);
  assert.equal(rows.length, 4);
  assert.ok(rows.every((r) => !r.mixed && !r.offSize));
});

test('contiguous layouts regroup cleanly with view(-1, k); scattered ones do not', () => {
  const contiguous = buildLayout({ ...defaultConfig, sampler: 'contiguous', batch: 4, k: 4, datasetSize: 64 });
  for (const g of gathers(contiguous)) assert.ok(regroup(g, 'view', 4).every((r) => !r.mixed && !r.offSize));
  assert.equal(layoutStats(contiguous).mixedViewRows, 0);
  const scattered = buildLayout(defaultConfig);
  assert.ok(layoutStats(scattered).mixedViewRows > 0);
});

test('copiesOf: every copy with its rank, slot and gathered position', () => {
  const layout = handLayout('epoch');
  assert.deepEqual(copiesOf(layout, 7), [
    { rank: 0, stepIndex: 0, slot: 0, gatheredIndex: 0 },
    { rank: 0, stepIndex: 1, slot: 0, gatheredIndex: 2 },
    { rank: 0, stepIndex: 1, slot: 1, gatheredIndex: 3 },
    { rank: 1, stepIndex: 0, slot: 1, gatheredIndex: 5 },
  ]);
  assert.deepEqual(
    copiesOf(layout, 7, 0).map((c) => c.gatheredIndex),
    [0, 5],
  );
  assert.deepEqual(copiesOf(layout, 9), []);
});

test('copiesOf agrees with the gathered order for every sampler', () => {
  for (const sampler of samplerNames) {
    const over = sampler === 'group-distributed' ? { k: 8 } : sampler === 'contiguous' || sampler === 'dance-grpo' ? { batch: 4 } : {};
    const layout = buildLayout({ ...defaultConfig, sampler, datasetSize: 64, epochs: 2, ...over });
    const all = gathers(layout);
    for (const [si, step] of layout.steps.entries()) {
      const g: Gather = all.find((x) => x.stepIndices.includes(si))!;
      for (const id of new Set(step.ranks.flat())) {
        const places = copiesOf(layout, id, si);
        assert.equal(places.length, step.ranks.flat().filter((x) => x === id).length);
        for (const c of places) {
          assert.equal(step.ranks[c.rank]![c.slot], id);
          assert.equal(g.samples[c.gatheredIndex]!.promptId, id);
        }
      }
    }
  }
});

test('seed-000 statistics: 16, 4, 32, 8 and copies spread over ranks', () => {
  const stats = layoutStats(buildLayout(defaultConfig));
  assert.equal(stats.samplesPerBatch, 16);
  assert.equal(stats.uniquePromptsPerBatch, 4);
  assert.equal(stats.samplesPerEpoch, 32);
  assert.equal(stats.uniquePromptsPerEpoch, 8);
  assert.equal(stats.perRankPerBatch, 2);
  assert.equal(stats.perRankPerEpoch, 4);
  assert.equal(stats.samplesPerGather, 32);
  assert.equal(stats.groups, 8);
  // Histograms count every (group, rank) pair and every group.
  assert.equal(
    stats.copiesPerRankHistogram.reduce((a, b) => a + b, 0),
    8 * 8,
  );
  assert.equal(
    stats.copiesPerRankHistogram.reduce((a, n, c) => a + n * c, 0),
    32,
  );
  assert.equal(
    stats.ranksSpannedHistogram.reduce((a, b) => a + b, 0),
    8,
  );
  assert.ok(stats.maxCopiesOnOneRank <= 2);
});

test('statistics find prompts drawn twice in an epoch and the 2k groups they make', () => {
  const layout = handLayout('epoch');
  const stats = layoutStats(layout);
  assert.deepEqual(stats.promptsDrawnTwice, [{ epoch: 0, promptId: 7, draws: 2, stepIndices: [0, 1] }]);
  assert.equal(stats.offSizePromptGroups, 1);
  assert.deepEqual(stats.distinctPromptsPerEpoch, [3]);
  assert.equal(stats.maxCopiesOnOneRank, 2);
  assert.match(explainLayout(layout, stats).join(' '), /p7 \(epoch 0, 2×\)/);
});

test("the explanation states seed-000's numbers", () => {
  const layout = buildLayout(defaultConfig);
  const text = explainLayout(layout, layoutStats(layout)).join('\n');
  assert.match(text, /8 × 2 = 16 samples = 4 prompts × k=4/);
  assert.match(text, /2 batches × 16 = 32 samples, 8 prompt draws/);
  assert.match(text, /shape \[2, …\]/);
});

test("regroup 'local' forms each rank's consecutive k; on a layout that keeps copies together its rows are the draws", () => {
  for (const sampler of ['dance-grpo', 'contiguous'] as const) {
    const layout = buildLayout({ ...defaultConfig, sampler, ranks: 4, batch: 4, k: 2, datasetSize: 16 });
    const g = gathers(layout)[0]!;
    const rows = regroup(g, 'local', 2);
    for (const row of rows) {
      const ranks = new Set(row.members.map((i) => g.samples[i]!.rank));
      assert.equal(ranks.size, 1, 'a local row never leaves its rank');
      assert.equal(row.members.length, 2);
      assert.equal(row.mixed, false, `${sampler}: copies kept together, so no local row mixes prompts`);
      assert.equal(new Set(row.members.map((i) => g.samples[i]!.uid)).size, 1, 'one draw per local row');
    }
    const rewards = g.samples.map((_, i) => ((i * 7919) % 13) / 13);
    const expected = sliceToRanks(rewards, 4).flatMap((local) => danceGrpoAdvantages(local, 2));
    assert.deepEqual(advantagesOfRegroup('local', g, rewards, 2), expected);
  }
  // On flow_grpo's scattered layout, local rows mix prompts: copies are not on one rank.
  const scattered = gathers(buildLayout(defaultConfig))[0]!;
  assert.ok(regroup(scattered, 'local', 4).some((r) => r.mixed));
});
