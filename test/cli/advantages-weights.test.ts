// `grpo-sandbox advantages --compare` with completion tokens: each framework's weights are the weights `steps
// --framework NAME` reports for the same batch as one optimizer step on one rank (run through the CLI with the flags
// the column names), for TRL (dapo and grpo), ms-swift, Unsloth, verl, EasyR1, NeMo RL, slime, ROLL, flow_grpo, DanceGRPO
// and every other column; each total is the column's advantage × weight × tokens (a diffusion trainer's column: per
// sample, × 1); a token mean weighs every token alike (a long completion adds more) and a per-sequence mean gives each
// completion the same weight × tokens; a framework that cannot take the batch says why in its own words; without lengths
// --weights seeds them and says so; the text prints both tables; no lengths and no --weights leaves the output as it was.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { WeightColumn } from '../../src/core/grpo/compare-weights.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// Two prompts of four: prompt 0 with two successes, prompt 1 with one of each and two halves; lengths 10 … 80.
const batch = {
  rewards: [1, 0, 0, 1, 0.5, 0.5, 1, 0],
  promptIds: [0, 0, 0, 0, 1, 1, 1, 1],
  lengths: [10, 20, 30, 40, 50, 60, 70, 80],
};

/** A column as `--json` prints it (core/grpo/compare-weights.ts's type). */
type Column = WeightColumn;

async function compared(input: object, extra: string[] = []) {
  const r = await runCli(['advantages', '--compare', '--k', '4', '--json', ...extra], JSON.stringify(input));
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** The weight of each completion in the first optimizer step `steps --framework` reports, by completion index. */
async function stepsWeights(col: Column, lengthsFile: string): Promise<number[]> {
  const home = col.via === 'home';
  // A diffusion trainer's steps take no lengths: each sample is one unit.
  const lengths = col.unit === 'sample' ? [] : ['--lengths', lengthsFile];
  const args = ['steps', '--framework', col.framework, ...col.cli, ...lengths, '--json', '--loss', col.loss];
  const r = await runCli(home ? [...args, '--seqlens', lengthsFile, '--steps', '1'] : args);
  assert.equal(r.status, 0, `${col.name}: ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  const weights: number[] = [];
  if (home) {
    assert.equal(out.steps.length, 1, `${col.name}: one optimizer step`);
    for (const mb of out.steps[0].microBatches) mb.completions.forEach((s: number, i: number) => (weights[s] = mb.weights[i]));
  } else {
    const applied = out.steps.filter((s: { applied: boolean }) => s.applied);
    assert.equal(applied.length, 1, `${col.name}: one optimizer step`);
    for (const c of applied[0].completions) weights[c.completion] = c.weight;
  }
  return weights;
}

/**
 * Every column of `out` (a --compare --json answer for `lengths`) takes the batch, its weights are what `steps` reports with
 * the column's flags, its totals its scheme's advantages × weight × tokens (per sample: × 1) and `relative` weight × the
 * batch's tokens (per sample: × its samples).
 */
async function crossChecked(
  out: { weights: { columns: Column[] }; columns: { scheme: string; advantages: (number | null)[] }[] },
  lengths: number[],
) {
  const file = join(tempDir('grpo-weights-'), 'lengths.json');
  writeFileSync(file, JSON.stringify(lengths));
  const tokens = lengths.reduce((a, b) => a + b, 0);
  for (const col of out.weights.columns) {
    assert.equal(col.refused, null, `${col.name} refuses: ${col.refused}`);
    const theirs = await stepsWeights(col, file);
    assert.equal(theirs.length, lengths.length, col.name);
    col.weights!.forEach((x, i) =>
      assert.ok(Math.abs(x - theirs[i]!) <= 1e-12 * Math.abs(theirs[i]!), `${col.name} #${i}: ${x} vs ${theirs[i]}`),
    );
    // The totals: the column's default advantages (the --compare column of its scheme) × weight × tokens (per sample: × 1).
    const adv = out.columns.find((c) => c.scheme === col.scheme);
    assert.ok(adv, `${col.name}: its scheme ${col.scheme} is a column`);
    const units = (i: number) => (col.unit === 'sample' ? 1 : lengths[i]!);
    col.totals!.forEach((t, i) => {
      const a = adv.advantages[i];
      if (a === null || a === undefined) assert.equal(t, null);
      else assert.ok(Math.abs(t! - a * col.weights![i]! * units(i)) <= 1e-15, `${col.name} #${i}`);
    });
    const whole = col.unit === 'sample' ? lengths.length : tokens;
    col.relative!.forEach((r, i) => assert.ok(Math.abs(r - col.weights![i]! * whole) < 1e-12));
  }
}

