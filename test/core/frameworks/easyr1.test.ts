// The EasyR1 home against EasyR1's own code (fixtures made by scripts/golden/easyr1_*.py from a checkout
// at b44b311): shipped defaults, every step's prompts, ranks and token counts, the counts and errors,
// the dynamic-batching micro-batches and the advantage estimators; plus the shipped example config.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ConfigError } from '../../../src/core/errors.ts';
import { home } from '../../../src/core/frameworks/easyr1/index.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings } from '../../../src/core/frameworks/types.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'));

const SANDBOX_ONLY = new Set(['dataset-size', 'dataloader-num-workers', 'ranks']);
const COMMIT = 'b44b311b669bf1fd1aa2fc36f2251482ba33cb16';

interface LayoutCase {
  dataset_size: number;
  num_workers?: number;
  config: Record<string, number | boolean | null>;
  error?: { type: string; message: string };
  len_dataloader?: number;
  training_steps?: number;
  global_batch_size_per_device?: number;
  steps?: { epoch: number; step: number; prompts: number[]; ranks: number[][]; sources: number[][]; seqlens: number[] }[];
}

const layoutGolden = fixture('golden-easyr1-layout.json') as { commit: string; defaults: Record<string, unknown>; cases: LayoutCase[] };

/** A fixture case's flat dotted config as EasyR1's nested YAML, read through the home's keys. */
function settingsOf(c: LayoutCase): FrameworkSettings {
  const nested: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(c.config)) {
    const parts = path.split('.');
    let obj = nested;
    for (const p of parts.slice(0, -1)) obj = (obj[p] ??= {}) as Record<string, unknown>;
    obj[parts.at(-1)!] = value;
  }
  const { settings, ignored } = readConfig(home.keys, nested);
  assert.deepEqual(ignored, []);
  return { ...settings, 'dataset-size': c.dataset_size, 'dataloader-num-workers': c.num_workers ?? 8 };
}

test('fixtures were made at the pinned commit', () => {
  for (const name of ['golden-easyr1-layout.json', 'golden-easyr1-packing.json', 'golden-easyr1-advantages.json']) {
    assert.equal(fixture(name).commit, COMMIT);
  }
  assert.equal(home.pinned.commit, COMMIT);
});

test('every key has the default of EasyR1’s config dataclasses', () => {
  for (const k of home.keys) {
    if (SANDBOX_ONLY.has(k.key)) continue;
    assert.ok(k.key in layoutGolden.defaults, k.key);
    assert.equal(k.fileDefault ?? k.default, layoutGolden.defaults[k.key], k.key);
  }
});

test('the shipped defaults alone are refused as EasyR1 refuses them (rollout.n 1 with grpo)', () => {
  assert.throws(
    () => home.layout(defaultSettings(home.keys)),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /^ValueError: GRPO and RLOO algorithm need `config\.worker\.rollout\.n > 1`\. \(/);
      return true;
    },
  );
});

function expectError(c: LayoutCase, run: () => unknown): void {
  const { type, message } = c.error!;
  assert.throws(run, (e: unknown) => {
    assert.ok(e instanceof ConfigError, String(e));
    // create_dataloader's bare `assert len(train_dataloader) >= 1` has no text; the home quotes the statement.
    const text = message === '' ? 'assert len(train_dataloader) >= 1' : message;
    assert.ok(e.message.startsWith(`${type}: ${text} (`), `${e.message} vs ${type}: ${text}`);
    return true;
  });
}

test('layout: every step equals EasyR1’s loader, _make_batch_data, _balance_batch and chunks', () => {
  let checked = 0;
  for (const c of layoutGolden.cases) {
    const settings = settingsOf(c);
    if (c.error) {
      expectError(c, () => home.layout(settings));
      continue;
    }
    const steps = c.steps!;
    for (const out of [
      home.layout(
        settings,
        steps.flatMap((s) => s.seqlens),
      ),
      home.layout(settings),
    ]) {
      assert.equal(out.steps.length, c.training_steps);
      out.steps.forEach((s, i) => assert.deepEqual({ ...s }, steps[i], `case ${JSON.stringify(c.config)} step ${i}`));
      const count = (name: string) => out.counts.find((x) => x.name === name)?.value;
      assert.equal(count('len(train_dataloader)'), c.len_dataloader);
      assert.equal(count('training_steps'), c.training_steps);
      assert.equal(count('global_batch_size_per_device'), c.global_batch_size_per_device);
    }
    checked++;
  }
  assert.ok(checked >= 30);
});

test('the prompt order does not depend on the loader workers (cases run with 0, 2 and 8 workers)', () => {
  const same = layoutGolden.cases.filter(
    (c) => c.dataset_size === 40 && c.config['data.rollout_batch_size'] === 8 && c.steps && c.config['trainer.total_epochs'] === 2,
  );
  assert.deepEqual(new Set(same.map((c) => c.num_workers ?? 8)), new Set([0, 2, 8]));
  for (const c of same) assert.deepEqual(c.steps, same[0]!.steps);
});

test('packing: rearrange_micro_batches per rank, synchronised count', () => {
  const golden = fixture('golden-easyr1-packing.json') as {
    cases: { ranks: number; width: number; microBatchSize: number; seqlens: number[]; packed: number[][][] }[];
  };
  assert.ok(!('absent' in home.packing));
  const packer = home.packing as Exclude<typeof home.packing, { absent: string }>;
  for (const c of golden.cases) {
    const settings: FrameworkSettings = {
      ...defaultSettings(home.keys),
      'n-gpus-per-node': c.ranks,
      nnodes: 1,
      'micro-batch-size-per-device-for-update': c.microBatchSize,
      'max-prompt-length': c.width / 2,
      'max-response-length': c.width / 2,
    };
    const out = packer.pack(c.seqlens, settings);
    assert.deepEqual(out.ranks, c.packed, JSON.stringify(c));
    assert.equal(out.microBatchesPerRank, c.packed[0]!.length);
  }
});

