import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { AREAL_SCHEMES, arealAdvantages } from '../../../src/core/frameworks/areal/advantages.ts';
import { home } from '../../../src/core/frameworks/areal/index.ts';
import { packRanks } from '../../../src/core/frameworks/areal/packing.ts';
import { balancedGreedyPartition, ffdAllocate, kkAllocate } from '../../../src/core/frameworks/areal/seqpack.ts';
import { StalenessManager } from '../../../src/core/frameworks/areal/staleness.ts';
import { AREAL_COMMIT } from '../../../src/core/frameworks/areal/version.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings } from '../../../src/core/frameworks/types.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'));
const layoutFx = fixture('golden-areal-layout.json');
const packingFx = fixture('golden-areal-packing.json');
const advFx = fixture('golden-areal-advantages.json');
const suffix = ` (AReaL ${AREAL_COMMIT.slice(0, 7)})`;

function settingsOf(c: Record<string, number | boolean | string>): FrameworkSettings {
  return {
    ...defaultSettings(home.keys),
    'train-batch-size': c.batchSize!,
    k: c.k!,
    seed: c.seed!,
    shuffle: c.shuffle!,
    'drop-last': c.dropLast!,
    'dataloader-num-workers': c.workers!,
    epochs: c.epochs!,
    'dataset-size': c.datasetSize!,
    ranks: c.ranks!,
    'spmd-mode': c.spmd!,
    'packing-algorithm': c.packingAlgorithm!,
  };
}

test('fixtures come from the pinned commit', () => {
  for (const fx of [layoutFx, packingFx, advFx]) assert.equal(fx.commit, AREAL_COMMIT);
  assert.equal(home.pinned.commit, AREAL_COMMIT);
});

test('layout: prompt order and dispatch equal AReaL’s loader + dispatch (golden-areal-layout.json)', () => {
  assert.ok(layoutFx.cases.length >= 18);
  for (const c of layoutFx.cases) {
    const out = home.layout(settingsOf(c.settings));
    const label = JSON.stringify(c.settings);
    assert.equal(out.counts.find((x) => x.name === 'len(train_dataloader)')!.value, c.stepsPerEpoch, label);
    assert.equal(out.steps.length, c.steps.length, label);
    c.steps.forEach((want: Record<string, unknown>, s: number) => {
      const got = out.steps[s]!;
      assert.deepEqual(
        { epoch: got.epoch, step: got.step, prompts: got.prompts, ranks: got.ranks, sources: got.sources, seqlens: got.seqlens },
        want,
        `${label} step ${s}`,
      );
    });
  }
});

test('layout: measured token counts replace the synthetic ones', () => {
  const c = layoutFx.cases[1];
  const seqlens = c.steps.flatMap((s: { seqlens: number[] }) => s.seqlens);
  const out = home.layout({ ...settingsOf(c.settings), seed: 999 }, seqlens);
  assert.deepEqual(
    out.steps.map((s) => s.sources),
    c.steps.map((s: { sources: number[][] }) => s.sources),
  );
});

test('AReaL’s errors, verbatim', () => {
  const e = layoutFx.errors;
  const base = settingsOf(layoutFx.cases[0].settings);
  assert.throws(() => home.layout({ ...base, 'spmd-mode': true, ranks: 4, 'train-batch-size': 6 }), {
    message: e.createDataloader.message + suffix,
  });
  assert.throws(() => home.layout({ ...base, ranks: 4, 'train-batch-size': 2 }), { message: e.balancedFewItems.message + suffix });
  assert.throws(() => home.layout({ ...base, ranks: 2, 'train-batch-size': 3 }), { message: e.balancedIndivisible.message + suffix });
  assert.throws(() => balancedGreedyPartition([5, 3], 4), { message: e.balancedFewItems.message + suffix });
  assert.throws(() => balancedGreedyPartition([5, 3, 2], 2), { message: e.balancedIndivisible.message + suffix });
  assert.throws(() => ffdAllocate([5, 3], 1e12, 4), { message: e.ffdFewValues.message + suffix });
  assert.throws(() => kkAllocate([5, 3], 1e12, 4), { message: e.kkFewValues.message + suffix });
  for (const err of Object.values(packingFx.errors) as {
    lengths: number[];
    maxTokensPerMb: number;
    packingAlgorithm: 'ffd' | 'kk';
    message: string;
  }[]) {
    assert.throws(() => packRanks([err.lengths], err.maxTokensPerMb, err.packingAlgorithm, 1), { message: err.message + suffix });
  }
});

