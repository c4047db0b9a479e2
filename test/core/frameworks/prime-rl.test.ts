// The prime-rl home against prime-rl's own code (test/fixtures/golden-prime-rl-layout.json, written by
// scripts/golden/prime_rl_layout.py from the checkout at 559b447): the trainer's prepare_batch packing and
// balanced_partition, the sink's step cutting over StandardSampler's task order, score_group's advantages;
// then prime-rl's config errors and the shipped hendrycks-sanity example.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { ConfigError } from '../../../src/core/errors.ts';
import { home } from '../../../src/core/frameworks/prime-rl/index.ts';
import { scoreGroup } from '../../../src/core/frameworks/prime-rl/advantages.ts';
import { prepareBatch } from '../../../src/core/frameworks/prime-rl/packing.ts';
import { balancedPartition } from '../../../src/core/frameworks/prime-rl/partition.ts';
import { PRIME_RL_COMMIT } from '../../../src/core/frameworks/prime-rl/version.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings } from '../../../src/core/frameworks/types.ts';

type Ranks = (number[] | null)[][];
interface Golden {
  commit: string;
  packing: { seqLen: number; workers: number; pad: number; seqlens: number[]; ranks: Ranks }[];
  partitions: { weights: number[]; parts: number; partitions: number[][] }[];
  layouts: {
    datasetSize: number;
    k: number;
    batchSize: number | null;
    tokenBatchSize: number | null;
    workers: number;
    seqLen: number;
    pad: number;
    epochs: number;
    maxSteps: number | null;
    seqlens: number[];
    steps: { samples: number[]; tasks: number[]; ranks: Ranks }[];
  }[];
  advantages: {
    rewards: number[];
    outputTokens: number[];
    totalTokens: number[];
    turns: number[];
    lengthPenalty: { num_output_tokens_weight: number; num_input_tokens_weight: number; num_turns_weight: number } | null;
    advantages: number[];
  }[];
}
const read = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');
const golden = JSON.parse(read('golden-prime-rl-layout.json')) as Golden;

const settings = (over: FrameworkSettings): FrameworkSettings => ({ ...defaultSettings(home.keys), ...over });

test('the fixture was made at the pinned commit', () => {
  assert.equal(golden.commit, PRIME_RL_COMMIT);
  assert.equal(home.pinned.commit, PRIME_RL_COMMIT);
});

golden.packing.forEach((c, i) => {
  test(`prepare_batch case ${i}: ${c.seqlens.length} samples, seq_len ${c.seqLen}, ${c.workers} rank(s), pad ${c.pad}`, () => {
    const got = prepareBatch(c.seqlens, c.seqLen, c.workers, c.pad).map((rank) => rank.map((mb) => (mb.dummy ? null : mb.samples)));
    assert.deepEqual(got, c.ranks);
    const packed = home.packing as Exclude<typeof home.packing, { absent: string }>;
    const viaHome = packed.pack(c.seqlens, settings({ 'seq-len': c.seqLen, ranks: c.workers, cp: c.pad }));
    assert.deepEqual(
      viaHome.ranks,
      c.ranks.map((rank) => rank.map((mb) => mb ?? [])),
    );
    assert.equal(viaHome.microBatchesPerRank, c.ranks[0]!.length);
  });
});

golden.partitions.forEach((c, i) => {
  test(`balanced_partition case ${i}: ${c.weights.length} weights into ${c.parts}`, () => {
    assert.deepEqual(balancedPartition(c.weights, c.parts), c.partitions);
  });
});

golden.layouts.forEach((c, i) => {
  const what = c.batchSize !== null ? `batch_size ${c.batchSize}` : `token_batch_size ${c.tokenBatchSize}`;
  test(`layout case ${i}: ${c.datasetSize} tasks, group_size ${c.k}, ${what}, ${c.workers} rank(s), ${c.epochs} pass(es)`, () => {
    const out = home.layout(
      settings({
        'dataset-size': c.datasetSize,
        k: c.k,
        'train-batch-size': c.batchSize,
        'token-batch-size': c.tokenBatchSize,
        ranks: c.workers,
        cp: c.pad,
        'seq-len': c.seqLen,
        epochs: c.epochs,
        'max-steps': c.maxSteps,
      }),
      c.seqlens,
    );
    assert.equal(out.steps.length, c.steps.length);
    out.steps.forEach((step, s) => {
      const want = c.steps[s]!;
      const draw = (id: number) => Math.floor(id / c.k);
      const prompts = want.samples
        .filter((id, j) => j === 0 || draw(id) !== draw(want.samples[j - 1]!))
        .map((id) => draw(id) % c.datasetSize);
      assert.deepEqual(step.prompts, prompts, `step ${s} prompts`);
      const perRank = want.ranks.map((rank) => rank.flatMap((mb) => mb ?? []));
      assert.deepEqual(
        step.sources,
        perRank.map((ids) => ids.map((id) => want.samples.indexOf(id))),
        `step ${s} sources`,
      );
      assert.deepEqual(
        step.ranks,
        perRank.map((ids) => ids.map((id) => want.tasks[want.samples.indexOf(id)]!)),
        `step ${s} ranks`,
      );
      assert.deepEqual(
        step.seqlens,
        want.samples.map((id) => c.seqlens[id]!),
      );
    });
  });
});

