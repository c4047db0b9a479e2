// OpenRLHF's home against data made by OpenRLHF's own code (scripts/golden/openrlhf_layout.py exec'd
// fit, generate_samples, setup_dataloader, split_rollout_samples, balance_experiences,
// async_run_method_batch, the replay buffer and compute_advantages_and_returns from the 3c3be62 checkout).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { dispatchStep } from '../../../src/core/frameworks/openrlhf/dispatch.ts';
import { home } from '../../../src/core/frameworks/openrlhf/index.ts';
import { samplerSeed } from '../../../src/core/frameworks/openrlhf/order.ts';
import { packStep } from '../../../src/core/frameworks/openrlhf/packing.ts';
import { runSizes } from '../../../src/core/frameworks/openrlhf/sizes.ts';
import type { PackerDef } from '../../../src/core/frameworks/types.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings } from '../../../src/core/frameworks/types.ts';

const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-openrlhf.json', import.meta.url), 'utf8'));

interface Cfg {
  [k: string]: number | boolean | number[] | string | undefined;
}

function settingsFor(c: Cfg, extra: FrameworkSettings = {}): FrameworkSettings {
  const s = defaultSettings(home.keys);
  const set = (flag: string, v: unknown) => {
    if (v !== undefined) s[flag] = v as number | boolean;
  };
  set('dataset-size', c.datasetSize ?? c.prompts);
  set('train-batch-size', c.rolloutBatchSize ?? c.prompts);
  set('k', c.n);
  set('ranks', c.gpusPerNode);
  set('actor-num-nodes', c.numNodes);
  set('ring-attn-size', c.ring);
  set('tensor-parallel-size', c.tp);
  set('epochs', c.episodes ?? 1);
  set('dataloader-num-workers', c.numWorkers);
  set('seed', c.seed);
  set('rollout-micro-batch-size', c.rolloutMicroBatchSize);
  set('dynamic-batch-enable', c.dynamic);
  set('train-global-batch-size', c.trainBatchSize);
  set('train-max-tokens-per-gpu', c.trainMaxTokensPerGpu);
  set('rollout-max-tokens-per-gpu', c.rolloutMaxTokensPerGpu);
  return { ...s, ...extra };
}

test('the fixture was made from the pinned commit', () => {
  assert.equal(golden.source.openrlhf, home.pinned.commit);
  // two unseeded processes shuffle differently: the real prompt order is not reproducible
  assert.notDeepEqual(golden.freshProcessOrders[0], golden.freshProcessOrders[1]);
});

test("prompt order: the real fit loop over setup_dataloader's StatefulDataLoader, episode by episode", () => {
  assert.ok(golden.promptOrder.length >= 8);
  for (const o of golden.promptOrder) {
    const c = o.config as Cfg;
    assert.equal(samplerSeed(c.seed as number), BigInt(o.samplerSeed), `sampler seed for seed ${c.seed}`);
    const layout = home.layout(settingsFor(c));
    assert.deepEqual(
      layout.steps.map((s) => s.prompts),
      o.steps.map((s: { prompts: number[] }) => s.prompts),
      JSON.stringify(c),
    );
    // copies of a prompt are contiguous in generation order; every sample lands on some rank once
    for (const s of layout.steps) {
      assert.deepEqual(
        s.sources.flat().sort((a, b) => a - b),
        Array.from({ length: s.prompts.length * (c.n as number) }, (_, i) => i),
      );
    }
  }
});

