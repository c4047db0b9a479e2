// `grpo-sandbox diff --sampler HOME` for the framework homes (src/core/frameworks/): each log is written here
// from the home's own `layout --sampler HOME --json` (steps[i].ranks[r], what the probe's log_step logs per step and
// data-parallel rank), faithfully and perturbed, for three homes whose dispatch differs: NeMo RL (contiguous shards
// of each global-batch chunk), slime (micro-batches round-robin over ranks), AReaL (whole groups to the emptiest rank).
// test/bridge/probe-homes.node.test.ts writes the same logs with the Python probe itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runCliDeno, runCliNode } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('grpo-diff-homes-');
let n = 0;
function logFile(text: string): string {
  const path = join(dir, `log${n++}.jsonl`);
  writeFileSync(path, text);
  return path;
}

/** Each home with small settings of two epochs and two data-parallel ranks (flags of `layout --sampler HOME`). */
const HOMES: Record<string, { title: string; commit: string; flags: string[]; other: string[] }> = {
  'nemo-rl': {
    title: 'NVIDIA NeMo RL',
    commit: '7ea279a',
    flags: ['--train-batch-size', '4', '--k', '2', '--ranks', '2', '--dataset-size', '16', '--epochs', '2', '--sequence-packing', 'false'],
    other: ['--seed', '7'],
  },
  slime: {
    title: 'THUDM slime',
    commit: '624b824',
    flags: ['--train-batch-size', '4', '--k', '2', '--ranks', '2', '--dataset-size', '16', '--epochs', '2', '--shuffle', 'true'],
    other: ['--seed', '7'],
  },
  areal: {
    title: 'inclusionAI AReaL',
    commit: '4aef98d',
    flags: ['--train-batch-size', '4', '--k', '2', '--ranks', '2', '--dataset-size', '16', '--epochs', '2'],
    // AReaL's seed does not reach the prompt order (its DistributedSampler is seeded 0): the run differs by its shuffle.
    other: ['--shuffle', 'false'],
  },
};

type Steps = number[][][];

/**
 * The steps with step 1 perturbed as a dispatch that places prompts differently would: rank 0's first id swapped with
 * the first id of rank 1 that differs from it (the same prompts in the step, on other ranks).
 */
function misplaced(steps: Steps): Steps {
  const step = steps[1]!.map((r) => [...r]);
  const j = step[1]!.findIndex((id) => id !== step[0]![0]);
  assert.ok(j >= 0, 'step 1 has another prompt on rank 1');
  [step[0]![0], step[1]![j]] = [step[1]![j]!, step[0]![0]!];
  return steps.map((ranks, s) => (s === 1 ? step : ranks));
}

async function homeSteps(home: string, flags: string[]): Promise<Steps> {
  const res = await runCli(['layout', '--sampler', home, ...flags, '--json']);
  assert.equal(res.status, 0, res.stderr);
  return (JSON.parse(res.stdout).steps as { ranks: number[][] }[]).map((s) => s.ranks);
}

/** A log as log_step writes it: each rank's header (on its first call), then one record per (step, rank). */
function logOf(framework: string, version: string, steps: Steps, settings: Record<string, unknown> = {}): string {
  const lines: string[] = [];
  steps.forEach((ranks, step) =>
    ranks.forEach((ids, rank) => {
      if (step === 0)
        lines.push(
          JSON.stringify({ probe: 'grpo-sandbox', probe_version: 1, framework, framework_version: version, rank, settings, read: {} }),
        );
      lines.push(JSON.stringify({ step, rank, ids }));
    }),
  );
  return `${lines.join('\n')}\n`;
}

const ids = (a: number[]) => `[${a.join(', ')}]`;

