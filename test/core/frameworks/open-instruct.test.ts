// open-instruct's home against data made by open-instruct's own code (scripts/golden/open-instruct_layout.py
// exec'd HFDataLoader, pack_sequences, prepare_collated_data_for_workers and the advantage statements of
// the e6c3044 checkout).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import { home } from '../../../src/core/frameworks/open-instruct/index.ts';
import { promptStream } from '../../../src/core/frameworks/open-instruct/order.ts';
import { packStep } from '../../../src/core/frameworks/open-instruct/packing.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings, PackerDef } from '../../../src/core/frameworks/types.ts';
import { NumpyRandomState } from '../../../src/core/rng/numpy-random.ts';

const golden = JSON.parse(readFileSync(new URL('../../fixtures/golden-open-instruct.json', import.meta.url), 'utf8'));

const settings = (over: FrameworkSettings): FrameworkSettings => ({ ...defaultSettings(home.keys), ...over });

test('the fixture was made from the pinned commit', () => {
  assert.equal(golden.source['open-instruct'], home.pinned.commit);
});

test('prompt order: HFDataLoader(batch_size=1, automatic_reshuffle) pulled one prompt at a time, P per step', () => {
  assert.ok(golden.promptOrder.length >= 5);
  for (const o of golden.promptOrder) {
    const c = o.config;
    const stream = promptStream(c.datasetSize, c.seed, c.steps * c.prompts);
    const steps = Array.from({ length: c.steps }, (_, t) => stream.slice(t * c.prompts, (t + 1) * c.prompts));
    assert.deepEqual(
      steps.map((s) => s.map((p) => p.prompt)),
      o.steps,
      JSON.stringify(c),
    );
    assert.deepEqual(
      steps.map((s) => s.map((p) => p.epoch)),
      o.epochs,
    );
    // the same through layout(): total_episodes = steps × P × k
    const layout = home.layout(
      settings({ 'dataset-size': c.datasetSize, 'train-batch-size': c.prompts, seed: c.seed, 'total-episodes': c.steps * c.prompts * 4 }),
    );
    assert.deepEqual(
      layout.steps.map((s) => s.prompts),
      o.steps,
    );
  }
});

test('packing: pack_sequences then prepare_collated_data_for_workers (truncation, contiguous packs, per-rank permutation)', () => {
  assert.ok(golden.packing.length >= 7);
  for (const p of golden.packing) {
    const c = p.config;
    const got = packStep(p.seqlens, c.packLength, c.ranks, c.perDevice, new NumpyRandomState(c.seed));
    assert.deepEqual(got.packs, p.packs, JSON.stringify(c));
    assert.deepEqual(got.collated.ranks, p.ranks, JSON.stringify(c));
    assert.deepEqual(got.collated.warning ? [got.collated.warning] : [], p.warnings);
    const packer = home.packing as PackerDef;
    const viaHome = packer.pack(
      p.seqlens,
      settings({
        ranks: c.ranks,
        'per-device-train-batch-size': c.perDevice,
        'pack-length': c.packLength,
        seed: c.seed,
        'max-prompt-token-length': 0,
        'response-length': 0,
      }),
    );
    assert.deepEqual(viaHome.ranks, got.samples);
  }
});

test('advantages: centered (default) and standard, rows of n consecutive samples', () => {
  for (const a of golden.advantages) {
    const c = a.config;
    const scheme = { centered: 'open-instruct', standard: 'open-instruct-standard' }[c.type as string];
    const def = home.advantages.find((d) => d.scheme === scheme);
    if (!def) {
      // open-instruct refuses other types; the key's choices do too
      assert.match(a.error, /Invalid advantage normalization type/);
      assert.throws(() => readConfig(home.keys, { advantage_normalization_type: c.type }), /must be one of centered, standard/);
      continue;
    }
    const input = { rewards: c.rewards, promptIds: c.rewards.map((_: number, i: number) => Math.floor(i / c.n)), k: c.n };
    if (a.error) {
      assert.throws(
        () => def.compute(input),
        (e: unknown) => e instanceof ConfigError && e.message.startsWith(a.error),
      );
      continue;
    }
    const { advantages, warnings } = def.compute(input);
    advantages.forEach((v, i) =>
      assert.ok(Math.abs(v! - a.advantages[i]) <= 1e-12 * Math.max(1, Math.abs(a.advantages[i])), `${i}: ${v} vs ${a.advantages[i]}`),
    );
    // process_group's zero-std filter: one warning per dropped group
    assert.equal(warnings.filter((w) => w.includes('filter_zero_std_samples')).length, a.zeroStdGroups.filter(Boolean).length);
  }
  assert.equal(home.advantages[0]!.scheme, 'open-instruct');
});

test("errors and warnings in open-instruct's words", () => {
  assert.throws(
    () => home.layout(settings({ 'pack-length': 400 })),
    /AssertionError: The `pack_length` needs to be greater than the sum of `max_prompt_token_length` and `response_length`!/,
  );
  assert.throws(
    () => home.layout(settings({ k: 1 })),
    /ValueError: `filter_zero_std_samples` cannot be True when `num_samples_per_prompt_rollout` is 1/,
  );
  assert.deepEqual(home.layout(settings({ k: 1, 'filter-zero-std-samples': false, 'total-episodes': 32 })).warnings.slice(0, 1), [
    'num_samples_per_prompt_rollout is 1. This reduces GRPO to REINFORCE.',
  ]);
  assert.throws(() => home.layout(settings({ 'async-steps': 0 })), /`async_steps` must be greater than 0/);
  assert.throws(
    () => home.layout(settings({ 'train-batch-size': 1, k: 2, ranks: 4 })),
    /AssertionError: num_samples_per_prompt_rollout \* num_unique_prompts_rollout must be greater than or equal to world_size \/\/ sequence_parallel_size/,
  );
  const layout = home.layout(settings({ ranks: 3, 'total-episodes': 128 }));
  assert.ok(
    layout.warnings.some((w) =>
      /^Total packed sequences \(\d+\) is not evenly divisible by dp_world_size \(3\)\. Truncating to \d+ sequences \(dropping \d+\)\.$/.test(
        w,
      ),
    ),
  );
});

/** Launch flags as a flat mapping; a flag without a value is true. */
function parseArgv(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    const m = /^--(\S+)(?:\s+(.+))?$/.exec(line.trim());
    if (m) out[m[1]!] = m[2] ?? true;
  }
  return out;
}

test("the shipped grpo_fast_3b_single_node.sh flags read as open-instruct's settings", () => {
  const text = readFileSync(new URL('../../fixtures/configs/open-instruct-grpo_fast_3b_single_node.sh', import.meta.url), 'utf8');
  assert.match(text.split('\n')[0]!, /^# .*scripts\/train\/qwen\/grpo_fast_3b_single_node\.sh @ e6c3044/);
  const reading = readConfig(home.keys, parseArgv(text));
  assert.deepEqual(reading.ignored, []);
  const s = reading.settings;
  assert.equal(s['train-batch-size'], 48);
  assert.equal(s.k, 16);
  assert.equal(s.ranks, 4);
  assert.equal(s['pack-length'], 6144);
  assert.equal(s['total-episodes'], 1000000);
  const layout = home.layout({ ...s, 'total-episodes': 768 * 3 });
  const count = (name: string) => layout.counts.find((c) => c.name === name)!.value;
  assert.equal(layout.steps.length, 3);
  assert.equal(count('dp_world_size'), 4);
  assert.equal(home.layout({ ...s, 'total-episodes': 1000000, 'dataset-size': 64 }).counts[0]!.value, 1302);
});
