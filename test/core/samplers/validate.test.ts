// Configuration rules: one clear message naming the rule, the numbers and valid alternatives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/core/errors.ts';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { buildLayout, defaultConfig, validateConfig } from '../../../src/core/samplers/index.ts';

const cfg = (over: Partial<LayoutConfig>): LayoutConfig => ({ ...defaultConfig, ...over });

function err(over: Partial<LayoutConfig>): ConfigError {
  const e = validateConfig(cfg(over));
  assert.ok(e instanceof ConfigError, `expected an error for ${JSON.stringify(over)}`);
  assert.ok(!e.message.includes('\n'));
  assert.throws(() => buildLayout(cfg(over)), ConfigError);
  return e;
}

test('flow-grpo: k must divide ranks×batch, with valid k, batch and the lcm sampler suggested', () => {
  const e = err({ k: 3 });
  assert.equal(
    e.message,
    'k=3 must divide ranks×batch=16; valid k here: 1, 2, 4, 8, 16; or batch=3 (→24); or use --sampler flow-grpo-lcm; ' +
      'flow_grpo (DistributedKRepeatSampler before commit 74db691) raises: AssertionError: k can not divide n*b, k3-num_replicas8-batch_size2',
  );
  assert.deepEqual(e.suggestions, [{ k: 4 }, { batch: 3 }, { sampler: 'flow-grpo-lcm' }]);
  for (const s of e.suggestions) assert.equal(validateConfig(cfg({ k: 3, ...(s as Partial<LayoutConfig>) })), null, JSON.stringify(s));
});

test('flow-grpo: m distinct prompts need a large enough dataset', () => {
  const e = err({ datasetSize: 3 });
  assert.match(e.message, /m=ranks×batch\/k=4 distinct prompts but dataset-size=3/);
  assert.deepEqual(e.suggestions, [{ datasetSize: 4 }]);
});

test('trl: num_generations ≥ 2 and dividing the generation batch', () => {
  assert.match(err({ sampler: 'trl', k: 1 }).message, /must be at least 2/);
  const e = err({ sampler: 'trl', ranks: 4, batch: 3, k: 8, stepsPerGeneration: 1 });
  assert.match(e.message, /k=8 \(num_generations\) must divide the generation batch ranks×batch×steps-per-generation=4×3×1=12/);
  assert.match(e.message, /valid k here: 2, 3, 4, 6, 12/);
  for (const s of e.suggestions)
    assert.equal(
      validateConfig(cfg({ sampler: 'trl', ranks: 4, batch: 3, k: 8, ...(s as Partial<LayoutConfig>) })),
      null,
      JSON.stringify(s),
    );
  assert.equal(validateConfig(cfg({ sampler: 'trl', ranks: 4, batch: 3, k: 8, stepsPerGeneration: 2 })), null);
});

test('contiguous: k must divide batch', () => {
  const e = err({ sampler: 'contiguous', batch: 6, k: 4 });
  assert.match(e.message, /k=4 must divide batch=6/);
  for (const s of e.suggestions)
    assert.equal(validateConfig(cfg({ sampler: 'contiguous', batch: 6, k: 4, ...(s as Partial<LayoutConfig>) })), null, JSON.stringify(s));
});

test('group-distributed: k a multiple of ranks, and dividing ranks×batch', () => {
  const a = err({ sampler: 'group-distributed', k: 4 });
  assert.match(a.message, /k=4 must be a multiple of ranks=8/);
  for (const s of a.suggestions)
    assert.equal(validateConfig(cfg({ sampler: 'group-distributed', k: 4, ...(s as Partial<LayoutConfig>) })), null, JSON.stringify(s));
  const b = err({ sampler: 'group-distributed', ranks: 2, k: 4, batch: 3 });
  assert.match(b.message, /k=4 must divide ranks×batch=6/);
  for (const s of b.suggestions)
    assert.equal(
      validateConfig(cfg({ sampler: 'group-distributed', ranks: 2, k: 4, batch: 3, ...(s as Partial<LayoutConfig>) })),
      null,
      JSON.stringify(s),
    );
});

test('common rules: whole numbers ≥ 1, safe seed, unknown sampler, size limits', () => {
  assert.match(err({ ranks: 0 }).message, /^ranks must be a whole number ≥ 1, got 0$/);
  assert.match(err({ batch: 1.5 }).message, /batch must be a whole number/);
  assert.match(err({ datasetSize: NaN }).message, /dataset-size must be/);
  assert.match(err({ seed: 2 ** 60 }).message, /seed must be a whole number/);
  assert.match(err({ sampler: 'nope' as never }).message, /unknown sampler 'nope'/);
  assert.match(err({ epochs: 100000, datasetSize: 100000 }).message, /limit/);
});

test("negative seeds are valid (two's complement, as PyTorch)", () => {
  assert.equal(validateConfig(cfg({ seed: -7 })), null);
  assert.deepEqual(buildLayout(cfg({ seed: -1 })).steps[0], buildLayout(cfg({ seed: 2 ** 32 - 1 })).steps[0]);
});

test('a configuration saved before gradient accumulation existed (no such key) means 1, as before', () => {
  const { gradientAccumulationSteps: _, ...old } = cfg({});
  const layout = buildLayout(old as LayoutConfig);
  assert.equal(layout.config.gradientAccumulationSteps, 1);
  assert.deepEqual(layout.steps, buildLayout(cfg({})).steps);
});
