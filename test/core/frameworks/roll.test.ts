// ROLL's home against data made by ROLL's own code (scripts/golden/roll_layout.py → golden-roll-layout.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ConfigError } from '../../../src/core/errors.ts';
import { rollSchemeFor } from '../../../src/core/frameworks/roll/advantages.ts';
import { rollRanks } from '../../../src/core/frameworks/roll/counts.ts';
import { rollDispatch } from '../../../src/core/frameworks/roll/dispatch.ts';
import { home } from '../../../src/core/frameworks/roll/index.ts';
import { RollPromptStream } from '../../../src/core/frameworks/roll/order.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import { balanceBatchOrder } from '../../../src/core/frameworks/verl/balance.ts';

type Stat = 'group' | 'batch' | null;
interface Fixture {
  commit: string;
  source: string;
  order: { seed: number; datasetSize: number; rolloutBatchSize: number; steps: number[][]; datasetEpochAfter: number }[];
  dispatch: {
    ranks: number;
    prompts: number;
    k: number;
    seqlens: number[];
    balanced: number[];
    dynamic?: {
      maxTokens: number;
      round: number;
      order?: number[];
      microBatchIndices?: [number, number][];
      microBatchLengths?: number[];
      error?: string;
    };
    rankSources?: number[][];
  }[];
  advantages: { mean: Stat; std: Stat; k: number; rewards: number[]; advantages?: (number | null)[]; shape?: number[]; error?: string }[];
  errors: Record<string, string>;
  megatronDp: { gpus: number; tp: number; pp: number; cp: number; dp: number }[];
}

const fx: Fixture = JSON.parse(readFileSync(new URL('../../fixtures/golden-roll-layout.json', import.meta.url), 'utf8'));
const text = (e: string) => e.replace(/^(AssertionError|ValueError): /, '');
const settings = (over: Record<string, unknown>) => ({ ...defaultSettings(home.keys), ...over }) as ReturnType<typeof defaultSettings>;

test('fixture is from the pinned commit', () => {
  assert.equal(fx.commit, home.pinned.commit);
  assert.ok(fx.order.length > 40 && fx.dispatch.length > 80 && fx.advantages.length > 150);
});

test('prompt order equals get_next_dataset_item, pass after pass', () => {
  for (const c of fx.order) {
    const stream = new RollPromptStream(c.seed, c.datasetSize);
    const got = c.steps.map(() => stream.take(c.rolloutBatchSize).prompts);
    assert.deepEqual(got, c.steps, `seed ${c.seed} N ${c.datasetSize} B ${c.rolloutBatchSize}`);
    assert.equal(stream.epoch, c.datasetEpochAfter);
  }
});

test('batch_balance order equals the sandbox verl balance (ROLL copies verl)', () => {
  for (const c of fx.dispatch) assert.deepEqual(balanceBatchOrder(c.seqlens, c.ranks), c.balanced);
});

test('dispatch to ranks (balance, dynamic batching, chunk) equals ROLL', () => {
  let dynamicCases = 0;
  for (const [i, c] of fx.dispatch.entries()) {
    const dyn = c.dynamic ? { maxTokens: c.dynamic.maxTokens, round: c.dynamic.round } : null;
    if (c.dynamic?.error) {
      assert.throws(
        () => rollDispatch(c.seqlens, c.ranks, dyn),
        (e: Error) => e.message.includes(text(c.dynamic!.error!)),
      );
      continue;
    }
    const got = rollDispatch(c.seqlens, c.ranks, dyn);
    assert.deepEqual(got.sources, c.rankSources, `case ${i}`);
    if (c.dynamic) {
      dynamicCases++;
      assert.deepEqual(got.dynamic!.microBatchIndices, c.dynamic.microBatchIndices, `case ${i}`);
      assert.deepEqual(got.dynamic!.microBatchLengths, c.dynamic.microBatchLengths, `case ${i}`);
      const packed = home.packing as Exclude<typeof home.packing, { absent: string }>;
      const p = packed.pack(
        c.seqlens,
        settings({ ranks: c.ranks, 'max-tokens-per-microbatch-in-train': dyn!.maxTokens, 'sequence-length-round-in-train': dyn!.round }),
      );
      assert.equal(p.microBatchesPerRank, c.dynamic.microBatchIndices!.length);
      assert.deepEqual(
        p.ranks.map((mbs) => mbs.flat()),
        c.rankSources,
      );
    }
  }
  assert.ok(dynamicCases > 40);
});

