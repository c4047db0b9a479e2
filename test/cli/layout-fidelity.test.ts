// Layout fidelity as a user meets it: flags honoured or refused, DanceGRPO's repeated order, TRL's counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliDeno } from '../helpers/cli.ts';

test('contiguous honours --batches-per-epoch (was silently replaced by the whole epoch)', async () => {
  const res = await runCli([
    'layout',
    '--sampler',
    'contiguous',
    '--batches-per-epoch',
    '2',
    '--dataset-size',
    '31',
    '--ranks',
    '1',
    '--batch',
    '2',
    '--k',
    '2',
    '--json',
  ]);
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.equal(out.config.batchesPerEpoch, 2);
  assert.equal(out.steps.length, 2);
  const over = await runCli([
    'layout',
    '--sampler',
    'contiguous',
    '--batches-per-epoch',
    '32',
    '--dataset-size',
    '31',
    '--ranks',
    '1',
    '--batch',
    '2',
    '--k',
    '2',
  ]);
  assert.equal(over.status, 2);
  assert.equal(over.stdout, '');
  assert.match(over.stderr, /batches-per-epoch=32 is more than an epoch holds.*use batches-per-epoch ≤ 31/);
});

test('a flag the sampler does not read is refused with one line naming the sampler and why; framework wording beside ours', async () => {
  const cases: [string[], RegExp][] = [
    [['--sampler', 'trl', '--batches-per-epoch', '3'], /--sampler trl does not use --batches-per-epoch: TRL derives it/],
    [['--sampler', 'dance-grpo', '--batches-per-epoch', '3'], /--sampler dance-grpo does not use --batches-per-epoch/],
    [['--sampler', 'dance-grpo', '--num-iterations', '2'], /--sampler dance-grpo does not use --num-iterations/],
    [['--steps-per-generation', '2'], /--sampler flow-grpo does not use --steps-per-generation/],
    [
      ['--sampler', 'contiguous', '--batch', '4', '--generation-batch-size', '8'],
      /--sampler contiguous does not use --generation-batch-size: only trl/,
    ],
    [
      ['--sampler', 'flow-grpo', '--ranks', '2', '--batch', '4', '--k', '2', '--dataset-size', '3'],
      /use dataset-size ≥ 4 \(flow_grpo does not check: randperm\(3\)\[:4\] returns only 3 prompts and the last ranks get short or empty batches\)$/m,
    ],
    [
      ['--sampler', 'trl', '--generation-batch-size', '128', '--steps-per-generation', '2'],
      /TRL 1\.13\.0 raises: ValueError: 'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time$/m,
    ],
  ];
  for (const [args, pattern] of cases) {
    const res = await runCli(['layout', ...args]);
    assert.equal(res.status, 2, args.join(' '));
    assert.equal(res.stdout, '', args.join(' '));
    assert.match(res.stderr, pattern, args.join(' '));
    assert.equal(res.stderr.trim().split('\n').length, 1, args.join(' '));
  }
});

test('dance-grpo: every pass repeats pass 0, and the text report says so in words', async () => {
  const args = ['layout', '--sampler', 'dance-grpo', '--ranks', '2', '--batch', '4', '--k', '2', '--dataset-size', '9', '--epochs', '3'];
  const out = JSON.parse((await runCli([...args, '--json'])).stdout);
  const pass = (e: number) => out.steps.filter((s: { epoch: number }) => s.epoch === e).map((s: { ranks: number[][] }) => s.ranks);
  assert.equal(out.steps.length, 6);
  assert.deepEqual(pass(1), pass(0));
  assert.deepEqual(pass(2), pass(0));
  const text = (await runCli(args)).stdout;
  assert.match(text, /every pass over the data repeats pass 0's order: the same prompts meet the same ranks in the same order/);
  assert.match(text, /pads the permutation from 9 to 10/);
});

test('trl --json gives optimizerSteps as the Trainer counts them; the text explains each factor (Node = Deno)', async () => {
  const args = [
    'layout',
    '--sampler',
    'trl',
    '--ranks',
    '2',
    '--batch',
    '3',
    '--k',
    '2',
    '--dataset-size',
    '20',
    '--gradient-accumulation-steps',
    '2',
    '--num-iterations',
    '2',
    '--epochs',
    '2',
  ];
  const res = await runCli([...args, '--json']);
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  // steps_per_generation defaults to gradient_accumulation_steps = 2: generation batch 12 = 6 prompts × 2,
  // floor(20 / 6) = 3 generation batches, × μ 2 × spg 2 = 12 micro-steps, ceil(12 / 2) = 6 optimizer steps per epoch.
  assert.equal(out.config.stepsPerGeneration, 2);
  assert.deepEqual(out.stats.counts.perEpoch, { generationBatches: 3, microSteps: 12, optimizerSteps: 6 });
  assert.deepEqual(out.stats.counts.total, { generationBatches: 6, microSteps: 24, optimizerSteps: 12 });
  assert.equal(out.stats.optimizerSteps, 12);
  const text = (await runCli(args)).stdout;
  assert.match(text, /per_device_train_batch_size=3 counts completions, not prompts/);
  assert.match(text, /optimizer steps +6 \/ 12/);
  const deno = runCliDeno([...args, '--json']);
  assert.equal(deno.status, 0, deno.stderr);
  assert.equal(deno.stdout, res.stdout);
});

test("verl refuses flow_grpo's loader flags and names its own knob; its settings line echoes none of them", async () => {
  for (const flag of ['--num-workers', '--prefetch-factor', '--accelerate-prepare']) {
    for (const command of ['layout', 'steps']) {
      const res = await runCli([
        command,
        '--sampler',
        'verl',
        '--ranks',
        '2',
        '--batch',
        '4',
        '--k',
        '2',
        '--dataset-size',
        '16',
        flag,
        '1',
      ]);
      assert.equal(res.status, 2, `${command} ${flag}`);
      assert.match(
        res.stderr,
        new RegExp(`--sampler verl does not use ${flag}: .*its own knob is --dataloader-num-workers`),
        `${command} ${flag}`,
      );
    }
  }
  const plain = await runCli(['layout', '--sampler', 'verl', '--ranks', '2', '--batch', '4', '--k', '2', '--dataset-size', '16']);
  assert.equal(plain.status, 0, plain.stderr);
  const settings = plain.stdout.split('\n').find((l) => l.startsWith('settings:'))!;
  assert.doesNotMatch(settings, /num-workers=1|prefetch-factor|accelerate-prepare/);
  assert.match(settings, /dataloader-num-workers=8/);
});
