// `grpo-sandbox diff` without Python: the logs under test/fixtures/bridge were written by the probe
// in real `torchrun --nproc_per_node 2` runs of test/bridge/run_all.py (made afresh with
// `.venv/bin/python -m torch.distributed.run --standalone --nproc_per_node 2 test/bridge/run_all.py --out test/fixtures/bridge`
// after deleting the old ones: the probe appends), so these check the diagnoses against golden data, plus every bad-log error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runCliDeno, runCliNode } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const fixture = (name: string) => `test/fixtures/bridge/${name}.jsonl`;
const dir = tempDir('grpo-diff-');
let n = 0;
/** Writes `text` to a fresh file and returns its path. */
function logFile(text: string): string {
  const path = join(dir, `log${n++}.jsonl`);
  writeFileSync(path, text);
  return path;
}
// A real log (the idealised loop: 6 steps, no batch drawn ahead), its lines in a fixed order (the ranks' appends
// interleave at random): both headers, then step-major records.
const goodLines = readFileSync(fixture('flow-grpo-idealised'), 'utf8')
  .trimEnd()
  .split('\n')
  .map((l) => JSON.parse(l))
  .sort((a, b) => ('probe' in b ? 1 : 0) - ('probe' in a ? 1 : 0) || (a.step ?? 0) - (b.step ?? 0) || a.rank - b.rank)
  .map((o) => JSON.stringify(o));
const good = `${goodLines.join('\n')}\n`;

test('the real identical runs of all three frameworks: exit 0, identical; only the flow_grpo run (no version logged) gets a version note', async () => {
  const versionNotes: Record<string, RegExp | null> = {
    'trl-identical': null, // TRL 1.13.0, read by the probe: the version the sandbox models
    'dance-grpo-identical': null, // version="22b85ef": the commit the sandbox models
    'flow-grpo-identical': new RegExp(
      '^note: framework_version: the run did not log which flow_grpo commit it ran \\(pass version= to the probe\\); ' +
        "the sandbox's flow-grpo sampler models flow_grpo \\(DistributedKRepeatSampler before commit 74db691\\)$",
    ),
  };
  for (const [name, note] of Object.entries(versionNotes)) {
    const res = await runCli(['diff', '--log', fixture(name)]);
    assert.equal(res.status, 0, res.stderr);
    assert.equal(res.stderr, '');
    const lines = res.stdout.trimEnd().split('\n');
    assert.match(
      lines.at(-1)!,
      /^identical: every logged step matches the sandbox's layout \(\d+ step\(s\) × 2 rank\(s\), --sampler/,
      name,
    );
    assert.equal(lines.length, note ? 2 : 1, res.stdout);
    if (note) assert.match(lines[0]!, note);
  }
});

test("verl: logs of verl's fit-loop skeleton (the real StatefulDataLoader, _balance_batch exec'd from b178a3c) are identical", async () => {
  for (const name of ['verl-identical', 'verl-unbalanced']) {
    const res = await runCli(['diff', '--log', fixture(name)]);
    assert.equal(res.status, 0, res.stderr);
    assert.match(
      res.stdout,
      /^identical: every logged step matches the sandbox's layout \(\d+ step\(s\) × 4 rank\(s\), --sampler verl/m,
      name,
    );
    assert.equal(res.stdout.trimEnd().split('\n').length, 1, res.stdout);
  }
  // Predicted without balancing or without dataloader workers, the same run no longer matches; the setting is named.
  const unbalanced = await runCli(['diff', '--log', fixture('verl-identical'), '--balance-batch', 'false']);
  assert.match(unbalanced.stdout, /^note: balanceBatch: the run read true, the prediction uses false$/m);
  assert.doesNotMatch(unbalanced.stdout, /^identical/m);
  const noWorkers = await runCli(['diff', '--log', fixture('verl-identical'), '--dataloader-num-workers', '0']);
  assert.match(noWorkers.stdout, /^note: dataloaderNumWorkers: the run read 2, the prediction uses 0$/m);
  assert.match(noWorkers.stdout, /^diverged at step 0 /m);
});