for (const [home, { title, commit, flags, other: otherFlags }] of Object.entries(HOMES)) {
  test(`${home}: its own layout logged is identical; exit 0, one line, no note`, async () => {
    const steps = await homeSteps(home, flags);
    assert.ok(steps.length >= 4, `${steps.length} steps`);
    const log = logFile(logOf(home, commit, steps));
    const res = await runCli(['diff', '--log', log, '--sampler', home, ...flags]);
    assert.equal(res.status, 0, res.stderr + res.stdout);
    assert.equal(res.stderr, '');
    assert.equal(
      res.stdout,
      `identical: every logged step matches the sandbox's layout (${steps.length} step(s) × 2 rank(s), --sampler ${home}, ${title} @ ${commit})\n`,
    );
    // A log of the run's first steps only (a run stopped early) is identical too.
    assert.equal((await runCli(['diff', '--log', logFile(logOf(home, commit, steps.slice(0, 2))), '--sampler', home, ...flags])).status, 0);
  });

  test(`${home}: two samples of step 1 on other ranks — the first divergence is step 1, rank 0, and the cause is the dispatch`, async () => {
    const steps = await homeSteps(home, flags);
    const swapped = misplaced(steps);
    const res = await runCli(['diff', '--log', logFile(logOf(home, commit, swapped)), '--sampler', home, ...flags]);
    assert.equal(res.status, 1, res.stderr);
    const [verdict, diagnosis, ...rest] = res.stdout.trimEnd().split('\n');
    assert.equal(rest.length, 0, res.stdout);
    assert.equal(
      verdict,
      `diverged at step 1 (epoch 0, step 1), rank 0: expected ${ids(steps[1]![0]!)}, found ${ids(swapped[1]![0]!)} ` +
        `(${steps.length - 1} of ${steps.length} steps match; ${steps.length} step(s) × 2 rank(s), --sampler ${home}, ${title} @ ${commit})`,
    );
    assert.equal(
      diagnosis,
      `diagnosis: every step has the expected prompts, placed differently across ranks or slots: a different dispatch to the ` +
        `data-parallel ranks than ${title} ${commit}'s (rank order, chunking, balancing), or other token counts (--seqlens) where its dispatch balances them`,
    );
  });

  test(`${home}: a run of another ${otherFlags[0]} — no step matches; --json names the first divergence`, async () => {
    const other = await homeSteps(home, [...flags, ...otherFlags]);
    const steps = await homeSteps(home, flags);
    assert.notDeepEqual(other[0], steps[0]);
    const log = logFile(logOf(home, commit, other));
    const res = await runCli(['diff', '--log', log, '--sampler', home, ...flags]);
    assert.equal(res.status, 1);
    assert.match(res.stdout, /^diagnosis: no step matches/m);
    const json = JSON.parse((await runCli(['diff', '--log', log, '--sampler', home, ...flags, '--json'])).stdout);
    assert.equal(json.identical, false);
    assert.equal(json.sampler, home);
    assert.equal(json.matchingSteps, 0);
    assert.equal(json.first.step, 0);
    assert.deepEqual(json.first.expected, steps[0]![json.first.rank]);
    assert.deepEqual(json.first.found, other[0]![json.first.rank]);
    assert.deepEqual(json.framework, { name: home, version: commit, modelled: json.framework.modelled });
    assert.match(json.framework.modelled, new RegExp(`@ ${commit} \\(`));
    // With the run's setting the prediction is the run's.
    assert.equal((await runCli(['diff', '--log', log, '--sampler', home, ...flags, ...otherFlags])).status, 0);
  });
}

test("nemo-rl: a run that replays epoch 0's order in epoch 1 — the epoch diagnosis", async () => {
  const { flags, commit } = HOMES['nemo-rl']!;
  const steps = await homeSteps('nemo-rl', flags);
  const perEpoch = steps.length / 2;
  const replayed = steps.map((ranks, s) => (s >= perEpoch ? steps[s - perEpoch]! : ranks));
  const res = await runCli(['diff', '--log', logFile(logOf('nemo-rl', commit, replayed)), '--sampler', 'nemo-rl', ...flags]);
  assert.equal(res.status, 1);
  assert.match(res.stdout, new RegExp(`^diverged at step ${perEpoch} \\(epoch 1, step 0\\), rank 0: `, 'm'));
  assert.match(
    res.stdout,
    /^diagnosis: every epoch repeats epoch 0's batches: each epoch replays epoch 0's order, where NVIDIA NeMo RL 7ea279a/m,
  );
});

test('the log names its framework: no --sampler needed (any case, _ for -); --config is read as layout reads it', async () => {
  const { flags } = HOMES['nemo-rl']!;
  const steps = await homeSteps('nemo-rl', flags);
  const log = logFile(logOf('NeMo_RL', '7ea279abfbeb698b092856d0dab61e7cf39bc909', steps));
  const res = await runCli(['diff', '--log', log, ...flags]);
  assert.equal(res.status, 0, res.stderr + res.stdout);
  assert.match(res.stdout, /^identical: .*--sampler nemo-rl, NVIDIA NeMo RL @ 7ea279a\)\n$/);
  // The same settings as the framework's own config file, written by --emit and read back by --config.
  const emitted = await runCli(['layout', '--sampler', 'nemo-rl', ...flags, '--emit', 'nemo-rl']);
  assert.equal(emitted.status, 0, emitted.stderr);
  const config = join(dir, 'run.yaml');
  writeFileSync(config, emitted.stdout);
  // The dataset's size is the sandbox's own setting (no NeMo RL key): --emit names it in a comment, the flag gives it.
  const viaConfig = await runCli(['diff', '--log', log, '--sampler', 'nemo-rl', '--config', config, '--dataset-size', '16']);
  assert.equal(viaConfig.status, 0, viaConfig.stderr + viaConfig.stdout);
  assert.match(viaConfig.stdout, new RegExp(`--sampler nemo-rl --config ${config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, NVIDIA NeMo RL`));
  // Without the config the shipped defaults predict another layout.
  assert.equal((await runCli(['diff', '--log', log, '--sampler', 'nemo-rl'])).status, 1);
});

