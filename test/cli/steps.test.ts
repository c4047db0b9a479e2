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
  [['--sampler', 'dance-grpo', '--k', '2'], /does not model --sampler dance-grpo/],
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

test("the per-completion sentence is the framework's: verl's engine workers normalise by the mini-batch's global tokens, its legacy worker per micro-batch", async () => {
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
});