test('advantages --compare with lengths: each framework’s weights are what steps --framework reports for the batch as one step', async () => {
  const out = await compared(batch);
  const w = out.weights;
  assert.deepEqual(w.lengths, batch.lengths);
  assert.deepEqual(w.lengthsSource, { kind: 'given' });
  assert.equal(w.tokens, 360);
  assert.match(w.assumption, /one rank, the whole batch one optimizer step/);
  const names = w.columns.map((c: Column) => c.name);
  for (const must of ['trl', 'trl-grpo', 'ms-swift', 'unsloth', 'verl', 'easyr1', 'nemo-rl', 'slime', 'roll', 'flow_grpo', 'dance-grpo'])
    assert.ok(names.includes(must), must);
  await crossChecked(out, batch.lengths);
  // TRL's dapo (its default) and verl, NeMo RL: a global token mean, every token 1 / 360. TRL's grpo, ms-swift's
  // default and slime: a per-sequence mean, so weight × tokens is the same 1/8 for every completion.
  const col = (name: string) => w.columns.find((c: Column) => c.name === name) as Column;
  // EasyR1's loss_avg_mode token too (its micro-batch's tokens × world_size / the mini-batch's); ROLL's seq-mean-token-mean
  // averages each completion first. Unsloth's bnpo divides by each micro-batch's tokens × GA: its default GA 2 cuts the
  // batch into #0–3 (100 tokens) and #4–7 (260). flow_grpo and DanceGRPO weigh each sample 1 / 8, whatever its tokens.
  for (const name of ['trl', 'verl', 'easyr1', 'nemo-rl'])
    for (const x of col(name).weights!) assert.ok(Math.abs(x * 360 - 1) < 1e-9, name);
  for (const name of ['trl-grpo', 'ms-swift', 'slime', 'roll'])
    col(name).weights!.forEach((x, i) => assert.ok(Math.abs(x * batch.lengths[i]! - 1 / 8) < 1e-9, `${name} #${i}`));
  col('unsloth').weights!.forEach((x, i) => assert.ok(Math.abs(x - 1 / ((i < 4 ? 100 : 260) * 2)) < 1e-15, `unsloth #${i}: ${x}`));
  assert.equal(col('unsloth').loss, 'bnpo');
  for (const name of ['flow_grpo', 'dance-grpo']) {
    assert.equal(col(name).unit, 'sample', name);
    for (const x of col(name).weights!) assert.ok(Math.abs(x - 1 / 8) < 1e-15, name);
  }
  for (const c of w.columns as Column[]) if (!['flow_grpo', 'dance-grpo'].includes(c.name)) assert.equal(c.unit, 'token', c.name);
  assert.equal(col('trl').loss, 'dapo');
  assert.equal(col('trl').switched, false);
  assert.equal(col('trl-grpo').loss, 'grpo');
  assert.equal(col('trl-grpo').switched, true);
  // The same advantage (#6: +, #0: +, trl-group's 1.22 and 0.87), seven times the tokens: dapo's total grows with them, grpo's does not.
  const ratio = (c: Column) => c.totals![6]! / c.totals![0]!;
  const trlGroup = out.columns.find((c: { scheme: string }) => c.scheme === 'trl-group').advantages;
  assert.ok(ratio(col('trl')) > 9, `dapo: ${ratio(col('trl'))}`);
  assert.ok(Math.abs(ratio(col('trl-grpo')) - trlGroup[6] / trlGroup[0]) < 1e-9);
});

test('advantages --compare --weights without lengths: the steps’ seeded lengths, said so, and the same cross-check', async () => {
  const { lengths: _, ...noLengths } = batch;
  const out = await compared(noLengths, ['--weights']);
  const w = out.weights;
  assert.equal(w.lengthsSource.kind, 'seeded');
  assert.equal(w.lengths.length, 8);
  for (const n of w.lengths) assert.ok(n >= w.lengthsSource.low && n <= w.lengthsSource.high, String(n));
  const file = join(tempDir('grpo-weights-'), 'lengths.json');
  writeFileSync(file, JSON.stringify(w.lengths));
  for (const name of ['trl', 'unsloth', 'easyr1', 'nemo-rl', 'slime', 'roll', 'flow_grpo']) {
    const col = w.columns.find((c: Column) => c.name === name) as Column;
    const theirs = await stepsWeights(col, file);
    col.weights!.forEach((x, i) => assert.ok(Math.abs(x - theirs[i]!) <= 1e-12 * theirs[i]!, `${name} #${i}`));
  }
  const text = await runCli(['advantages', '--compare', '--k', '4', '--weights', '--schemes', 'verl'], JSON.stringify(noLengths));
  assert.match(text.stdout, /none given, so seeded as steps seeds them: torch\.randint\(64, 513\) on MT19937\(0\)/);
});