test('notes: a logged setting that differs, another framework, a version other than the pinned commit; the verdict is unchanged', async () => {
  const { flags } = HOMES.slime!;
  const steps = await homeSteps('slime', flags);
  const settings = { 'rollout-batch-size': 8, 'n-samples-per-prompt': 2 };
  const res = await runCli(['diff', '--log', logFile(logOf('slime', 'v0.2.1', steps, settings)), '--sampler', 'slime', ...flags]);
  assert.equal(res.status, 0, res.stderr);
  assert.deepEqual(res.stdout.trimEnd().split('\n').slice(0, -1), [
    'note: train-batch-size (rollout-batch-size): the run read 8, the prediction uses 4',
    'note: framework_version: the run logged slime "v0.2.1"; the sandbox\'s slime home models THUDM/slime @ 624b824 (2026-08-21), ' +
      'and another version may lay data out differently',
  ]);
  const unlogged = await runCli(['diff', '--log', logFile(logOf('slime', 'unknown', steps)), '--sampler', 'slime', ...flags]);
  assert.match(
    unlogged.stdout,
    /^note: framework_version: the run did not log which THUDM slime commit it ran \(pass version= to the probe\);/,
  );
  const other = await runCli(['diff', '--log', logFile(logOf('areal', '4aef98d', steps)), '--sampler', 'slime', ...flags]);
  assert.match(other.stdout, /^note: framework: the run logged "areal", the prediction is THUDM slime's \(--sampler slime\)$/m);
});

const nemoHeader = (settings: unknown) =>
  JSON.stringify({ probe: 'grpo-sandbox', probe_version: 1, framework: 'nemo-rl', framework_version: '7ea279a', rank: 0, settings });
const badCases: [string, string, string[], RegExp][] = [
  [
    'a setting the home does not have',
    `${nemoHeader({ nope: 1 })}\n{"step":0,"rank":0,"ids":[1]}\n`,
    [],
    /^grpo-sandbox diff: log line 1: field 'settings\.nope' is not one of NVIDIA NeMo RL's keys the sandbox reads/,
  ],
  [
    'a setting of the wrong kind',
    `${nemoHeader({ 'grpo.num_prompts_per_step': 'many' })}\n{"step":0,"rank":0,"ids":[1]}\n`,
    [],
    /^grpo-sandbox diff: log line 1: field 'settings\.grpo\.num_prompts_per_step' must be a whole number, got "many"/,
  ],
  [
    'more steps than the settings give',
    `${nemoHeader({})}\n${Array.from({ length: 9 }, (_, s) => `{"step":${s},"rank":0,"ids":[1]}`).join('\n')}\n`,
    HOMES['nemo-rl']!.flags,
    /^grpo-sandbox diff: the log has 9 steps \(0 … 8\) but NVIDIA NeMo RL with these settings trains 8: give the run's own config/,
  ],
  [
    'a rank missing at a step',
    `${nemoHeader({})}\n{"step":0,"rank":0,"ids":[1]}\n{"step":0,"rank":1,"ids":[1]}\n{"step":1,"rank":0,"ids":[1]}\n`,
    HOMES['nemo-rl']!.flags,
    /^grpo-sandbox diff: the log has no record for step 1, rank 1/,
  ],
  [
    'a bad flag value',
    `${nemoHeader({})}\n{"step":0,"rank":0,"ids":[1]}\n`,
    ['--k', 'two'],
    /^grpo-sandbox diff: --k must be a whole number/,
  ],
  ['--emit', `${nemoHeader({})}\n{"step":0,"rank":0,"ids":[1]}\n`, ['--emit', 'nemo-rl'], /^grpo-sandbox diff: diff takes no --emit/],
];
for (const [what, text, flags, message] of badCases) {
  test(`a home diff with ${what}: exit 2, one line on stderr, nothing on stdout`, async () => {
    const res = await runCli(['diff', '--log', logFile(text), '--sampler', 'nemo-rl', ...flags]);
    assert.equal(res.status, 2, res.stdout + res.stderr);
    assert.equal(res.stdout, '');
    assert.equal(res.stderr.split('\n').length, 2, res.stderr);
    assert.match(res.stderr, message);
  });
}

test('--sampler HOME without --log: exit 2 with one line; --help lists the home', async () => {
  const res = await runCli(['diff', '--sampler', 'areal']);
  assert.equal(res.status, 2);
  assert.equal(res.stderr, 'grpo-sandbox diff: --log FILE is required: the JSON Lines log probe/grpo_sandbox_probe.py wrote\n');
  const help = await runCli(['diff', '--sampler', 'areal', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: grpo-sandbox diff --log run\.jsonl --sampler areal /);
  const generic = (await runCli(['diff', '--help'])).stdout.replace(/\s+/g, ' ');
  assert.match(generic, /--sampler HOME a run of nemo-rl, easyr1, skyrl, slime, areal, roll, openrlhf, open-instruct, prime-rl: /);
});

test('Deno prints what Node prints for a home diff (a divergence and a bad log)', async () => {
  const { flags, commit } = HOMES.areal!;
  const steps = await homeSteps('areal', flags);
  const log = logFile(logOf('areal', commit, misplaced(steps)));
  for (const args of [
    ['diff', '--log', log, ...flags],
    ['diff', '--log', logFile(`${nemoHeader({ nope: 1 })}\n`), '--sampler', 'nemo-rl'],
  ]) {
    const node = runCliNode(args);
    assert.ok(node.status === 1 || node.status === 2, node.stderr);
    assert.deepEqual(runCliDeno(args), node);
  }
});