// float32 results; torch sums in its own order, so agreement is to float32 precision.
const close = (got: readonly (number | null)[], want: readonly number[]) => {
  assert.equal(got.length, want.length);
  got.forEach((g, i) => assert.ok(Math.abs(g! - want[i]!) <= 4e-7 * Math.max(1, Math.abs(want[i]!)), `${i}: ${g} vs ${want[i]}`));
};

golden.advantages.forEach((c, i) => {
  test(`score_group case ${i}: ${c.rewards.length} rewards${c.lengthPenalty ? ', length penalty' : ''}`, () => {
    const p = c.lengthPenalty;
    const counts = c.rewards.map((_, j) => ({ outputTokens: c.outputTokens[j]!, totalTokens: c.totalTokens[j]!, turns: c.turns[j]! }));
    const got = p
      ? scoreGroup(
          c.rewards,
          {
            numOutputTokensWeight: p.num_output_tokens_weight,
            numInputTokensWeight: p.num_input_tokens_weight,
            numTurnsWeight: p.num_turns_weight,
          },
          counts,
        )
      : scoreGroup(c.rewards);
    close(got, c.advantages);
    if (!p)
      close(
        home.advantages[0]!.compute({ rewards: c.rewards, promptIds: c.rewards.map(() => 0), k: c.rewards.length }).advantages,
        c.advantages,
      );
  });
});

test('the default scheme scores consecutive groups of k separately', () => {
  const { advantages } = home.advantages[0]!.compute({ rewards: [1, 0, 1, 1], promptIds: [0, 0, 0, 0], k: 2 });
  assert.deepEqual(advantages, [0.5, -0.5, 0, 0]);
  assert.throws(() => home.advantages[0]!.compute({ rewards: [1, 0, 1], promptIds: [0, 0, 0], k: 2 }), ConfigError);
});

test("prime-rl's config errors, in its words", () => {
  const tag = '(prime-rl 559b447)';
  assert.throws(() => home.layout(settings({ 'train-batch-size': 8, 'token-batch-size': 100 })), {
    message: `Set exactly one of batch_size or token_batch_size ${tag}`,
  });
  assert.throws(() => home.layout(settings({ 'train-batch-size': 10, k: 4 })), {
    message: `Batch size must be divisible by the number of samples per problem ${tag}`,
  });
  assert.throws(() => home.layout(settings({ k: 2048, 'train-batch-size': 2048 })), {
    message: `concurrency.max_inflight must be at least the number of rollouts per example ${tag}`,
  });
  assert.throws(() => home.layout(settings({ 'dataset-size': 0 })), { message: `A finite curriculum needs at least one task ${tag}` });
  assert.throws(() => home.layout(settings({ k: 0 })), ConfigError);
  assert.throws(() => home.layout(settings({ 'num-train-gpus': 2, cp: 4 })), ConfigError);
  assert.throws(() => home.layout(settings({ 'dataset-size': 4, k: 2, 'train-batch-size': 4 }), [100, 200]), ConfigError);
});

test('defaults: batch_size resolves to 128, synthetic lengths, one rank', () => {
  const out = home.layout(settings({ 'dataset-size': 256, k: 8 }));
  assert.equal(out.steps.length, (256 * 8) / 128);
  assert.deepEqual(
    out.steps[0]!.prompts,
    Array.from({ length: 16 }, (_, i) => i),
  );
  assert.equal(out.steps[1]!.prompts[0], 16);
  assert.equal(out.steps[0]!.ranks.length, 1);
  assert.equal(out.counts.find((c) => c.name === 'problems per step')!.value, 16);
  assert.ok(out.notes.some((n) => n.includes('synthetic')));
});

test('the shipped hendrycks-sanity example: 512 samples of 8 per problem, 4 trainer GPUs, seq_len 8192, 5000 steps', () => {
  const reading = readConfig(home.keys, parseToml(read('configs/prime-rl-hendrycks-sanity.toml')));
  assert.equal(reading.settings['train-batch-size'], 512);
  assert.equal(reading.settings.k, 8);
  assert.equal(reading.settings['seq-len'], 8192);
  assert.equal(reading.settings['num-train-gpus'], 4);
  assert.equal(reading.settings['max-steps'], 5000);
  const out = home.layout({ ...reading.settings, 'dataset-size': 128 });
  assert.equal(out.steps.length, 2);
  assert.equal(out.steps[0]!.ranks.length, 4);
  assert.equal(out.steps[0]!.prompts.length, 64);
  assert.equal(out.counts.find((c) => c.name === 'num_train_workers')!.value, 4);
});