test('dispatch: rollout micro-batches, balance_experiences and async_run_method_batch chunks', () => {
  assert.ok(golden.dispatch.length >= 15);
  for (const d of golden.dispatch) {
    const c = d.config as Cfg;
    const ring = (c.ring as number) ?? 1;
    const tp = (c.tp as number) ?? 1;
    const actors = ((c.numNodes as number) ?? 1) * (c.gpusPerNode as number);
    const parallel = { actors, duplicate: ring * tp, effective: Math.floor(actors / ring / tp) };
    const options = {
      dynamic: Boolean(c.dynamic),
      microBatchSize: (c.rolloutMicroBatchSize as number) ?? 1,
      rolloutMaxTokens: (c.rolloutMaxTokensPerGpu as number) ?? (c.trainMaxTokensPerGpu as number) ?? 16192,
    };
    const label = JSON.stringify(c);
    if (d.error) {
      assert.throws(
        () => dispatchStep(d.seqlens, parallel, options),
        (e: unknown) => e instanceof ConfigError && e.message.startsWith(d.error),
        label,
      );
      continue;
    }
    const got = dispatchStep(d.seqlens, parallel, options);
    assert.deepEqual(got.rolloutMicroBatches, d.rolloutMicroBatches, label);
    assert.deepEqual(got.ranks, d.ranks, label);
    // the same through layout(): one step holding exactly these prompts
    const layout = home.layout(settingsFor(c), d.seqlens);
    assert.equal(layout.steps.length, 1);
    assert.deepEqual(layout.steps[0]!.sources, d.ranks, label);
    if (c.dynamic) {
      const p = packStep(d.seqlens, runSizes(settingsFor(c)));
      assert.deepEqual((home.packing as PackerDef).pack(d.seqlens, settingsFor(c)).ranks, p.ranks);
      assert.deepEqual(
        p.ranks,
        d.packed.map((r: { microBatches: number[][] }) => r.microBatches),
        label,
      );
      for (const r of d.packed)
        assert.deepEqual(
          p.optimizerStepEnds,
          r.optimizerStep.map((x: number) => x === 1),
          label,
        );
      assert.equal(p.microBatchesPerRank, d.packed[0].microBatches.length);
      assert.equal(layout.counts.find((x) => x.name.startsWith('Train epoch micro-batches'))!.value, d.packed[0].microBatches.length);
    }
  }
});

test('advantages: compute_advantages_and_returns, group by position, clipped to [-10, 10]', () => {
  const schemeOf: Record<string, string> = { group_norm: 'openrlhf', dr_grpo: 'openrlhf-dr-grpo', rloo: 'openrlhf-rloo' };
  assert.equal(home.advantages[0]!.scheme, 'openrlhf');
  for (const a of golden.advantages) {
    const c = a.config;
    const def = home.advantages.find((d) => d.scheme === schemeOf[c.estimator])!;
    const input = { rewards: c.rewards, promptIds: c.rewards.map((_: number, i: number) => Math.floor(i / c.n)), k: c.n };
    if (a.error) {
      assert.throws(
        () => def.compute(input),
        (e: unknown) => e instanceof ConfigError && e.message.startsWith(a.error),
        a.error,
      );
      continue;
    }
    const got = def.compute(input).advantages;
    assert.equal(got.length, a.advantages.length);
    got.forEach((v, i) =>
      assert.ok(
        Math.abs(v! - a.advantages[i]) <= 1e-12 * Math.max(1, Math.abs(a.advantages[i])),
        `${c.estimator} ${i}: ${v} vs ${a.advantages[i]}`,
      ),
    );
  }
});

test("advantages: OpenRLHF's refusals and warnings", () => {
  const def = home.advantages[0]!;
  assert.throws(
    () => def.compute({ rewards: [1, 0], promptIds: [0, 1], k: 1 }),
    /AssertionError: group_norm requires n_samples_per_prompt > 1/,
  );
  const w = def.compute({ rewards: [1, 0, 1, 0], promptIds: [0, 1, 0, 1], k: 2 }).warnings;
  assert.match(w[0]!, /OpenRLHF groups n consecutive samples/);
  assert.match(def.compute({ rewards: [0.1, 0.1], promptIds: [0, 0], k: 2 }).warnings[0]!, /float32/);
});

