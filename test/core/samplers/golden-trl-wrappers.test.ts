// --framework for the trl sampler against test/fixtures/golden-trl-wrappers.json, made by running each
// framework's own config code (scripts/golden/trl_wrappers.py): TRL v0.18.2's and v0.24.0's
// GRPOConfig.__post_init__, Unsloth 015bdef's num_generations check (on TRL 0.24.0) and ms-swift 3602360's
// _init_generation_batch_params, for the same settings; and ms-swift's sequence-parallel RepeatSampler
// (TRL v0.24.0's class with repeat_count × sequence_parallel_size).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../../src/core/errors.ts';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { say } from '../../../src/core/messages/index.ts';
import { Mt19937 } from '../../../src/core/rng/index.ts';
import { buildLayout, repeatSamplerPass, validateConfig } from '../../../src/core/samplers/index.ts';
import { layoutSettingsFrom } from '../../../src/core/samplers/settings.ts';
import { unslothNotice } from '../../../src/core/frameworks/unsloth/trl-reading.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Outcome {
  error?: string;
  stepsPerGeneration?: number;
  generationBatchSize?: number;
  /** Unsloth: what it printed, and the batch after its rewrite. */
  printed?: string | null;
  batch?: number;
}
interface Case {
  input: { ranks: number; batch: number; k: number; ga: number; spg?: number; gbs?: number };
  'trl-0.18.2': Outcome;
  'trl-0.24.0': Outcome;
  'unsloth-015bdef': Outcome;
  'ms-swift-3602360': Outcome;
}
interface SpCase {
  input: {
    datasetSize: number;
    k: number;
    stepsPerGeneration: number;
    numIterations: number;
    sequenceParallelSize: number;
    ranks: number;
    batch: number;
    seed: number;
  };
  stream: number[];
  batchesPerProcess: number;
}
const golden = fixture<{ commits: Record<string, unknown>; cases: Case[]; sequenceParallel: SpCase[] }>('golden-trl-wrappers.json');

/** The flags of a case, as a user of that framework gives them (a dataset large enough for any generation batch here). */
function flags(c: Case['input'], framework: string | null): Record<string, string> {
  return {
    sampler: 'trl',
    ...(framework ? { framework } : {}),
    ranks: String(c.ranks),
    batch: String(c.batch),
    k: String(c.k),
    'gradient-accumulation-steps': String(c.ga),
    'dataset-size': '512',
    ...(c.spg === undefined ? {} : { 'steps-per-generation': String(c.spg) }),
    ...(c.gbs === undefined ? {} : { 'generation-batch-size': String(c.gbs) }),
  };
}

