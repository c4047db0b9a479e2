// slime's home against slime's own code (fixtures made by scripts/golden/slime_layout.py and
// slime_advantages.py from a THUDM/slime checkout at 624b824): prompt order, dispatch and
// micro-batches of every rollout, reward post-processing, and the shipped qwen3-4B launch flags.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { type RewardMode, slimeRewards } from '../../../src/core/frameworks/slime/advantages.ts';
import { buildDpSchedule, type ScheduleSettings } from '../../../src/core/frameworks/slime/dispatch.ts';
import { home } from '../../../src/core/frameworks/slime/index.ts';
import { rolloutPrompts } from '../../../src/core/frameworks/slime/order.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings } from '../../../src/core/frameworks/types.ts';

const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8')) as T;

interface Config {
  dataset_size: number;
  rollout_batch_size: number;
  n: number;
  rollout_shuffle: boolean;
  rollout_seed: number;
  num_rollout: number | null;
  num_epoch: number | null;
  global_batch_size: number;
  micro_batch_size: number;
  use_dynamic_batch_size: boolean;
  max_tokens_per_gpu: number | null;
  balance_data: boolean;
  balance_by_flops: boolean;
  dp_size: number;
  cp_size: number;
}
interface Rollout {
  epoch: number;
  offset: number;
  prompts: number[];
  group_index: number[];
  index: number[];
  seqlens: number[];
  partitions?: number[][];
  micro_batch_indices?: number[][][];
  num_microbatches?: number[];
  error?: string;
}
interface Model {
  num_layers: number;
  hidden_size: number;
  ffn_hidden_size: number;
  num_attention_heads: number;
  num_query_groups: number;
  vocab_size: number;
  kv_channels: number;
}
const layoutGolden = read<{ commit: string; model: Model; cases: { config: Config; num_rollout: number; rollouts: Rollout[] }[] }>(
  'golden-slime-layout.json',
);
const COMMIT = '624b824a898ab0ec1fcb4d373004c7f3852bf515';

function settingsOf(c: Config, m: Model): FrameworkSettings {
  return {
    ...defaultSettings(home.keys),
    'dataset-size': c.dataset_size,
    'train-batch-size': c.rollout_batch_size,
    k: c.n,
    shuffle: c.rollout_shuffle,
    seed: c.rollout_seed,
    'num-rollout': c.num_rollout,
    epochs: c.num_epoch,
    'global-batch-size': c.global_batch_size,
    'micro-batch-size': c.micro_batch_size,
    'use-dynamic-batch-size': c.use_dynamic_batch_size,
    'max-tokens-per-gpu': c.max_tokens_per_gpu,
    'balance-data': c.balance_data,
    'balance-by-flops': c.balance_by_flops,
    'actor-num-nodes': 1,
    'actor-num-gpus-per-node': c.dp_size * c.cp_size,
    'context-parallel-size': c.cp_size,
    'num-layers': m.num_layers,
    'hidden-size': m.hidden_size,
    'ffn-hidden-size': m.ffn_hidden_size,
    'num-attention-heads': m.num_attention_heads,
    'num-query-groups': m.num_query_groups,
    'kv-channels': m.kv_channels,
    'vocab-size': m.vocab_size,
  };
}

function scheduleOf(c: Config, m: Model): ScheduleSettings {
  return {
    dpSize: c.dp_size,
    cpSize: c.cp_size,
    globalBatchSize: c.global_batch_size,
    microBatchSize: c.micro_batch_size,
    useDynamicBatchSize: c.use_dynamic_batch_size,
    maxTokensPerGpu: c.max_tokens_per_gpu,
    balanceData: c.balance_data,
    model: {
      numLayers: m.num_layers,
      hiddenSize: m.hidden_size,
      ffnHiddenSize: m.ffn_hidden_size,
      numAttentionHeads: m.num_attention_heads,
      numQueryGroups: m.num_query_groups,
      kvChannels: m.kv_channels,
      vocabSize: m.vocab_size,
    },
  };
}