const schemeOf = (mean: Stat, std: Stat) => {
  let name: string;
  try {
    name = rollSchemeFor(settings({ 'adv-estimator': 'reinforce', 'norm-mean-type': mean, 'norm-std-type': std }));
  } catch {
    return undefined;
  }
  return home.advantages.find((a) => a.scheme === name);
};

test('advantages equal reward_norm + compute_reinforce_return (float32 in ROLL, 1e-5 here)', () => {
  let checked = 0;
  for (const c of fx.advantages) {
    const scheme = schemeOf(c.mean, c.std);
    if (!c.advantages) {
      // ROLL broadcasts a flat batch against per-group stds: a (groups × samples) tensor, not one value per sample.
      assert.equal(scheme, undefined, `${c.mean}/${c.std} is not a scheme`);
      assert.notDeepEqual(c.shape, [c.rewards.length]);
      continue;
    }
    assert.ok(scheme, `${c.mean}/${c.std}`);
    const got = scheme.compute({ rewards: c.rewards, promptIds: c.rewards.map((_, i) => Math.floor(i / c.k)), k: c.k }).advantages;
    for (const [j, want] of c.advantages.entries()) {
      if (want === null) assert.equal(got[j], null);
      else
        assert.ok(Math.abs(got[j]! - want) <= 1e-5 * Math.max(1, Math.abs(want)), `${scheme.scheme} k ${c.k} [${j}]: ${got[j]} vs ${want}`);
    }
    checked++;
  }
  assert.ok(checked >= 140);
  assert.equal(home.advantages[0]!.scheme, 'roll');
  assert.throws(
    () => home.advantages[0]!.compute({ rewards: [0, 1, 0, 1, 1, 0], promptIds: [0, 0, 0, 0, 1, 1], k: 4 }),
    (e: Error) => e instanceof ConfigError && e.message.includes(fx.errors.rewardNormShape!),
  );
});

test("ROLL's config and balance errors, verbatim", () => {
  const throwsWith = (over: Record<string, unknown>, key: string) =>
    assert.throws(
      () => home.layout(settings(over)),
      (e: Error) => e instanceof ConfigError && e.message.includes(text(fx.errors[key]!)),
      key,
    );
  throwsWith({ 'device-mapping': 'list(range(0,8))', 'strategy-name': 'megatron_train', 'tensor-model-parallel-size': 3 }, 'megatronDp');
  throwsWith(
    {
      'device-mapping': 'list(range(0,16))',
      'strategy-name': 'megatron_train',
      'tensor-model-parallel-size': 2,
      'pipeline-model-parallel-size': 2,
      'train-batch-size': 6,
    },
    'megatronBatch',
  );
  throwsWith({ ranks: 2, 'train-batch-size': 3, k: 1, 'per-device-train-batch-size': 1 }, 'balanceNotMultiple');
  throwsWith({ ranks: 2, 'train-batch-size': 1, k: 1, 'per-device-train-batch-size': 1 }, 'balanceTooFew');
  throwsWith({ ranks: 1, 'train-batch-size': 12, k: 1 }, 'makeIterator');
  assert.throws(
    () => rollDispatch([300, 10, 20, 30], 2, { maxTokens: 256, round: 4 }),
    (e: Error) => e.message.includes(text(fx.errors.dynamicBudget!)),
  );
  assert.throws(() => home.layout(settings({ 'max-steps': 0 })), /max_steps must be greater than 0/);
  assert.throws(
    () => home.layout(settings({ 'dataset-size': 128 })),
    /domain_batch_size 128 must be less than the number of domain datasets 128/,
  );
  assert.throws(() => home.layout(settings({ 'async-generation-ratio': 0.5 })), /async_generation_ratio must be >= 1.0/);
  assert.throws(() => home.layout(settings({ 'async-generation-ratio': 1 })), /simulates only async_generation_ratio 0/);
});