test('ranks from actor.backend, and a contradiction refused', () => {
  const base = { ...defaultSettings(home.keys), 'dataset-size': 64, 'train-batch-size': 8, k: 2 };
  const out = home.layout({ ...base, 'actor-backend': 'fsdp:d4p1t1' });
  assert.equal(out.steps[0]!.ranks.length, 4);
  assert.throws(() => home.layout({ ...base, 'actor-backend': 'fsdp:d4p1t1', ranks: 2 }), /contradicts actor.backend/);
  assert.equal(home.layout({ ...base, 'actor-backend': 'fsdp:d4p1t1', ranks: 4 }).steps[0]!.ranks.length, 4);
});

/** A packing's micro-batches as lengths: what equal lengths in another order cannot change. */
const asLengths = (mbs: number[][][][], lens: number[][]) =>
  mbs.map((minis, r) => minis.map((m) => m.map((mb) => mb.map((i) => lens[r]![i]!).sort((a, b) => a - b))));

test('packing: minibatches and micro-batches per rank equal AReaL’s (golden-areal-packing.json)', () => {
  let exact = 0;
  for (const c of packingFx.cases) {
    const label = JSON.stringify({ ...c, microBatches: undefined });
    const run = () => packRanks(c.lengths, c.maxTokensPerMb, c.packingAlgorithm, c.ppoNMinibatches);
    if (c.error) {
      assert.throws(run, { message: c.error + suffix }, label);
      continue;
    }
    const got = run();
    assert.deepEqual([...got.warnings].sort(), c.warnings, label);
    if (c.ties && c.packingAlgorithm === 'ffd') {
      // np.argsort's order among equal lengths is numpy's SIMD sort's: compare what it cannot change.
      assert.deepEqual(asLengths(got.minibatches, c.lengths), asLengths(c.microBatches, c.lengths), label);
    } else {
      assert.deepEqual(got.minibatches, c.microBatches, label);
      exact++;
    }
  }
  assert.ok(exact >= 30, `${exact} exact cases`);
});

test('home.packing.pack: dispatch then micro-batches, as step sample indices', () => {
  const c = layoutFx.cases.find((x: { settings: { spmd: boolean; ranks: number } }) => !x.settings.spmd && x.settings.ranks === 4);
  const settings = { ...settingsOf(c.settings), 'max-tokens-per-mb': 4096, 'ppo-n-minibatches': 1 };
  const step = c.steps[0];
  if ('absent' in home.packing) throw new Error('packing expected');
  const packed = home.packing.pack(step.seqlens, settings);
  assert.equal(packed.ranks.length, 4);
  packed.ranks.forEach((mbs, r) => {
    assert.deepEqual(
      mbs.flat().sort((a, b) => a - b),
      [...step.sources[r]].sort((a, b) => a - b),
    );
    for (const mb of mbs) assert.ok(mb.reduce((s, i) => s + step.seqlens[i], 0) <= 4096);
    assert.equal(mbs.length, packed.microBatchesPerRank);
  });
});

test('advantages equal PPOActor._compute_advantages (golden-areal-advantages.json)', () => {
  for (const c of advFx.cases) {
    const scheme = AREAL_SCHEMES.find((s) => s.scheme === c.scheme)!;
    const got = arealAdvantages(c.rewards, c.k, {
      ...scheme,
      rewardNorm: scheme.rewardNorm && { ...scheme.rewardNorm, stdUnbiased: c.stdUnbiased, eps: c.eps },
      advNorm: scheme.advNorm && { ...scheme.advNorm, stdUnbiased: c.stdUnbiased, eps: c.eps },
      rewardBias: c.rewardBias,
      rewardScaling: c.rewardScaling,
      rewardClip: c.rewardClip,
      responseLength: c.responseLength,
    });
    const label = JSON.stringify({ ...c, advantages: undefined });
    assert.equal(got.length, c.advantages.length, label);
    got.forEach((v, i) => {
      const want = c.advantages[i];
      assert.ok(Math.abs(v - want) <= 1e-6 * Math.max(1, Math.abs(want)), `${label} [${i}]: ${v} vs ${want}`);
    });
  }
});