const withoutVersion = (message: string) => message.replace(/ \(slime 624b824\)$/, '');

test('the layout fixture was made at the pinned commit', () => {
  assert.equal(layoutGolden.commit, COMMIT);
  assert.equal(home.pinned.commit, COMMIT);
});

for (const [i, { config: c, num_rollout, rollouts }] of layoutGolden.cases.entries()) {
  const m = layoutGolden.model;
  test(`slime case ${i}: get_samples order (D=${c.dataset_size}, rbs=${c.rollout_batch_size}, shuffle=${c.rollout_shuffle}, seed=${c.rollout_seed})`, () => {
    const ours = rolloutPrompts(c.dataset_size, c.rollout_batch_size, num_rollout, c.rollout_shuffle, c.rollout_seed);
    assert.equal(ours.length, rollouts.length);
    let sample = 0;
    ours.forEach((r, j) => {
      const g = rollouts[j]!;
      assert.deepEqual(r.prompts, g.prompts, `rollout ${j} prompts`);
      assert.equal(r.epochBefore, g.epoch, `rollout ${j} epoch_id`);
      assert.equal(r.offsetBefore, g.offset, `rollout ${j} sample_offset`);
      // group_index counts prompts, index counts samples, both across the run; copies are prompt-major.
      assert.deepEqual(
        g.group_index,
        r.prompts.flatMap((_, p) => Array<number>(c.n).fill(j * c.rollout_batch_size + p)),
      );
      assert.deepEqual(
        g.index,
        g.index.map(() => sample++),
      );
    });
  });

  if (!c.balance_by_flops) {
    test(
      `slime case ${i}: build_dp_schedule of every rollout (dp=${c.dp_size}, gbs=${c.global_batch_size}, dynamic=${c.use_dynamic_batch_size}, ` +
        `balance=${c.balance_data})`,
      () => {
        for (const [j, g] of rollouts.entries()) {
          if (g.error !== undefined) {
            assert.throws(
              () => buildDpSchedule(g.seqlens, scheduleOf(c, m)),
              (e: unknown) => e instanceof ConfigError && withoutVersion(e.message) === g.error,
              `rollout ${j}`,
            );
            continue;
          }
          const s = buildDpSchedule(g.seqlens, scheduleOf(c, m));
          assert.deepEqual(s.partitions, g.partitions, `rollout ${j} partitions`);
          assert.deepEqual(s.microBatches, g.micro_batch_indices, `rollout ${j} micro_batch_indices`);
          assert.deepEqual(s.numMicrobatches, g.num_microbatches, `rollout ${j} num_microbatches`);
        }
      },
    );
  }

  test(`slime case ${i}: layout() and pack() agree with slime's rollouts`, () => {
    const settings = settingsOf(c, m);
    const megatronRefuses = c.global_batch_size % (c.micro_batch_size * c.dp_size) !== 0;
    const seqlens = rollouts.flatMap((r) => r.seqlens);
    if (c.balance_by_flops) {
      assert.throws(() => home.layout(settings, seqlens), /does not simulate --balance-by-flops/);
      return;
    }
    if (megatronRefuses) {
      assert.throws(
        () => home.layout(settings, seqlens),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.message.startsWith(
            `global batch size (${c.global_batch_size}) is not divisible by micro batch size (${c.micro_batch_size}) times data parallel size (${c.dp_size})`,
          ),
      );
      return;
    }
    const firstError = rollouts.find((r) => r.error !== undefined)?.error;
    if (firstError !== undefined) {
      for (const s of [seqlens, undefined]) {
        // With synthetic lengths the same draws are made (one generator seeded with rollout_seed).
        assert.throws(
          () => home.layout(settings, s),
          (e: unknown) => e instanceof ConfigError && withoutVersion(e.message) === firstError,
        );
      }
      return;
    }
    for (const given of [seqlens, undefined]) {
      const out = home.layout(settings, given);
      assert.equal(out.steps.length, rollouts.length);
      assert.equal(out.counts.find((x) => x.name === 'num_rollout')!.value, num_rollout);
      assert.equal(out.counts.find((x) => x.name === 'data parallel size')!.value, c.dp_size);
      out.steps.forEach((step, j) => {
        const g = rollouts[j]!;
        assert.deepEqual(step.prompts, g.prompts);
        assert.deepEqual(step.seqlens, g.seqlens, `rollout ${j} seqlens (synthetic draws are torch's)`);
        assert.deepEqual(step.sources, g.partitions);
        assert.deepEqual(
          step.ranks,
          g.partitions!.map((p) => p.map((pos) => g.prompts[Math.floor(pos / c.n)]!)),
        );
        assert.equal(step.epoch, g.offset === c.dataset_size ? g.epoch + 1 : g.epoch);
        const packed = 'pack' in home.packing ? home.packing.pack(g.seqlens, settings) : null;
        assert.ok(packed);
        assert.deepEqual(
          packed.ranks,
          g.micro_batch_indices!.map((mbs, r) => mbs.map((mb) => mb.map((local) => g.partitions![r]![local]!))),
        );
        assert.equal(
          packed.microBatchesPerRank,
          g.num_microbatches!.reduce((a, b) => a + b, 0),
        );
      });
    }
  });
}