test('Megatron data-parallel size from device_mapping', () => {
  for (const c of fx.megatronDp) {
    const s = settings({
      'device-mapping': `list(range(0,${c.gpus}))`,
      'strategy-name': 'megatron_train',
      'tensor-model-parallel-size': c.tp,
      'pipeline-model-parallel-size': c.pp,
      'context-parallel-size': c.cp,
    });
    assert.equal(rollRanks(s, 64).ranks, c.dp);
  }
  assert.equal(rollRanks(settings({ 'device-mapping': '[0, 1, 2]' }), 3).ranks, 3);
});

test('layout: steps, copies, counts', () => {
  const s = settings({
    ranks: 4,
    'train-batch-size': 6,
    k: 4,
    'dataset-size': 16,
    epochs: 2,
    'per-device-train-batch-size': 2,
    'max-steps': 100,
  });
  const out = home.layout(s);
  assert.equal(out.steps.length, Math.ceil((2 * 16) / 6));
  const stream = new RollPromptStream(42, 16);
  for (const step of out.steps) {
    assert.deepEqual(step.prompts, stream.take(6).prompts);
    assert.equal(step.ranks.length, 4);
    const all = step.ranks.flat().sort((a, b) => a - b);
    assert.deepEqual(
      all,
      step.prompts.flatMap((p) => [p, p, p, p]).sort((a, b) => a - b),
    );
    for (const [r, src] of step.sources.entries())
      assert.deepEqual(
        step.ranks[r],
        src.map((i) => step.prompts[Math.floor(i / 4)]),
      );
  }
  assert.deepEqual(
    out.steps.map((st) => [st.epoch, st.step]),
    [
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 1],
      [1, 2],
    ],
  );
  const count = (name: string) => out.counts.find((c) => c.name === name)!.value;
  assert.equal(count('samples per rank'), 6);
  assert.equal(count('actor/backward_steps'), 3);
  const given = home.layout(
    s,
    Array.from({ length: 6 * 24 }, (_, i) => 100 + (i % 7)),
  );
  assert.deepEqual(
    given.steps[0]!.seqlens,
    Array.from({ length: 24 }, (_, i) => 100 + (i % 7)),
  );
});

test('the shipped example_grpo.yaml reads as expected', () => {
  const parsed = parse(readFileSync(new URL('../../fixtures/configs/roll-example_grpo.yaml', import.meta.url), 'utf8'));
  const { settings: s, ignored } = readConfig(home.keys, parsed);
  assert.deepEqual(ignored, []);
  assert.equal(s['train-batch-size'], 64);
  assert.equal(s.k, 8);
  assert.equal(s['adv-estimator'], 'grpo');
  assert.equal(s['device-mapping'], 'list(range(0,16))');
  assert.equal(s['strategy-name'], 'megatron_train');
  assert.equal(s['gradient-accumulation-steps'], 32);
  assert.equal(rollSchemeFor(s), 'roll');
  assert.throws(() => rollSchemeFor(defaultSettings(home.keys)), /needs a critic/);
  const out = home.layout({ ...s, 'dataset-size': 1000 });
  assert.equal(out.steps[0]!.ranks.length, 16);
  assert.equal(out.steps[0]!.ranks[0]!.length, 32);
  assert.equal(out.counts.find((c) => c.name === 'actor/backward_steps')!.value, 1);
});