// flow-grpo-*.jsonl: 2 ranks × 3 per rank, k 2, 3 batches per epoch, 20 prompts; seed-000 is 8 × 2, k 4, 2 per epoch, 32 prompts.
const asFlowRun = ['--ranks', '2', '--batch', '3', '--k', '2', '--batches-per-epoch', '3', '--dataset-size', '20'];

test('--preset: the run against the sandbox settings the user chose; a wrong seed is a note and "no step matches: a different seed"', async () => {
  const res = await runCli(['diff', '--log', fixture('flow-grpo-wrong-seed'), '--preset', 'seed-000', ...asFlowRun]);
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stdout, /^note: seed: the run read 43, the prediction uses 42$/m);
  assert.equal(res.stdout.match(/^note: /gm)?.length, 2, res.stdout); // the seed, and flow_grpo's version
  assert.match(res.stdout, /^diverged at step 0 \(epoch 0, step 0\), rank 0: .*preset seed-000, --sampler flow-grpo --seed 42\)$/m);
  assert.match(res.stdout, /^diagnosis: no step matches: a different seed/m);
  // The same log diffed against its own logged settings is identical: the preset is what catches the seed.
  assert.equal((await runCli(['diff', '--log', fixture('flow-grpo-wrong-seed')])).status, 0);
  // Flags override the preset, as in `layout`: with --seed 43 the prediction is the run's.
  const seed43 = await runCli(['diff', '--log', fixture('flow-grpo-wrong-seed'), '--preset', 'seed-000', ...asFlowRun, '--seed', '43']);
  assert.equal(seed43.status, 0, seed43.stdout);
  assert.match(seed43.stdout, /^identical: .*preset seed-000, --sampler flow-grpo --seed 43\)$/m);
  assert.doesNotMatch(seed43.stdout, /^note: seed/m);
});

test('--preset for TRL: the preset with the flags, steps_per_generation derived as layout derives it', async () => {
  const flags = ['--preset', 'seed-002', '--ranks', '2', '--batch', '3', '--dataset-size', '17', '--gradient-accumulation-steps', '2'];
  const ok = await runCli(['diff', '--log', fixture('trl-identical'), ...flags, '--num-iterations', '2']);
  assert.equal(ok.status, 0, ok.stdout);
  assert.equal(
    ok.stdout,
    "identical: every logged step matches the sandbox's layout (10 step(s) × 2 rank(s), preset seed-002, --sampler trl --seed 42)\n",
  );
  const wrong = await runCli(['diff', '--log', fixture('trl-wrong-seed'), ...flags, '--num-iterations', '2']);
  assert.equal(wrong.status, 1);
  assert.match(
    wrong.stdout,
    /^note: seed: the run read 43, the prediction uses 42\ndiverged at step 0 .*\ndiagnosis: no step matches: a different seed/,
  );
  // Leaving --num-iterations at the preset's 1: a note; the generation batches (what the probe logs) are the same,
  // since TRL repeats each one num_iterations times without drawing again.
  const iters = await runCli(['diff', '--log', fixture('trl-identical'), ...flags]);
  assert.equal(iters.status, 0);
  assert.match(iters.stdout, /^note: numIterations: the run read 2, the prediction uses 1\nidentical: /);
});