interface AdvCase {
  rewards: number[];
  promptIds: number[];
  k: number;
  rolloutBatchSize: number;
  note: string;
  grpo: (number | null)[];
  gspo: (number | null)[];
  cispo: (number | null)[];
  reinforce_plus_plus_baseline: (number | null)[];
  reinforce_plus_plus: (number | null)[];
  ppo: (number | null)[];
  grpo_no_std: (number | null)[];
  grpo_no_norm: (number | null)[];
}
const advGolden = read<{ commit: string; cases: AdvCase[] }>('golden-slime-advantages.json');

/** float32 torch against float32 steps here: equal to a few float32 ulps. */
function close(actual: (number | null)[], expected: (number | null)[], what: string) {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((a, i) => {
    const e = expected[i]!;
    if (e === null || a === null) return assert.equal(a, e, `${what}[${i}]`);
    assert.ok(Math.abs(a - e) <= 1e-6 * Math.max(1, Math.abs(e)), `${what}[${i}]: ${a} vs ${e}`);
  });
}

test('the advantages fixture was made at the pinned commit', () => assert.equal(advGolden.commit, COMMIT));

for (const [i, c] of advGolden.cases.entries()) {
  test(`slime advantages case ${i} (${c.rewards.length} rewards, n=${c.k}, rbs=${c.rolloutBatchSize}) ${c.note}`, () => {
    const run = (mode: RewardMode) => slimeRewards(c.rewards, c.k, c.rolloutBatchSize, mode).advantages;
    for (const est of ['grpo', 'gspo', 'cispo'] as const) close(run('mean-std'), c[est], est);
    close(run('mean'), c.reinforce_plus_plus_baseline, 'reinforce_plus_plus_baseline');
    close(run('mean'), c.grpo_no_std, 'grpo --disable-grpo-std-normalization');
    for (const est of ['reinforce_plus_plus', 'ppo', 'grpo_no_norm'] as const) close(run('raw'), c[est], est);
    // The home's scheme infers rollout_batch_size from the distinct prompts; where that is slime's, it is exact too.
    if (new Set(c.promptIds).size === c.rolloutBatchSize) {
      const out = home.advantages[0]!.compute({ rewards: c.rewards, promptIds: c.promptIds, k: c.k });
      close(out.advantages, c.grpo, 'home scheme slime');
      assert.equal(out.warnings.length > 0, c.rewards.length !== c.k * c.rolloutBatchSize);
    }
  });
}

test('the uneven batch of issue #2230: a prompt whose rewards are all 5.0 is not 0, and the home says so', () => {
  const out = home.advantages[0]!.compute({ rewards: [0, 1, 0, 1, 5, 5, 5], promptIds: [0, 0, 0, 0, 1, 1, 1], k: 4 });
  const fromSlime = advGolden.cases[0]!.grpo;
  close(out.advantages, fromSlime, 'uneven');
  assert.ok(out.advantages[4]! > 1);
  assert.match(out.warnings[0]!, /whole batch was normalised as one group/);
});

