// Policies for `grpo-sandbox schedule` from a trained controller (src/cli/schedule-policy.ts):
// the per-input tables come from the trainer's own forward pass (src/train/policy.ts), checked on
// hand-set parameters whose probabilities are known in closed form; and a real `grpo-sandbox
// train` run's directory as --policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controllerLayout, type ControllerDims } from '../../src/core/env/controller.ts';
import { makeTask } from '../../src/core/env/task.ts';
import { sampleActions } from '../../src/core/schedule/index.ts';
import { promptsFor, trainedTables } from '../../src/cli/schedule-policy.ts';
import { decodeCheckpoint } from '../../src/train/checkpoint.ts';
import { runCli } from '../helpers/cli.ts';

const dims: ControllerDims = { dModel: 2, hidden: 5 };

/** Zero weights except: tier biases log 1, log 2, log 3; stage 2 reads the insertion one-hot into hidden unit p, which votes for top-K option p. */
function handSetParams(vote: number): Float32Array {
  const { tensors: t, length } = controllerLayout(dims);
  const params = new Float32Array(length);
  params.set([0, Math.log(2), Math.log(3)], t.b1h.offset);
  for (let p = 0; p < 5; p++) {
    params[t.w2.offset + (dims.dModel + p) * t.w2.cols + p] = 10; // one-hot column p → hidden p
    params[t.w2h.offset + p * t.w2h.cols + p] = vote; // hidden p → topK logit p
  }
  return params;
}

const close = (a: number[], b: number[], what: string) =>
  a.forEach((x, i) => assert.ok(Math.abs(x - b[i]!) < 1e-6, `${what}[${i}]: ${x} vs ${b[i]}`));

test('trainedTables: stage-1 heads per input, stage-2 heads per input and insertion position, knob 3 masked', async () => {
  const task = makeTask(dims, 1, 16);
  const tables = await trainedTables(task, handSetParams(3), [0, 5, 9]);
  assert.equal(tables.length, 3);
  const hot = Math.exp(3 * Math.tanh(10));
  for (const t of tables) {
    close(t.tier, [1 / 6, 2 / 6, 3 / 6], 'tier');
    close(t.insertion, [0.2, 0.2, 0.2, 0.2, 0.2], 'insertion');
    for (let p = 0; p < 5; p++) {
      close(
        t.topK[p]!,
        [0, 1, 2, 3, 4].map((j) => (j === p ? hot : 1) / (hot + 4)),
        `topK after block ${p + 1}`,
      );
      // Zero knob-3 logits: uniform over the five options that keep 12…16 blocks active.
      close(
        t.knob3[p]!,
        Array.from({ length: 16 }, (_, n) => (n >= 11 - p && n <= 15 - p ? 0.2 : 0)),
        `knob3 after block ${p + 1}`,
      );
    }
  }
});

test('configurations drawn from a trained policy follow it (top-K chosen by the insertion position)', async () => {
  const task = makeTask(dims, 2, 16);
  const tables = await trainedTables(task, handSetParams(40), promptsFor(task, 4, 0));
  const drawn = sampleActions({ name: 'trained', tables }, 4, 50, 9);
  for (const a of drawn) assert.equal(a.topK, a.insertion);
  assert.equal(new Set(drawn.map((a) => a.insertion)).size, 5);
});

test('promptsFor: a seeded choice from the bank, cycled when the batch is larger', () => {
  const task = makeTask(dims, 0, 8);
  const ids = promptsFor(task, 20, 3);
  assert.deepEqual(ids.slice(8, 16), ids.slice(0, 8));
  assert.deepEqual(
    [...ids.slice(0, 8)].sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5, 6, 7],
  );
  assert.notDeepEqual(promptsFor(task, 8, 4), ids.slice(0, 8));
});

test('--policy DIR of a `grpo-sandbox train` run: its controller’s choices, fewer distinct structures than uniform', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-train-'));
  try {
    const run = join(dir, 'run');
    const train = await runCli(['train', '--ranks', '1', '--batch', '32', '--k', '8', '--steps', '40', '--out', run]);
    assert.equal(train.status, 0, train.stderr);
    const args = ['schedule', '--batch', '8', '--k', '8', '--alpha', '0.5', '--json'];
    const trained = await runCli([...args, '--policy', run]);
    assert.equal(trained.status, 0, trained.stderr);
    const out = JSON.parse(trained.stdout);
    assert.equal(out.config.latency.kind, 'controller');
    assert.equal(out.config.latency.tables.length, 8, 'one table per input');
    // The tables are the checkpoint's controller on the chosen prompts of its task.
    const config = JSON.parse(readFileSync(join(run, 'config.json'), 'utf8'));
    const state = decodeCheckpoint(
      JSON.parse(readFileSync(join(run, 'checkpoint.json'), 'utf8')),
      controllerLayout(config.dims).length,
      'test',
    );
    assert.equal(state.step, 40);
    // The same through the checkpoint file's path.
    const viaFile = JSON.parse((await runCli([...args, '--policy', join(run, 'checkpoint.json')])).stdout);
    assert.deepEqual(viaFile.configurations, out.configurations);
    // A trained controller repeats itself: fewer distinct structures than the uniform policy, so by-structure batches more.
    const uniform = JSON.parse((await runCli([...args, '--latency', 'controller'])).stdout);
    const structures = (o: { configurations: { structure: string }[] }) => new Set(o.configurations.map((c) => c.structure)).size;
    assert.ok(structures(out) < structures(uniform), `${structures(out)} vs ${structures(uniform)}`);
    const peak = (o: { schemes: { scheme: string; peakBatch: number }[] }) => o.schemes.find((s) => s.scheme === 'by-structure')!.peakBatch;
    assert.ok(peak(out) > peak(uniform));
    const text = (await runCli(['schedule', '--policy', run])).stdout;
    assert.match(text.replace(/\n/g, ' '), /drawn from the controller trained in .*run \(step 40\)/);
    // A damaged run: one line, exit 2.
    writeFileSync(join(run, 'checkpoint.json'), '{"format": "something else"}');
    const bad = await runCli(['schedule', '--policy', run]);
    assert.equal(bad.status, 2);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /^grpo-sandbox schedule: .*is not a grpo-sandbox checkpoint.*\n$/);
    rmSync(join(run, 'config.json'));
    const noConfig = await runCli(['schedule', '--policy', run]);
    assert.equal(noConfig.status, 2);
    assert.match(noConfig.stderr, /^grpo-sandbox schedule: --policy .*cannot read .*config\.json' \(ENOENT\)[^\n]*\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