/** Our configuration for the flags (checked), or the ConfigError we raise. */
function ours(given: Record<string, string>): LayoutConfig | ConfigError {
  try {
    const { config } = layoutSettingsFrom((key) => given[key]);
    const invalid = validateConfig(config);
    if (invalid) return invalid;
    return config;
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
}

/** The framework's case agrees with ours: the same accepted settings, or its error quoted verbatim. */
function agrees(got: LayoutConfig | ConfigError, want: Outcome, what: string, framework: string) {
  if (want.error) {
    assert.ok(got instanceof ConfigError, `${what}: ${framework} raises ${want.error}; we accept`);
    assert.ok(got.message.endsWith(`raises: ${want.error}`), `${what}: ${got.message}\n  want the quote: ${want.error}`);
    return;
  }
  assert.ok(!(got instanceof ConfigError), `${what}: ${framework} accepts; we refuse: ${(got as Error).message}`);
  assert.equal(got.stepsPerGeneration, want.stepsPerGeneration, `${what}: steps_per_generation`);
  assert.equal(got.batch * got.ranks * got.stepsPerGeneration, want.generationBatchSize, `${what}: generation_batch_size`);
}

test('the fixture names the commits it ran', () => {
  assert.deepEqual(Object.keys(golden.commits).sort(), ['ms-swift', 'trl', 'unsloth']);
  assert.match(String(golden.commits.unsloth), /^015bdef/);
  assert.match(String(golden.commits['ms-swift']), /^3602360/);
  assert.ok(golden.cases.length > 300);
});

test('TRL 0.24.0 reads the batch settings as TRL 1.13.0 does (the sandbox default), with the same words', () => {
  for (const c of golden.cases) {
    const got = ours(flags(c.input, null));
    agrees(got, c['trl-0.24.0'], JSON.stringify(c.input), 'TRL 0.24.0');
  }
});

test('TRL 0.18.2: its rule and its message; a generation batch it accepts but cannot lay out is refused, saying why', () => {
  let straddles = 0;
  for (const c of golden.cases) {
    const want = c['trl-0.18.2'];
    const got = ours(flags(c.input, 'trl-0.18.2'));
    const what = JSON.stringify(c.input);
    const global = c.input.batch * c.input.ranks;
    if (!want.error && c.input.gbs !== undefined && c.input.gbs % global !== 0) {
      // (gbs % pd) * W passes, steps_per_generation is floored and the sampler's chunks straddle the loader's batches.
      straddles++;
      assert.ok(got instanceof ConfigError, what);
      assert.match(got.message, /TRL 0\.18\.2 accepts it/, what);
      assert.ok(got.message.includes(`steps_per_generation = ${c.input.gbs} // ${global} = ${want.stepsPerGeneration}`), got.message);
      continue;
    }
    agrees(got, want, what, 'TRL 0.18.2');
  }
  assert.equal(straddles, 3);
});

test("Unsloth 015bdef: its rewrite of per_device_train_batch_size, its printed notice verbatim in the notes, then TRL 0.24.0's rule", () => {
  let rewritten = 0;
  for (const c of golden.cases) {
    const want = c['unsloth-015bdef'];
    const got = ours(flags(c.input, 'unsloth-015bdef'));
    const what = JSON.stringify(c.input);
    agrees(got, want, what, 'Unsloth');
    if (got instanceof ConfigError) continue;
    assert.equal(got.batch, want.batch, `${what}: the batch Unsloth leaves`);
    if (want.printed) {
      rewritten++;
      assert.equal(got.perDeviceBatchAsWritten, c.input.batch, what);
      assert.equal(unslothNotice(c.input.batch, c.input.k), want.printed, what);
      const notes = buildLayout({ ...got, datasetSize: got.batch * got.ranks * got.stepsPerGeneration }).notes.map((f) => say(f));
      assert.ok(
        notes.some((n) => n.includes(want.printed!) && n.includes(`from ${c.input.batch} to ${want.batch}`)),
        `${what}: ${notes.join('\n')}`,
      );
    } else {
      assert.equal(got.perDeviceBatchAsWritten, undefined, what);
    }
  }
  assert.ok(rewritten > 50, `${rewritten} rewrites`);
});

test('Unsloth 015bdef brings its defaults: per_device_train_batch_size 4, gradient_accumulation_steps 2, num_generations 8, seed 3407', () => {
  const got = ours({ framework: 'unsloth-015bdef' });
  assert.ok(!(got instanceof ConfigError));
  assert.equal(got.sampler, 'trl');
  assert.deepEqual([got.batch, got.gradientAccumulationSteps, got.k, got.seed, got.stepsPerGeneration], [4, 2, 8, 3407, 2]);
});

test('ms-swift 3602360: _init_generation_batch_params, its rule and its words', () => {
  for (const c of golden.cases)
    agrees(ours(flags(c.input, 'ms-swift-3602360')), c['ms-swift-3602360'], JSON.stringify(c.input), 'ms-swift');
});

test("ms-swift's sequence-parallel RepeatSampler: the stream TRL's class yields, and the micro-steps its dataloader gives", () => {
  for (const { input, stream, batchesPerProcess } of golden.sequenceParallel) {
    const prompts = (input.batch * input.ranks * input.stepsPerGeneration) / input.k;
    const repeat = input.numIterations * input.stepsPerGeneration * input.sequenceParallelSize;
    assert.deepEqual(repeatSamplerPass(input.datasetSize, input.k, prompts, repeat, new Mt19937(input.seed)), stream);
    const layout = buildLayout({
      ...ours({ framework: 'ms-swift-3602360', 'dataset-size': String(input.datasetSize) }),
      ...input,
      sampler: 'trl',
      framework: 'ms-swift-3602360',
      gradientAccumulationSteps: input.stepsPerGeneration,
    } as LayoutConfig);
    assert.equal(layout.counts.perEpoch.microSteps, batchesPerProcess, JSON.stringify(input));
    // Each step is the first copy of a chunk, split into one contiguous block per process.
    const block = input.batch * input.stepsPerGeneration;
    layout.steps.forEach((step, i) => {
      const start = i * prompts * input.k * repeat;
      assert.deepEqual(step.ranks.flat(), stream.slice(start, start + block * input.ranks));
    });
  }
});

test('--sequence-parallel-size is refused without ms-swift, and must divide the ranks', () => {
  const without = ours({ sampler: 'trl', 'sequence-parallel-size': '2' });
  assert.ok(without instanceof ConfigError && /ms-swift-3602360/.test(without.message));
  const uneven = ours({ framework: 'ms-swift-3602360', ranks: '3', batch: '8', 'sequence-parallel-size': '2' });
  assert.ok(uneven instanceof ConfigError && /must divide ranks=3/.test(uneven.message), String(uneven));
});

test('--framework names a framework that trains the sampler; a TRL wrapper chooses the trl sampler', () => {
  const wrong = ours({ sampler: 'verl', framework: 'unsloth-015bdef' });
  assert.ok(wrong instanceof ConfigError && /does not train/.test(wrong.message));
  const unknown = ours({ framework: 'unsloth' });
  assert.ok(unknown instanceof ConfigError && /unknown --framework 'unsloth'/.test(unknown.message));
  const chosen = ours({ framework: 'trl-0.18.2' });
  assert.ok(!(chosen instanceof ConfigError) && chosen.sampler === 'trl' && chosen.framework === 'trl-0.18.2');
});

test('a divisibility error suggests the steps_per_generation (or the gradient accumulation it follows) that makes it divide', () => {
  const got = ours({ sampler: 'trl', ranks: '2', batch: '3', k: '4', 'dataset-size': '64' });
  assert.ok(got instanceof ConfigError);
  assert.match(got.message, /use --steps-per-generation 2 \(or --gradient-accumulation-steps 2, which it follows when not given\)/);
  assert.ok(got.suggestions.some((s) => s.stepsPerGeneration === 2));
  const given = ours({
    sampler: 'trl',
    ranks: '2',
    batch: '3',
    k: '4',
    'steps-per-generation': '1',
    'gradient-accumulation-steps': '3',
    'dataset-size': '64',
  });
  assert.ok(given instanceof ConfigError && /use --steps-per-generation 2;/.test(given.message), String(given));
});
