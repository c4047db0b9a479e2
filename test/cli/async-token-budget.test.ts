// `grpo-sandbox async --framework trl-async --token-budget T`: each step's rows per rank in tokens and the samples
// TRL's TokenBudgetBatcher drops for being longer than the budget (the packer itself: golden-trl-async-packing.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const lengthsFile = join(mkdtempSync(join(tmpdir(), 'token-budget-')), 'lengths.json');
writeFileSync(
  lengthsFile,
  JSON.stringify([
    [100, 700, 200, 300],
    [650, 150, 250, 50],
  ]),
);
const args = ['async', '--framework', 'trl-async', '--lengths', lengthsFile, '--train-batch-size', '2', '--k', '4', '--steps', '1'];

test('a sample longer than --token-budget is dropped by the packer, not trained, and reported in JSON and text', async () => {
  const r = await runCli([...args, '--token-budget', '600', '--num-processes', '2', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const d = JSON.parse(r.stdout);
  assert.equal(d.settings.token_budget, 600);
  assert.equal(d.settings.num_processes, 2);
  const step = d.steps[0];
  const dropped = step.packing.dropped.map((x: { prompt: number; index: number; length: number }) => `P${x.prompt}#${x.index}:${x.length}`);
  assert.deepEqual(dropped.sort(), ['P0#1:700', 'P1#0:650']);
  assert.equal(step.packing.dropped[0].why, 'longer than token_budget=600');
  assert.equal(step.samples.length, 6);
  assert.ok(step.samples.every((s: { length: number }) => s.length <= 600));
  for (const ranks of step.packing.rows) {
    assert.equal(ranks.length, 2);
    assert.ok(
      ranks.every((t: number) => t > 0 && t <= 600),
      JSON.stringify(ranks),
    );
  }
  assert.equal(
    step.packing.rows.flat().reduce((a: number, b: number) => a + b, 0),
    1050,
  );

  const text = await runCli([...args, '--token-budget', '600', '--num-processes', '2']);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /token_budget=600, num_processes=2\n/);
  assert.match(
    text.stdout,
    /rows \(tokens per rank\): \d+\|\d+; dropped P1#0 650 tokens, P0#1 700 tokens \(longer than token_budget=600\)\n/,
  );
  assert.match(text.stdout, /\ndropped: none; and 2 samples longer than token_budget, dropped by the trainer's packer\n/);
});

test('TRL’s default token_budget (None: the vLLM max_model_len) drops nothing; no rows are reported', async () => {
  const r = await runCli([...args, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const d = JSON.parse(r.stdout);
  assert.equal(d.settings.token_budget, 'max_model_len');
  assert.equal(d.steps[0].packing, undefined);
  assert.equal(d.steps[0].samples.length, 8);
});

test('--token-budget 0: one fixed-count micro-batch, Σ L²-balanced over the ranks, nothing dropped', async () => {
  const r = await runCli([...args, '--token-budget', '0', '--num-processes', '3', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const p = JSON.parse(r.stdout).steps[0].packing;
  assert.equal(p.rows.length, 1);
  assert.equal(p.rows[0].length, 3);
  assert.equal(
    p.rows[0].reduce((a: number, b: number) => a + b, 0),
    2400,
  );
  assert.deepEqual(p.dropped, []);
});