test('--preset alone on a run of other settings: every differing setting a note, the steps reported as shaped differently (--json)', async () => {
  const res = await runCli(['diff', '--log', fixture('flow-grpo-identical'), '--preset', 'seed-000']);
  assert.equal(res.status, 1);
  for (const note of [
    'ranks: the run read 2, the prediction uses 8',
    'batch: the run read 3, the prediction uses 2',
    'k: the run read 2, the prediction uses 4',
    'batchesPerEpoch: the run read 3, the prediction uses 2',
    'datasetSize: the run read 20, the prediction uses 32',
  ])
    assert.ok(res.stdout.includes(`\nnote: ${note}\n`) || res.stdout.startsWith(`note: ${note}\n`), note);
  assert.doesNotMatch(res.stdout, /^note: seed/m);
  const shape = '(step 0: 2 rank(s) × 3/3 id(s) found, 8 rank(s) × 2/2/2/2/2/2/2/2 id(s) expected)';
  assert.ok(res.stdout.includes(`\ndiagnosis: the run's steps are shaped differently from the prediction's ${shape}: `), res.stdout);
  const json = JSON.parse((await runCli(['diff', '--log', fixture('flow-grpo-identical'), '--preset', 'seed-000', '--json'])).stdout);
  assert.equal(json.preset, 'seed-000');
  assert.equal(json.config.ranks, 8);
  assert.equal(json.ranks, 2);
  assert.equal(json.settingsDiffer.length, 5);
  assert.deepEqual(json.notes, [...json.settingsDiffer, json.versionNote]);
  assert.deepEqual(json.framework, {
    name: 'flow_grpo',
    version: 'unknown',
    modelled: 'flow_grpo (DistributedKRepeatSampler before commit 74db691)',
  });
  assert.equal(json.first.rank, 0);
  assert.equal(JSON.parse((await runCli(['diff', '--log', fixture('trl-identical'), '--json'])).stdout).preset, null);
});

test('--preset errors are the layout ones: unknown (own properties only), a flag the sampler does not read; exit 2, one line', async () => {
  for (const [args, message] of [
    [['--preset', '__proto__'], /^grpo-sandbox diff: unknown preset '__proto__'; presets: seed-000, /],
    [['--preset', 'toString'], /^grpo-sandbox diff: unknown preset 'toString'/],
    [
      ['--preset', 'seed-000', '--steps-per-generation', '2'],
      /^grpo-sandbox diff: --sampler flow-grpo does not use --steps-per-generation/,
    ],
    [['--preset', 'seed-000', '--k', '3'], /^grpo-sandbox diff: k=3 must divide ranks×batch=16/],
    [['--generation-batch-size', '8'], /^grpo-sandbox diff: --generation-batch-size needs --preset/],
  ] as [string[], RegExp][]) {
    const res = await runCli(['diff', '--log', fixture('flow-grpo-identical'), ...args]);
    assert.equal(res.status, 2, args.join(' '));
    assert.equal(res.stdout, '');
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split('\n').length, 1);
  }
  assert.match((await runCli(['diff', '--help'])).stdout, /^ {2}--preset NAME {14}predict with the sandbox settings you chose/m);
});

