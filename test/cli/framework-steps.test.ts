// `steps --framework NAME` for every framework home with a trainer, as a user meets it: text and --json, every
// loss mode, each optimizer step's weights × tokens summing to the framework's documented scale, and one line on
// stderr (exit 2) for every mistake. The weights themselves are checked against each framework's own loss code
// in test/core/frameworks/<name>-trainer.test.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FRAMEWORK_HOMES } from '../../src/core/frameworks/index.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** Small settings every home lays out (as test/cli/framework-layout.test.ts's --emit test uses them). */
const GIVEN = ['--train-batch-size', '8', '--k', '4', '--ranks', '2', '--epochs', '1', '--dataset-size', '64', '--seed', '3'];

/**
 * What an optimizer step's weights × completion tokens sum to, per framework and loss mode, as its loss code documents it
 * (1: the global token mean's size). A string: why there is no fixed sum (the test then checks only that it is finite).
 */
const SCALE: Record<string, Record<string, number | string>> = {
  // ClippedPGLossFn: Σ/global_valid_toks, or Σ of sequence means / global_valid_seqs; both sum to 1 over a global batch.
  'nemo-rl': { true: 1, false: 1 },
  // average_loss per micro-batch × its response tokens × world_size / the mini-batch's, FSDP ÷ world_size: Σ = 1 either way.
  easyr1: { token: 1, seq: 1 },
  // off: Σ sample means / the step's global batch (1 when every completion has a token); on: Σ tokens / Σ clamp_min(tokens, 1).
  slime: { false: 1, true: 1 },
  // ppo_actor_loss_fn's micro-batch token mean × its tokens / the minibatch's on all ranks (float32) × dp, FSDP ÷ dp: 1.
  areal: { 'token-mean': 1 },
  // apply_loss_reduction_to_advantages_minibatch per mini-batch: token_mean ÷ its tokens; token_mean_legacy ÷ each chunk's
  // tokens ÷ the chunks (1 when micro_train_batch_size_per_gpu divides the mini-batch, as here); sequence_mean and
  // prompt_mean average means (1 when every completion has a token and prompts sit whole in a mini-batch, as here);
  // seq_mean_token_sum_norm ÷ (B × max_seq_len): Σ tokens / (B × max_seq_len), below 1.
  skyrl: {
    token_mean: 1,
    token_mean_legacy: 1,
    sequence_mean: 1,
    seq_mean_token_sum_norm: 'Σ completion tokens / (mini-batch × max_seq_len)',
    prompt_mean: 1,
  },
  // agg_loss with batch_num_tokens / global_valid_samples all-reduced over the backward batch, × loss_scale ÷ micro-batches ÷ dp:
  // token-mean and seq-mean-token-mean sum to 1 (when every completion has a token); seq-mean-token-sum to tokens / sequences;
  // seq-mean-token-sum-norm to tokens / (sequence_length − 1).
  roll: {
    'seq-mean-token-mean': 1,
    'token-mean': 1,
    'seq-mean-token-sum': 'Σ completion tokens / global_valid_samples',
    'seq-mean-token-sum-norm': 'Σ completion tokens / (sequence_length − 1)',
  },
  // aggregate_loss over the gas window's global tokens (ppo) or non-empty samples (gspo), × dp_size, DeepSpeed ÷ gas ÷ dp: 1.
  openrlhf: { ppo: 1, gspo: 1 },
  // calculate_token_counts: each accumulation group's response tokens on all ranks, × world size, DeepSpeed ÷ ranks: 1.
  'open-instruct': { token: 1 },
  // rl_scale = the loss-mask tokens of every micro-batch on all ranks, FSDP mean undone: 1 (no sample cut at seq_len here).
  'prime-rl': { 'global-token-mean': 1 },
};

/**
 * Flags a home needs beyond GIVEN: under '*' for every run of it, under a loss mode for that mode (SkyRL's
 * seq_mean_token_sum_norm refuses to run without max_seq_len).
 */
const EXTRA: Record<string, Record<string, string[]>> = {
  skyrl: { seq_mean_token_sum_norm: ['--max-seq-len', '4096'] },
  roll: { 'seq-mean-token-sum-norm': ['--sequence-length', '4096'] },
  // train.batch_size 128 would make accumulated_gradient 64 micro-batches per rank, more than the 16 each rank holds.
  openrlhf: { '*': ['--train-global-batch-size', '8'] },
};
const extra = (name: string, loss = '*') => [...(EXTRA[name]?.['*'] ?? []), ...(loss === '*' ? [] : (EXTRA[name]?.[loss] ?? []))];

interface MicroBatchJson {
  rank: number;
  completions: number[];
  tokens: number;
  padding: number;
  normaliser: string;
  policyVersion: number;
  trainVersion: number;
  weights: number[];
  relativeWeights: number[];
}

const homes = FRAMEWORK_HOMES.filter((h) => h.trainer);

