// `grpo-sandbox layout --emit`: each framework's names, every value's origin, what cannot be expressed.
// (The TRL names are also checked against the real GRPOConfig by `npm run test:bridge`.)
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliDeno, runCliNode } from '../helpers/cli.ts';

const emit = (...args: string[]) => runCli(['layout', ...args]);

test('--emit trl: GRPOConfig kwargs with origins, the accelerate process count, the dataset size reported', async () => {
  const res = await emit('--sampler', 'trl', '--ranks', '4', '--batch', '3', '--k', '6', '--generation-batch-size', '24', '--emit', 'trl');
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /^# TRL 1\.13\.0 \(GRPOConfig\)/);
  assert.match(res.stdout, /^ {4}per_device_train_batch_size=3, {3}# --batch 3/m);
  assert.match(res.stdout, /^ {4}num_generations=6, {3}# --k 6/m);
  assert.match(res.stdout, /^ {4}steps_per_generation=2, {3}# --steps-per-generation 2/m);
  assert.match(res.stdout, /^ {4}shuffle_dataset=True,/m);
  assert.match(res.stdout, /^# launch: accelerate launch --num_processes 4 /m);
  assert.match(res.stdout, /^# {3}- --dataset-size \d+: TRL has no setting for it/m);
});

test('--emit flow-grpo: config.sample.* / config.train.* and the sampler seed to check', async () => {
  const res = await emit('--preset', 'seed-000', '--emit', 'flow-grpo');
  assert.equal(res.status, 0, res.stderr);
  for (const line of [
    'config.sample.train_batch_size = 2',
    'config.sample.num_image_per_prompt = 4',
    'config.sample.num_batches_per_epoch = 2',
    'config.train.num_inner_epochs = 1',
  ]) {
    assert.ok(res.stdout.includes(`\n${line}   # `), line);
  }
  assert.match(
    res.stdout,
    /^# check: The train_sd3\.py of those versions builds DistributedKRepeatSampler\(\.\.\., seed=42\), not config\.seed: set that argument to 42\.$/m,
  );
  // The loader lines the layout assumes, as train_sd3.py (ac4c86e) builds them.
  assert.match(
    res.stdout,
    /^DataLoader\(batch_sampler=train_sampler, num_workers=…\) = 1 {3}# --num-workers 1: as train_sd3\.py at ac4c86e builds it$/m,
  );
  assert.match(res.stdout, /^accelerator\.prepare\(\.\.\., train_dataloader, \.\.\.\) = True {3}# --accelerate-prepare 1: as /m);
  const ideal = await emit('--preset', 'seed-000', '--num-workers', '0', '--accelerate-prepare', '0', '--emit', 'flow-grpo');
  assert.match(ideal.stdout, /num_workers=…\) = 0 {3}# --num-workers 0: train_sd3\.py at ac4c86e has 1; edit the script to match$/m);
});

test('--emit verl: nested YAML keys, each section once; GRPO, the mini/micro batches and the KL loss stated; seed-000 uses another sampler', async () => {
  const res = await emit('--preset', 'seed-000', '--emit', 'verl');
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /^data:\n {2}train_batch_size: 4 {3}# ranks×batch\/k = 8×2\/4/m);
  assert.match(res.stdout, /^actor_rollout_ref:\n {2}rollout:\n {4}n: 4 /m);
  assert.match(res.stdout, /^algorithm:\n {2}adv_estimator: grpo {3}# /m);
  assert.match(res.stdout, /^ {4}ppo_mini_batch_size: 4 {3}# /m);
  assert.match(res.stdout, /^ {4}use_kl_loss: true {3}# /m);
  for (const section of ['data', 'algorithm', 'actor_rollout_ref', 'trainer'])
    assert.equal(res.stdout.match(new RegExp(`^${section}:$`, 'gm'))?.length, 1);
  assert.equal(res.stdout.match(/^ {2}rollout:$/gm)?.length, 1);
  assert.match(res.stdout, /not expressible in verl \(\d\):[\s\S]*--sampler flow-grpo: verl does not use that sampler/);
});

test("--emit verl = the configs verl's own validate_config and FSDPActorConfig accepted (golden-verl-config.json)", async () => {
  const golden = JSON.parse(readFileSync(new URL('../fixtures/golden-verl-config.json', import.meta.url), 'utf8')) as {
    source: { verl: string };
    cases: { args: string[]; values: unknown[]; result: string; withoutMiniBatch: string }[];
  };
  assert.equal(golden.source.verl, 'b178a3cd56f58b2d502255daba591e92833930a7');
  assert.ok(golden.cases.length >= 4);
  // Ulysses SP: n_gpus_per_node = ranks × S, which validate_config's n_gpus reads.
  assert.ok(golden.cases.filter((c) => c.args.includes('--ulysses-sequence-parallel-size')).length >= 2);
  for (const c of golden.cases) {
    assert.equal(c.result, 'ok', c.args.join(' '));
    // Without ppo_mini_batch_size, verl's default 256 is refused: the emitted value is needed (ActorConfig.validate checks it
    // only without use_dynamic_bsz).
    if (c.args.join(' ').includes('--use-dynamic-bsz true')) assert.equal(c.withoutMiniBatch, 'ok');
    else assert.match(c.withoutMiniBatch, /^ValueError: train_batch_size \(\d+\) must be >= actor\.ppo_mini_batch_size \(256\)$/);
    const res = await emit(...c.args, '--emit', 'verl', '--json');
    assert.equal(res.status, 0, res.stderr);
    assert.deepEqual(JSON.parse(res.stdout).values, c.values, c.args.join(' '));
  }
});

test('--emit dance-grpo: argparse flags in prompts, max_train_steps from passes; a batch DanceGRPO cannot take is reported', async () => {
  const ok = await emit(
    '--sampler',
    'dance-grpo',
    '--batch',
    '8',
    '--k',
    '4',
    '--dataset-size',
    '64',
    '--epochs',
    '2',
    '--emit',
    'dance-grpo',
  );
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(
    ok.stdout,
    /^--train_batch_size 2 --num_generations 4 --use_group --sampler_seed 42 --gradient_accumulation_steps 1 --max_train_steps 8$/m,
  );
  assert.match(ok.stdout, /^# launch: torchrun --nproc_per_node 8 /m);
  // store_true: given bare, with why (the shipped script passes it; without it no repeat and batch-wide normalisation).
  assert.match(ok.stdout, /^# --use_group {3}← the layout repeats each prompt k times .*finetune_flux_grpo\.sh passes it/m);
  const bad = await emit('--preset', 'seed-000', '--emit', 'dance-grpo');
  assert.equal(bad.status, 0);
  assert.match(bad.stdout, /these settings break dance-grpo's rule: batch=2 must be train_batch_size prompts × k=4/);
  assert.doesNotMatch(bad.stdout, /--max_train_steps/);
});

test('--emit with an unknown framework: exit 2, one line; --json gives the same data; Deno = Node', async () => {
  const res = await emit('--emit', 'deepspeed');
  assert.equal(res.status, 2);
  assert.equal(res.stdout, '');
  assert.match(res.stderr, /^grpo-sandbox layout: unknown --emit 'deepspeed'; choose one of flow-grpo, trl, dance-grpo, verl\n$/);
  const json = JSON.parse((await emit('--emit', 'verl', '--json')).stdout);
  assert.equal(json.target, 'verl');
  assert.ok(json.cannotExpress.length > 0);
  for (const args of [
    ['layout', '--emit', 'trl'],
    ['layout', '--emit', 'nope'],
  ])
    assert.deepEqual(runCliDeno(args), runCliNode(args));
});

test('--emit verl --ulysses-sequence-parallel-size 2: the key, n_gpus_per_node = ranks × S (ranks is the data-parallel size)', async () => {
  const args = ['--sampler', 'verl', '--ranks', '2', '--batch', '8', '--k', '4', '--dataset-size', '16'];
  const res = await emit(...args, '--ulysses-sequence-parallel-size', '2', '--emit', 'verl');
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /^ {4}ulysses_sequence_parallel_size: 2 {3}# /m);
  assert.match(res.stdout, /^ {2}n_gpus_per_node: 4 {3}# --ranks 2 × --ulysses-sequence-parallel-size 2: 2 data-parallel groups/m);
  const plain = await emit(...args, '--emit', 'verl');
  assert.doesNotMatch(plain.stdout, /ulysses/);
  assert.match(plain.stdout, /^ {2}n_gpus_per_node: 2 {3}# /m);
});