test('advantages --compare text with lengths: the advantages table, then a weights table and a totals table with a column per framework', async () => {
  const r = await runCli(['advantages', '--compare', '--k', '4', '--schemes', 'trl-group,verl'], JSON.stringify(batch));
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const heads = lines.filter((l) => /^#\s+prompt\s+reward\s+tokens/.test(l));
  assert.equal(heads.length, 2, 'a weights table and a totals table');
  const cols = heads[0]!.trim().split(/\s+/).slice(4);
  // The sampler-style homes' token columns (SAMPLER_HOMES' order), then every framework home in its registry's order.
  assert.deepEqual(cols.slice(0, 7), ['trl', 'trl-grpo', 'unsloth', 'ms-swift', 'verl', 'nemo-rl', 'easyr1']);
  // The diffusion trainers' columns are marked per sample, and the mark is said under the weights table.
  assert.deepEqual(cols.slice(-2), ['flow_grpo*', 'dance-grpo*']);
  assert.match(r.stdout, /\n\* per sample, not per token: a diffusion trainer's loss has no tokens/);
  // Row 0 of the weights: dapo 1.000 (a token mean), grpo 4.500 (1/8 of the weight on 10 of 360 tokens).
  const row0 = lines[lines.indexOf(heads[0]!) + 1]!.trim().split(/\s+/);
  assert.deepEqual(row0.slice(0, 6), ['0', '0', '1', '10', '1.000', '4.500']);
  assert.match(r.stdout, /Σ/);
  assert.match(r.stdout, /steps --framework nemo-rl --ranks 1 --train-batch-size 2 --k 4 --dataset-size 2/);
});

test('advantages --compare with 6 completions of k = 3: the sizes that do not divide by the defaults, every column still one step', async () => {
  // Unsloth's GA 2 halves 6 (micro-batches of 3); EasyR1's micro-batch sizes gcd(6, 16) = gcd(6, 4) = 2; ROLL's 2 × GA 3.
  const six = { rewards: [1, 0, 0, 1, 1, 1], promptIds: [0, 0, 0, 1, 1, 1], lengths: [5, 700, 60, 8, 90, 33] };
  const r = await runCli(['advantages', '--compare', '--k', '3', '--json'], JSON.stringify(six));
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  await crossChecked(out, six.lengths);
  const cli = (name: string) => (out.weights.columns as Column[]).find((c) => c.name === name)!.cli.join(' ');
  assert.match(cli('unsloth'), /--batch 3 .*--gradient-accumulation-steps 2/);
  assert.match(
    cli('easyr1'),
    /--micro-batch-size-per-device-for-experience 2 --micro-batch-size-per-device-for-update 2 --max-response-length 700/,
  );
  assert.match(cli('roll'), /--dataset-size 3 --max-steps 1 --per-device-train-batch-size 2 --gradient-accumulation-steps 3/);
});

test('advantages --compare --weights with k = 1: EasyR1 refuses it in its own words; ROLL and the diffusion trainers take it', async () => {
  const k1 = await runCli(
    ['advantages', '--compare', '--k', '1', '--json'],
    JSON.stringify({ rewards: [1, 0, 1], promptIds: [0, 1, 2], lengths: [10, 20, 30] }),
  );
  assert.equal(k1.status, 0, k1.stderr);
  const w = JSON.parse(k1.stdout).weights;
  const col = (name: string) => w.columns.find((c: Column) => c.name === name) as Column;
  assert.equal(col('easyr1').weights, null);
  assert.match(
    col('easyr1').refused!,
    /^ValueError: GRPO and RLOO algorithm need `config\.worker\.rollout\.n > 1`\. \(verl\/trainer\/ray_trainer\.py/,
  );
  for (const name of ['roll', 'flow_grpo', 'dance-grpo']) assert.equal(col(name).refused, null, name);
});

test('advantages --compare without lengths or --weights: no weights (the output as before); bad lengths exit 2', async () => {
  const { lengths: _, ...noLengths } = batch;
  const out = await compared(noLengths);
  assert.equal(out.weights, undefined);
  const short = await runCli(['advantages', '--compare', '--k', '4'], JSON.stringify({ ...batch, lengths: [10, 20] }));
  assert.equal(short.status, 2);
  assert.match(short.stderr, /lengths has 2 entries but rewards has 8/);
  const bad = await runCli(
    ['advantages', '--compare', '--k', '4'],
    JSON.stringify({ ...batch, lengths: [10, 20, 30, 40, 50, 60, 70, 1.5] }),
  );
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /'lengths\[7\]' must be a whole number/);
  const lone = await runCli(['advantages', '--scheme', 'verl', '--k', '4', '--weights'], JSON.stringify(batch));
  assert.equal(lone.status, 2);
});