test('framework_version: a note when it is not the version the sandbox models; the verdict is unchanged', async () => {
  const withVersion = (name: string, version: string) =>
    logFile(readFileSync(fixture(name), 'utf8').replace(/"framework_version":"[^"]*"/g, `"framework_version":${JSON.stringify(version)}`));
  const cases: [string, string, RegExp | null][] = [
    ['trl-identical', '0.19.0', /^note: framework_version: the run logged trl "0\.19\.0"; the sandbox's trl sampler models TRL 1\.13\.0$/],
    ['trl-identical', 'unknown', /^note: framework_version: the run did not log TRL's version \(pass version= to the probe\)/],
    ['dance-grpo-identical', '22b85ef0123456789abcdef0123456789abcdef0', null], // the full hash of the modelled commit
    ['dance-grpo-identical', 'DanceGRPO 22B85EF', null],
    [
      'dance-grpo-identical',
      'a1b2c3d',
      /^note: framework_version: the run logged DanceGRPO "a1b2c3d"; the sandbox's dance-grpo sampler models DanceGRPO 22b85ef$/,
    ],
    [
      'flow-grpo-identical',
      '74db691',
      /^note: framework_version: .*"74db691".*has the rewritten lcm sampler .*diff with --sampler flow-grpo-lcm$/,
    ],
    [
      'flow-grpo-identical',
      '0123abc',
      /^note: framework_version: the run logged flow_grpo "0123abc"; .*: check that this checkout's scripts\/train_sd3\.py/,
    ],
  ];
  for (const [name, version, note] of cases) {
    const res = await runCli(['diff', '--log', withVersion(name, version)]);
    assert.equal(res.status, 0, `${name} ${version}: ${res.stderr}`);
    if (note) assert.match(res.stdout.split('\n')[0]!, note, version);
    else assert.doesNotMatch(res.stdout, /^note:/m, version);
    const json = JSON.parse((await runCli(['diff', '--log', withVersion(name, version), '--json'])).stdout);
    assert.equal(json.framework.version, version);
    assert.equal('versionNote' in json, note !== null, version);
  }
});

test('the seeded divergences: exit 1, first divergence and the diagnosis of each', async () => {
  const expect: [string, string[], RegExp][] = [
    ['trl-wrong-seed', ['--seed', '42'], /no step matches: a different seed/],
    ['dance-grpo-wrong-seed', ['--seed', '42'], /no step matches: a different seed/],
    ['flow-grpo-wrong-seed', ['--seed', '42'], /no step matches: a different seed/],
    // The probe logged these runs' loaders; flags replace them with another loader to show the diagnosis.
    ['flow-grpo-prefetch', ['--accelerate-prepare', '1'], /found step s holds expected step s\+1: the run's loader drew 1 fewer/],
    ['flow-grpo-idealised', ['--num-workers', '1', '--accelerate-prepare', '1'], /found step s holds expected step s\+3/],
    ['flow-grpo-identical', ['--num-workers', '0', '--accelerate-prepare', '0'], /found step s holds expected step s−3 .*3 more/],
    // Logged without its loader: predicted with the published one, whose steps 0–3 hold set_epoch(0)'s batch anyway.
    ['flow-grpo-no-set-epoch', [], /every step from 4 on repeats step 3's batch/],
    ['flow-grpo-no-set-epoch', ['--num-workers', '0', '--accelerate-prepare', '0'], /every step from 1 on repeats step 0's batch/],
  ];
  for (const [name, flags, diagnosis] of expect) {
    const res = await runCli(['diff', '--log', fixture(name), ...flags]);
    assert.equal(res.status, 1, `${name}: ${res.stderr}`);
    assert.match(res.stdout, /^diverged at step \d+ \(epoch \d+, step \d+\), rank \d: expected \[[\d, ]+\], found \[[\d, ]+\]/m);
    assert.match(res.stdout, new RegExp(`^diagnosis: ${diagnosis.source}`, 'm'), name);
  }
});

test('without the --seed override the wrong-seed run is identical to its own logged settings', async () => {
  assert.equal((await runCli(['diff', '--log', fixture('trl-wrong-seed')])).status, 0);
});

test('the first divergence is exact: step 4, rank 0 of the missing-set_epoch run under the published loader (--json)', async () => {
  const res = await runCli(['diff', '--log', fixture('flow-grpo-no-set-epoch'), '--json']);
  assert.equal(res.status, 1);
  const out = JSON.parse(res.stdout);
  assert.equal(out.identical, false);
  assert.equal(out.matchingSteps, 4);
  assert.deepEqual(out.first, { step: 4, epoch: 1, stepInEpoch: 1, rank: 0, expected: [16, 13, 8], found: [18, 18, 14] });
  assert.equal(out.config.numWorkers, 1);
  assert.equal(out.config.acceleratePrepare, 1);
});

test('ranks swapped: same prompts per step, placed differently', async () => {
  const swapped = goodLines.map((l) => {
    const o = JSON.parse(l);
    if ('rank' in o && 'ids' in o) o.rank = 1 - o.rank;
    return JSON.stringify(o);
  });
  const res = await runCli(['diff', '--log', logFile(`${swapped.join('\n')}\n`)]);
  assert.equal(res.status, 1);
  assert.match(res.stdout, /^diagnosis: every step has the expected prompts, placed differently/m);
});

const badCases: [string, string, RegExp][] = [
  ['truncated last line', `${good.trimEnd().slice(0, -5)}`, /^grpo-sandbox diff: log line 14: not complete JSON: the log is truncated/],
  [
    'a garbage last line',
    `${good}hello world`,
    /^grpo-sandbox diff: log line 15: not JSON \(it reads "hello world"\): the probe writes one JSON/,
  ],
  [
    'a garbage last line, newline-ended',
    `${good}Traceback (most recent call last):\n`,
    /^grpo-sandbox diff: log line 15: not JSON \(it reads "Traceback/,
  ],
  ['JSON with a stray bracket last', `${good}{"step":7,"rank":0,"ids":[1]]}`, /^grpo-sandbox diff: log line 15: not JSON /],
  [
    'a line cut off, then more lines',
    `${goodLines.slice(0, 3).join('\n')}\n{"step":1,"rank":0,"id\n${goodLines.slice(3).join('\n')}\n`,
    /^grpo-sandbox diff: log line 4: not complete JSON \(it reads "\{\\"step\\":1,\\"rank\\":0,\\"id"\), and lines follow it/,
  ],
  [
    'unknown probe version',
    good.replace('"probe_version":1', '"probe_version":7'),
    /^grpo-sandbox diff: log line 1: field 'probe_version' = 7 is unknown/,
  ],
  ['missing ids', good.replace(/"ids":\[[^\]]*\]/, '"idz":[]'), /^grpo-sandbox diff: log line 3: field 'ids' is missing/],
  [
    'negative id',
    good.replace(/"ids":\[(\d+)/, '"ids":[-1'),
    /^grpo-sandbox diff: log line 3: field 'ids\[0\]' = -1 must be an integer ≥ 0/,
  ],
  ['no header', `${goodLines.slice(2).join('\n')}\n`, /^grpo-sandbox diff: the log has no header line/],
  ['duplicate record', `${good}${goodLines[2]}\n`, /^grpo-sandbox diff: log line 15: step 0, rank 0 is logged twice \(also line 3\)/],
  ['a rank missing at a step', `${goodLines.filter((_, i) => i !== 2).join('\n')}\n`, /no record for step 0, rank 0/],
  [
    'unknown setting',
    good.replace('"seed":42,', '"sede":42,'),
    /^grpo-sandbox diff: log line 1: field 'settings.sede' is not a sandbox setting/,
  ],
  [
    'headers disagree on a setting',
    good.replace(/("rank":1,"settings":\{[^}]*"seed":)42/, '$143'),
    /^grpo-sandbox diff: log line 2: field 'settings\.seed' = 43 differs from line 1's 42: two runs appended to one log\?\n$/,
  ],
  [
    'headers disagree on the framework only',
    `${goodLines[0]}\n${goodLines[1]!.replace('"framework":"flow_grpo"', '"framework":"DanceGRPO"')}\n${goodLines.slice(2).join('\n')}\n`,
    /^grpo-sandbox diff: log line 2: field 'framework' = "DanceGRPO" differs from line 1's "flow_grpo"/,
  ],
  [
    'headers disagree on the framework version',
    `${goodLines[0]}\n${goodLines[1]!.replace('"framework_version":"unknown"', '"framework_version":"abc1234"')}\n${goodLines.slice(2).join('\n')}\n`,
    /^grpo-sandbox diff: log line 2: field 'framework_version' = "abc1234" differs from line 1's "unknown"/,
  ],
  [
    'a header without a setting the other has',
    `${goodLines[0]}\n${goodLines[1]!.replace('"k":2,', '')}\n${goodLines.slice(2).join('\n')}\n`,
    /^grpo-sandbox diff: log line 2: field 'settings\.k' is absent, but line 1 has 2/,
  ],
];

for (const [what, text, message] of badCases) {
  test(`a bad log (${what}): exit 2, one line on stderr naming it, nothing on stdout`, async () => {
    const res = await runCli(['diff', '--log', logFile(text)]);
    assert.equal(res.status, 2, res.stdout);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split('\n').length, 1);
  });
}

test('no --log, a missing file: exit 2 with one line', async () => {
  assert.match((await runCli(['diff'])).stderr, /^grpo-sandbox diff: --log FILE is required/);
  const res = await runCli(['diff', '--log', join(dir, 'nope.jsonl')]);
  assert.equal(res.status, 2);
  assert.match(res.stderr, /cannot read it \(ENOENT\)/);
});

test('Deno prints what Node prints (a diagnosis and a bad log)', () => {
  for (const args of [
    ['diff', '--log', fixture('flow-grpo-prefetch')],
    ['diff', '--log', logFile('{"step":0}\n')],
  ]) {
    assert.deepEqual(runCliDeno(args), runCliNode(args));
  }
});