/** The launch script's words: `--flag value` or a bare `--flag` (true); comment lines skipped. */
function parseArgv(text: string): Record<string, string | boolean> {
  const words = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean);
  const out: Record<string, string | boolean> = {};
  for (let i = 0; i < words.length; i++) {
    const flag = words[i]!.replace(/^--/, '');
    const next = words[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      out[flag] = next;
      i++;
    } else out[flag] = true;
  }
  return out;
}

test("the shipped run-qwen3-4B.sh flags read as slime's settings", () => {
  const text = readFileSync(new URL('../../fixtures/configs/slime-run-qwen3-4B.sh', import.meta.url), 'utf8');
  assert.match(text.split('\n')[0]!, /^# .*scripts\/run-qwen3-4B\.sh .*624b824/);
  const reading = readConfig(home.keys, parseArgv(text));
  assert.deepEqual(reading.ignored, []);
  const s = reading.settings;
  assert.equal(s['train-batch-size'], 32);
  assert.equal(s.k, 8);
  assert.equal(s['global-batch-size'], 256);
  assert.equal(s.shuffle, true);
  assert.equal(s.seed, 42);
  assert.equal(s['num-rollout'], 3000);
  assert.equal(s['balance-data'], true);
  assert.equal(s['use-dynamic-batch-size'], true);
  assert.equal(s['max-tokens-per-gpu'], 9216);
  assert.equal(s['tensor-model-parallel-size'], 2);
  assert.equal(s['micro-batch-size'], 1);
  // Two rollouts over a 100-prompt stand-in: DP = 8 / 2 = 4, one optimizer step per rollout.
  const out = home.layout({ ...s, 'num-rollout': 2, 'dataset-size': 100 });
  assert.equal(out.steps.length, 2);
  assert.equal(out.counts.find((c) => c.name === 'data parallel size')!.value, 4);
  assert.equal(out.counts.find((c) => c.name === 'training steps per rollout')!.value, 1);
  assert.equal(out.steps[0]!.ranks.flat().length, 256);
  assert.equal(out.steps[0]!.ranks.length, 4);
});

test("slime's own refusals, verbatim", () => {
  const base = { ...defaultSettings(home.keys), 'train-batch-size': 4, k: 2, 'num-rollout': 1, 'dataset-size': 8 };
  const refuses = (s: FrameworkSettings, text: string) =>
    assert.throws(
      () => home.layout(s),
      (e: unknown) => e instanceof ConfigError && e.message.includes(text),
    );
  refuses({ ...base, 'train-batch-size': null }, 'the following arguments are required: --rollout-batch-size');
  refuses({ ...base, 'num-rollout': null }, 'num_epoch is not set, but num_rollout is not set, please set --num-rollout or --num-epoch');
  refuses({ ...base, 'use-dynamic-batch-size': true }, 'max_tokens_per_gpu must be set when use_dynamic_batch_size is set');
  refuses({ ...base, 'balance-by-flops': true }, '--balance-by-flops requires --use-dynamic-batch-size');
  refuses(
    { ...base, 'global-batch-size': 4, 'num-steps-per-rollout': 4 },
    'global_batch_size 4 is not equal to rollout_batch_size 4 * n_samples_per_prompt 2 // num_steps_per_rollout 4',
  );
  refuses(
    { ...base, 'global-batch-size': 12 },
    'global batch size (12) is not divisible by micro batch size (1) times data parallel size (8)',
  );
  refuses({ ...base, 'balance-data': true, 'global-batch-size': 8 }, 'set --num-layers');
  // Unset global batch: Megatron makes it micro_batch_size × DP = 8, one step per 4 × 2 samples.
  const out = home.layout(base);
  assert.equal(out.counts.find((c) => c.name === 'global_batch_size')!.value, 8);
  assert.ok(out.notes.includes('slime logs: setting global batch size to 8'));
});