test('advantage schemes: the shipped example first, by position, with warnings', () => {
  assert.deepEqual(
    home.advantages.map((a) => a.scheme),
    ['areal', 'areal-drgrpo', 'areal-rloo', 'areal-liteppo'],
  );
  const c = advFx.cases.find(
    (x: { scheme: string; rewardBias: number; responseLength: number; stdUnbiased: boolean; eps: number; rewards: number[]; k: number }) =>
      x.scheme === 'areal' &&
      x.rewardBias === -0.5 &&
      x.responseLength === 1 &&
      x.stdUnbiased &&
      x.eps === 1e-5 &&
      x.rewards.length % x.k === 0,
  );
  const promptIds = c.rewards.map((_: number, i: number) => Math.floor(i / c.k));
  const out = home.advantages[0]!.compute({ rewards: c.rewards, promptIds, k: c.k });
  out.advantages.forEach((v, i) => assert.ok(Math.abs((v as number) - c.advantages[i]) <= 1e-6 * Math.max(1, Math.abs(c.advantages[i]))));
  assert.deepEqual(out.warnings, []);
  const odd = home.advantages[0]!.compute({ rewards: [1, 0, 1], promptIds: [0, 1, 0], k: 2 });
  assert.equal(odd.warnings.length, 2);
});

test('the shipped gsm8k_grpo.yaml excerpt reads as the example runs', () => {
  const text = readFileSync(new URL('../../fixtures/configs/areal-gsm8k_grpo.yaml', import.meta.url), 'utf8');
  const { settings, ignored } = readConfig(home.keys, parse(text));
  assert.deepEqual(ignored, []);
  assert.equal(settings['train-batch-size'], 256);
  assert.equal(settings.k, 4);
  assert.equal(settings.seed, 1);
  assert.equal(settings.shuffle, true);
  assert.equal(settings['dataloader-num-workers'], 4);
  assert.equal(settings['actor-backend'], 'fsdp:d4p1t1');
  assert.equal(settings['max-tokens-per-mb'], 10240);
  assert.equal(settings['packing-algorithm'], 'ffd');
  assert.equal(settings['ppo-n-minibatches'], 1);
  assert.equal(settings['max-head-offpolicyness'], 2);
  assert.equal(settings['max-concurrent-rollouts'], 256);
  assert.equal(settings.epochs, 10);
  const out = home.layout({ ...settings, 'dataset-size': 1024, epochs: 1 });
  assert.equal(out.steps.length, 4);
  assert.equal(out.steps[0]!.ranks.length, 4);
  assert.ok(out.steps[0]!.ranks.every((r) => r.length === 256));
});

test('StalenessManager: capacity after every event equals AReaL’s (golden-areal-staleness.json)', () => {
  const fx = fixture('golden-areal-staleness.json');
  assert.equal(fx.commit, AREAL_COMMIT);
  for (const t of fx.traces) {
    const m = new StalenessManager(t.maxConcurrentRollouts, t.consumerBatchSize, t.maxStaleness);
    t.events.forEach((e: { event: string; version?: number; capacity: number; pendingLimit: number; stats: object }, i: number) => {
      if (e.event === 'enqueue') m.enqueued();
      else if (e.event === 'submit') m.submitted();
      else if (e.event === 'accept') m.accepted();
      else if (e.event === 'reject') m.rejected();
      else if (e.event === 'version') m.version = e.version!;
      else {
        m.version = e.version!;
        m.versionRecovered(e.version!);
      }
      const label = `${JSON.stringify({ ...t, events: undefined })} event ${i} ${e.event}`;
      assert.equal(m.capacity(), e.capacity, label);
      assert.equal(m.pendingLimit(), e.pendingLimit, label);
      assert.deepEqual({ ...m.stat }, e.stats, label);
    });
  }
});