test('packing without dynamic batching: contiguous splits of micro_batch_size_per_device_for_update', () => {
  const packer = home.packing as Exclude<typeof home.packing, { absent: string }>;
  const settings = {
    ...defaultSettings(home.keys),
    'n-gpus-per-node': 2,
    'dynamic-batching': false,
    'micro-batch-size-per-device-for-update': 2,
  };
  assert.deepEqual(packer.pack([5, 6, 7, 8, 9, 10], settings).ranks, [
    [[0, 1], [2]],
    [[3, 4], [5]],
  ]);
  assert.throws(() => packer.pack([5, 6, 2000], { ...settings, 'n-gpus-per-node': 1 }), ConfigError);
});

test('advantages: grpo, rloo and grpo_passk as core_algos.py computes them in float32', () => {
  const golden = fixture('golden-easyr1-advantages.json') as {
    cases: {
      k: number;
      exact: boolean;
      rewards: number[];
      promptIds: number[];
      out: Record<string, { advantages?: number[]; error?: string }>;
    }[];
  };
  const byName: Record<string, string> = { grpo: 'easyr1', rloo: 'easyr1-rloo', grpo_passk: 'easyr1-grpo-passk' };
  assert.equal(home.advantages[0]!.scheme, 'easyr1');
  for (const c of golden.cases) {
    for (const [name, want] of Object.entries(c.out)) {
      const def = home.advantages.find((a) => a.scheme === byName[name])!;
      const run = () => def.compute({ rewards: c.rewards, promptIds: c.promptIds, k: c.k });
      if (want.error) {
        assert.throws(run, (e: unknown) => e instanceof ConfigError && e.message.startsWith(`AssertionError: ${want.error} (`));
        continue;
      }
      const got = run().advantages as number[];
      if (c.exact) assert.deepEqual(got, want.advantages, `${name} ${JSON.stringify(c.rewards)}`);
      else {
        // Continuous rewards: torch's float32 group sums depend on its vectorised summation order; the results agree to
        // within 2^-23 × (largest |reward| × k), twice the largest gap seen (0.38 × 2^-24 of that scale).
        const scale = Math.max(1, ...c.rewards.map(Math.abs)) * c.k;
        got.forEach((a, i) => assert.ok(Math.abs(a - want.advantages![i]!) <= 2 ** -23 * scale, `${name} ${a} ${want.advantages![i]}`));
      }
    }
  }
});

test('the shipped examples/config.yaml reads into the expected settings and lays out', () => {
  const text = readFileSync(new URL('../../fixtures/configs/easyr1-config.yaml', import.meta.url), 'utf8');
  assert.match(text.split('\n')[0]!, /examples\/config\.yaml @ b44b311b669bf1fd1aa2fc36f2251482ba33cb16/);
  const { settings, ignored } = readConfig(home.keys, parse(text));
  assert.deepEqual(ignored, []);
  assert.deepEqual(Object.fromEntries(Object.entries(settings).filter(([flag]) => !SANDBOX_ONLY.has(flag))), {
    'n-gpus-per-node': 8,
    nnodes: 1,
    'train-batch-size': 512,
    'mini-rollout-batch-size': null,
    k: 5,
    seed: 1,
    shuffle: true,
    epochs: 15,
    'max-steps': null,
    'max-try-make-batch': 20,
    'global-batch-size': 128,
    'micro-batch-size-per-device-for-update': 1,
    'micro-batch-size-per-device-for-experience': 2,
    'padding-free': true,
    'dynamic-batching': true,
    'ulysses-size': 1,
    'tensor-parallel-size': 2,
    'max-prompt-length': 2048,
    'max-response-length': 2048,
    'adv-estimator': 'grpo',
    'online-filtering': false,
    // not in examples/config.yaml: the shipped defaults (worker.actor.loss_avg_mode, ppo_epochs)
    'loss-avg-mode': 'token',
    'ppo-epochs': 1,
  });
  const out = home.layout({ ...settings, 'dataset-size': 12000, 'max-steps': 2 });
  const count = (name: string) => out.counts.find((x) => x.name === name)!;
  assert.equal(out.steps.length, 2);
  assert.equal(count('len(train_dataloader)').value, 23);
  assert.equal(count('global_batch_size_per_device').value, 80);
  assert.equal(count('optimizer steps per training step').value, 4);
  assert.deepEqual(
    out.steps[0]!.ranks.map((r) => r.length),
    Array(8).fill(320),
  );
  const epochs = home.layout({ ...settings, 'dataset-size': 12000 }).counts.find((x) => x.name === 'training_steps')!;
  assert.equal(epochs.value, 23 * 15);
});

test('refusals the sandbox adds: online filtering, ulysses, gae', () => {
  const base = { ...defaultSettings(home.keys), k: 4 };
  assert.throws(() => home.layout({ ...base, 'online-filtering': true }), /online_filtering/);
  assert.throws(() => home.layout({ ...base, 'ulysses-size': 2 }), /ulysses_size/);
  assert.throws(() => home.layout({ ...base, 'adv-estimator': 'gae' }), /critic/);
});