test("layout: the launcher's assertion and warnings, verbatim", () => {
  assert.throws(
    () => home.layout(settingsFor({ prompts: 3, n: 4, gpusPerNode: 4, rolloutMicroBatchSize: 4 })),
    new RegExp(
      'AssertionError: The number of sample batches must be greater than or equal to the effective number of actor processes\\. ' +
        '\\(openrlhf/cli/train_ppo_ray\\.py, OpenRLHF 3c3be62\\)',
    ),
  );
  assert.throws(
    () => home.layout(settingsFor({ prompts: 4, n: 1, gpusPerNode: 2 }, { 'advantage-estimator': 'group_norm' })),
    /AssertionError: group_norm requires n_samples_per_prompt > 1/,
  );
  // a short last step with fewer micro-batches than ranks: async_run_method_batch's ValueError at that step
  assert.throws(
    () => home.layout(settingsFor({ datasetSize: 10, rolloutBatchSize: 4, n: 1, gpusPerNode: 4, seed: 1 })),
    /ValueError: Insufficient batch size for async_run_method_batch: total_length=2, effective_actors=4 .* at episode 1, step 3/,
  );
  const dyn = home.layout(settingsFor({ datasetSize: 8, rolloutBatchSize: 4, n: 2, gpusPerNode: 2, dynamic: true, trainBatchSize: 4 }));
  assert.deepEqual(dyn.warnings, [
    '[Warning] Please --packing_samples to accelerate when --use_dynamic_batch is enabled.',
    '[Warning] Set --rollout_max_tokens_per_gpu to --train_max_tokens_per_gpu.',
  ]);
  assert.ok(dyn.steps.every((s) => s.seqlens?.length === 8));
  assert.throws(
    () => home.layout(settingsFor({ prompts: 8, n: 2, gpusPerNode: 8, dynamic: true, trainBatchSize: 4 })),
    /ZeroDivisionError: integer division or modulo by zero/,
  );
  const packer = home.packing as PackerDef;
  assert.throws(() => packer.pack([1, 2], settingsFor({ prompts: 1, n: 2, gpusPerNode: 1 })), /dynamic_batch_enable/);
});

test('counts with the shipped defaults: 1024 prompts × 1 sample per step, 8 optimizer steps of 128', () => {
  const layout = home.layout(defaultSettings(home.keys));
  const count = (name: string) => layout.counts.find((c) => c.name === name)!.value;
  assert.equal(count('len(prompts_dataloader)'), 2048);
  assert.equal(count('global steps per episode'), 2);
  assert.equal(count('optimizer steps per training step'), 8);
  assert.equal(count('max_steps'), 16);
  assert.equal(count('accumulated_gradient'), 16);
  assert.equal(count('Train epoch micro-batches (rank 0, first step)'), 128);
});

/** Launch flags nested by their dots, as OpenRLHF's hierarchize does; a flag without a value is true. */
function parseArgv(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    const m = /^--(\S+)(?:\s+(.+))?$/.exec(line.trim());
    if (!m) continue;
    const parts = m[1]!.split('.');
    let node = root;
    for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]!] = m[2] ?? true;
  }
  return root;
}

test("the shipped train_dapo_ray_hybrid_engine.sh flags read as OpenRLHF's settings", () => {
  const text = readFileSync(new URL('../../fixtures/configs/openrlhf-train_dapo_ray_hybrid_engine.sh', import.meta.url), 'utf8');
  assert.match(text.split('\n')[0]!, /^# .*examples\/scripts\/train_dapo_ray_hybrid_engine\.sh @ 3c3be62/);
  const reading = readConfig(home.keys, parseArgv(text));
  assert.deepEqual(reading.ignored, []);
  const s = reading.settings;
  assert.equal(s['train-batch-size'], 128);
  assert.equal(s.k, 8);
  assert.equal(s.ranks, 8);
  assert.equal(s['advantage-estimator'], 'group_norm');
  assert.equal(s['dynamic-filtering-enable'], true);
  assert.equal(s['rollout-micro-batch-size'], 16);
  assert.equal(s['train-global-batch-size'], 128);
  assert.equal(s['train-micro-batch-size'], 8);
  assert.equal(s['max-samples'], 20000);
  assert.equal(s['packing-samples'], true);
  const layout = home.layout(s);
  const count = (name: string) => layout.counts.find((c) => c.name === name)!.value;
  assert.equal(count('optimizer steps per training step'), 8);
  assert.equal(count('accumulated_gradient'), 2);
  // 128 prompts × 8 = 1024 samples in 64 rollout micro-batches of 16: 8 per rank, copies together
  assert.deepEqual(
    layout.steps[0]!.ranks.map((r) => r.length),
    Array(8).fill(128),
  );
  assert.ok(layout.notes.some((n) => n.includes('every group passes')));
});
