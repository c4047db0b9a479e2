// `grpo-sandbox steps`: the table and findings, --json per completion, --lengths from a file, and
// one-line refusals (exit 2) for mistakes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { tempDir } from '../helpers/temp-dir.ts';

async function run(args: string[]) {
  const io = memoryIo();
  const status = await main(['steps', ...args], io);
  return { status, stdout: io.stdout, stderr: io.stderr };
}

const TRL_5619 = [
  '--sampler',
  'trl',
  '--ranks',
  '2',
  '--batch',
  '2',
  '--k',
  '2',
  '--dataset-size',
  '16',
  '--steps-per-generation',
  '4',
  '--gradient-accumulation-steps',
  '2',
];

test('text: the framework named, a line per rank’s micro-batch, findings and notes', async () => {
  const r = await run([...TRL_5619, '--framework', 'trl-1.9.0']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /trained by trl-1\.9\.0, loss dapo/);
  assert.match(r.stdout, /optimizer step 0 \(epoch 0, 2 micro-step\(s\)/);
  assert.match(r.stdout, /Σ tokens \/ \(N_gen \d+ \/ W 2\)/);
  assert.match(r.stdout, /Findings\n- Update size: .*\n/);
  assert.match(r.stdout, /TRL #5619/);
  assert.match(r.stdout, /pinned to trl 1\.9\.0 \(tag v1\.9\.0, 35def3e/);
  assert.match(r.stdout, /0→1 off/);
});

test('--json: per optimizer step, per completion: rank, microStep, policyVersion, tokens, weight, intendedWeight', async () => {
  const r = await run([...TRL_5619, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.framework.name, 'trl-1.13.0');
  assert.equal(out.loss, 'dapo');
  assert.equal(out.steps.length, 4);
  const row = out.steps[1].completions[0];
  for (const key of ['rank', 'microStep', 'policyVersion', 'tokens', 'weight', 'intendedWeight'])
    assert.equal(typeof row[key], 'number', key);
  assert.equal(row.policyVersion, 0);
  assert.equal(row.trainVersion, 1);
  assert.equal(out.steps[0].completions.length, 2 * 2 * 2);
  assert.ok(Array.isArray(out.findings) && out.findings.length > 0);
});

test('--lengths FILE: the given lengths, repeated over the run', async () => {
  const dir = tempDir('steps-');
  const file = join(dir, 'lengths.json');
  writeFileSync(file, '[100, 300]');
  const r = await run([...TRL_5619, '--lengths', file, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    out.steps[0].completions.map((c: { tokens: number }) => c.tokens),
    [100, 300, 100, 300, 100, 300, 100, 300],
  );
  assert.match(out.lengths, /2 length\(s\), used in completion order, repeated/);
});

for (const [args, pattern] of [
  [['--framework', 'nope'], /steps: unknown --framework 'nope'; frameworks: /],
  [['--loss', 'token-mean'], /is not one of flow_grpo-ac4c86e's: sample-mean/],
  [['--lengths', '/nonexistent/x'], /steps: --lengths '\/nonexistent\/x': cannot read it/],
  [['--max-completion-length', '0'], /max-completion-length/],
  [['--sampler', 'dance-grpo', '--k', '2', '--framework', 'flow_grpo-ac4c86e'], /does not train --sampler dance-grpo's layout/],
  [['--sampler', 'flow-grpo', '--framework', 'trl-1.13.0'], /does not train --sampler flow-grpo's layout/],
] as [string[], RegExp][]) {
  test(`exit 2, one line: steps ${args.join(' ')}`, async () => {
    const r = await run(args);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.split('\n').length, 2, r.stderr);
    assert.match(r.stderr, pattern);
  });
}

test('steps --sampler dance-grpo: trained by dance-grpo-22b85ef, one sample per micro-step, a short last window never applied', async () => {
  const io = memoryIo();
  const args = ['steps', '--sampler', 'dance-grpo', '--k', '2', '--batch', '6', '--gradient-accumulation-steps', '4', '--json'];
  assert.equal(await main(args, io), 0, io.stderr);
  const out = JSON.parse(io.stdout) as { framework: { name: string }; findings: string[] };
  assert.equal(out.framework.name, 'dance-grpo-22b85ef');
  assert.ok(out.findings.some((f) => f.startsWith('Never applied: the last 2 sample(s) of a training step')));
});

test(
  "the per-completion sentence is the framework's: verl's engine workers normalise by the mini-batch's global tokens, its legacy worker per " +
    'micro-batch',
  async () => {
    const said = async (framework: string) => {
      const io = memoryIo();
      assert.equal(await main(['steps', '--sampler', 'verl', '--framework', framework, '--json'], io), 0, io.stderr);
      const out = JSON.parse(io.stdout) as { findings: string[] };
      return out.findings.find((f) => f.startsWith('Per completion'))!;
    };
    const engine = await said('verl-b178a3c-engine');
    assert.match(engine, /every token of a step weighs the same/);
    assert.doesNotMatch(engine, /micro-batch it sees/);
    assert.match(engine, /engine workers divides by the mini-batch’s token count/);
    assert.match(await said('verl-b178a3c'), /legacy worker divides by the tokens of the micro-batch it sees/);
  },
);

test('a quick run says nothing on stderr, with or without --json: progress is for work of more than a couple of seconds', async () => {
  for (const extra of [[], ['--json']]) {
    const r = await run([...TRL_5619, ...extra]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  }
});

test('a run over the budget is refused before any work, in one line: its size, the estimate, the budget and the flags that shrink it', async () => {
  // 448 generation batches of 64 × 64 completions (1,835,008 samples), each trained num_iterations 8 times.
  const big = ['--sampler', 'trl', '--ranks', '64', '--batch', '64', '--k', '8', '--gradient-accumulation-steps', '1'];
  const r = await run([...big, '--dataset-size', '229376', '--num-iterations', '8', '--json']);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    new RegExp(
      "^grpo-sandbox steps: this run's 14680064 completion-micro-steps \\(completions × passes\\) in 229376 micro-batches, as JSON, " +
        'would need about [\\d.]+ GB of memory \\(budget 2\\.00 GB\\) and about [\\d.]+ s \\(budget 30\\.0 s\\); ' +
        'lower --epochs, --dataset-size \\(or --batches-per-epoch\\), --num-iterations, --ranks or --batch\\n$',
    ),
  );
  // Where the text report would fit, the refusal of the JSON says so.
  const json = await run([...big, '--dataset-size', '229376', '--num-iterations', '2', '--json']);
  assert.equal(json.status, 2);
  assert.match(json.stderr, /as JSON, would need about .*; lower .*, or leave out --json \(the text report fits\)\n$/);
});

test('--json is written a step at a time, with the bytes of one JSON.stringify of the whole report', async () => {
  const { buildLayout } = await import('../../src/core/samplers/index.ts');
  const { buildSteps } = await import('../../src/core/steps/index.ts');
  const { stepsJson, writeStepsJson } = await import('../../src/cli/steps.ts');
  const { defaultConfig } = await import('../../src/core/samplers/index.ts');
  // More than one write (1 MiB each) for the first; a flow_grpo run whose last window is never applied; verl's mini-batches.
  for (const c of [
    { sampler: 'trl', ranks: 8, batch: 8, k: 8, gradientAccumulationSteps: 8, stepsPerGeneration: 8, datasetSize: 1000 },
    {
      sampler: 'flow-grpo',
      ranks: 2,
      batch: 4,
      k: 4,
      datasetSize: 16,
      batchesPerEpoch: 3,
      epochs: 3,
      numIterations: 2,
      gradientAccumulationSteps: 4,
    },
    { sampler: 'verl', epochs: 2 },
  ] as const) {
    const report = buildSteps(buildLayout({ ...defaultConfig, ...c }));
    const writes: string[] = [];
    writeStepsJson(report, (text) => writes.push(text));
    assert.equal(writes.join(''), `${JSON.stringify(stepsJson(report))}\n`);
    if (c.sampler === 'trl') assert.ok(writes.length > 1, `${writes.length} write(s)`);
  }
});

test('steps --sampler verl --use-dynamic-bsz true: the header says the micro-batches are cut by tokens, not a fixed count', async () => {
  const io = memoryIo();
  const argv = ['steps', '--sampler', 'verl', '--ranks', '2', '--batch', '4', '--k', '2', '--dataset-size', '16'];
  assert.equal(await main([...argv, '--use-dynamic-bsz', 'true', '--ppo-max-token-len-per-gpu', '2048'], io), 0, io.stderr);
  const header = io.stdout.split('\n').slice(1, 4).join(' ');
  assert.match(header, /micro-batches cut by tokens \(use_dynamic_bsz: at most ppo_max_token_len_per_gpu 2048/);
  assert.doesNotMatch(header, /completion\(s\) per rank per micro-step|gradient accumulation/);
});

test('steps --sampler verl --ulysses-sequence-parallel-size 2: the header gives the budget as ppo_max_token_len_per_gpu × S', async () => {
  const io = memoryIo();
  const argv = ['steps', '--sampler', 'verl', '--ranks', '2', '--batch', '4', '--k', '2', '--dataset-size', '16'];
  const sp = ['--use-dynamic-bsz', 'true', '--ppo-max-token-len-per-gpu', '600', '--ulysses-sequence-parallel-size', '2'];
  assert.equal(await main([...argv, ...sp], io), 0, io.stderr);
  const header = io.stdout.split('\n').slice(1, 5).join(' ');
  assert.match(header, /each a group of ulysses_sequence_parallel_size 2 GPUs \(4 in all\)/);
  assert.match(header, /at most ppo_max_token_len_per_gpu 600 × ulysses_sequence_parallel_size 2 = 1200 tokens each/);
});