for (const home of homes) {
  const trainer = home.trainer!;
  test(`${home.name}: steps text shows each rank's micro-batches, normalisers, weights and findings`, async () => {
    const res = await runCli(['steps', '--framework', home.name, ...GIVEN, ...extra(home.name), '--steps', '1']);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /optimizer step 0 \(training step 0/);
    assert.match(res.stdout, /rank 0: \d+ micro-batch/);
    assert.match(res.stdout, /normaliser /);
    assert.match(res.stdout, /sample:weight \d+:/);
    assert.match(res.stdout, /note: Completion tokens are synthetic/);
    assert.ok(res.stdout.includes(home.pinned.commit.slice(0, 7)));
  });

  test(`${home.name}: --help names every loss mode and the home's keys`, async () => {
    const res = await runCli(['steps', '--framework', home.name, '--help']);
    assert.equal(res.status, 0, res.stderr);
    for (const loss of trainer.losses) assert.ok(res.stdout.includes(loss), loss);
    for (const k of home.keys) assert.ok(res.stdout.includes(`--${k.flag}`), k.flag);
  });

  for (const loss of trainer.losses) {
    test(`${home.name} --loss ${loss}: --json micro-batches, versions, and weights × tokens summing to the documented scale`, async () => {
      const res = await runCli([
        'steps',
        '--framework',
        home.name,
        ...GIVEN,
        ...extra(home.name, loss),
        '--loss',
        loss,
        '--steps',
        '2',
        '--json',
      ]);
      assert.equal(res.status, 0, res.stderr);
      const out = JSON.parse(res.stdout);
      assert.equal(out.framework, home.name);
      assert.equal(out.loss, loss);
      assert.ok(Array.isArray(out.findings) && out.findings.every((f: unknown) => typeof f === 'string'));
      assert.ok(out.steps.length > 0);
      const scale = SCALE[home.name]?.[loss];
      assert.notEqual(scale, undefined, `state ${home.name}'s documented scale for --loss ${loss} in SCALE`);
      let previous = -1;
      for (const step of out.steps) {
        assert.equal(step.index, previous + 1, 'optimizer steps are numbered in turn');
        previous = step.index;
        const tokens: number[] = out.trainingSteps[step.trainingStep].completionTokens;
        let mass = 0;
        let total = 0;
        for (const mb of step.microBatches as MicroBatchJson[]) {
          assert.ok(Number.isInteger(mb.rank) && mb.rank >= 0);
          assert.equal(mb.weights.length, mb.completions.length);
          assert.equal(mb.relativeWeights.length, mb.completions.length);
          assert.equal(
            mb.tokens,
            mb.completions.reduce((a, i) => a + tokens[i]!, 0),
          );
          assert.ok(mb.padding >= 0 && typeof mb.normaliser === 'string' && mb.normaliser.length > 0);
          assert.ok(mb.policyVersion <= mb.trainVersion && mb.trainVersion <= step.index);
          mb.completions.forEach((c, i) => (mass += mb.weights[i]! * tokens[c]!));
          total += mb.tokens;
        }
        assert.equal(step.tokens, total);
        if (typeof scale === 'number')
          assert.ok(Math.abs(mass - scale) <= 1e-6 * Math.max(1, scale), `${step.index}: Σ weight × tokens = ${mass}, not ${scale}`);
        else assert.ok(Number.isFinite(mass));
      }
    });
  }

  test(`${home.name}: --lengths gives the completion tokens, in turn, and too few are refused in one line`, async () => {
    const dir = tempDir('framework-steps-');
    const file = join(dir, 'lengths.txt');
    writeFileSync(file, Array.from({ length: 4096 }, (_, i) => 1 + ((i * 37) % 50)).join(' '));
    const res = await runCli([
      'steps',
      '--framework',
      home.name,
      ...GIVEN,
      ...extra(home.name),
      '--lengths',
      file,
      '--steps',
      '1',
      '--json',
    ]);
    assert.equal(res.status, 0, res.stderr);
    const out = JSON.parse(res.stdout);
    const tokens: number[] = out.trainingSteps[0].completionTokens;
    tokens.forEach((n, i) => assert.equal(n, 1 + ((i * 37) % 50)));
    writeFileSync(file, '5 6 7');
    const short = await runCli(['steps', '--framework', home.name, ...GIVEN, ...extra(home.name), '--lengths', file]);
    assert.equal(short.status, 2);
    assert.match(short.stderr, /--lengths holds 3 completion token counts/);
    assert.equal(short.stderr.trim().split('\n').length, 1, short.stderr);
  });
}

test('a home without a trainer is refused in one line naming the homes that have one', async () => {
  for (const home of FRAMEWORK_HOMES.filter((h) => !h.trainer)) {
    const res = await runCli(['steps', '--framework', home.name]);
    assert.equal(res.status, 2);
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
    for (const h of homes) assert.ok(res.stderr.includes(h.name), h.name);
  }
});

test('mistakes are one line on stderr with exit 2: an unknown loss, a bad --steps, an unknown flag', async () => {
  const home = homes[0];
  assert.ok(home, 'at least one home has a trainer');
  const cases: [string[], RegExp][] = [
    [['--loss', 'nope'], /--loss 'nope' is not one of/],
    [['--steps', '0'], /--steps/],
    [['--emit', home.name], /unknown flag|--emit/],
    [['--lengths', join(tempDir('framework-steps-'), 'absent.txt')], /--lengths .*cannot read it/],
  ];
  for (const [args, pattern] of cases) {
    const res = await runCli(['steps', '--framework', home.name, ...args]);
    assert.equal(res.status, 2, args.join(' '));
    assert.equal(res.stdout, '');
    assert.match(res.stderr, pattern, args.join(' '));
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
  }
});
