// `grpo-sandbox dynamic --sweep`'s budget and progress: a sweep is estimated from its flags and
// refused in one line when over budget, before any work; a long sweep reports plain progress
// lines on stderr when stderr is not a terminal (a log, a pipe, CI).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LONG_SWEEP_MS, PROGRESS_EVERY_MS, sweepProgress } from '../../src/cli/dynamic-sweep.ts';
import { BUDGET } from '../../src/core/budget.ts';
import { DEFAULT_CONFIG, estimateSweep, POLICIES } from '../../src/core/dynamic/index.ts';
import { runCli } from '../helpers/cli.ts';

const DEFAULT_PS = [0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5];

test('dynamic --sweep over budget: refused in one line before any work (exit 2), for time and for memory', async () => {
  for (const [args, message] of [
    [
      ['--trials', '100000', '--runs', '10000', '--budget', '10000'],
      new RegExp(
        '^grpo-sandbox dynamic: the sweep \\(63 policy × p cells, 100000 steps and 10000 training runs of 10000 batches each\\) ' +
          'would need about \\d+ s \\(budget 30\\.0 s\\); lower --trials, --runs, --budget',
      ),
    ],
    [
      ['--ranks', '256', '--per-rank', '4096', '--trials', '1', '--runs', '0', '--ps', '0.5'],
      /would need about [\d.]+ GB of memory \(budget 2\.00 GB\)/,
    ],
  ] as const) {
    const started = performance.now();
    const res = await runCli(['dynamic', '--sweep', ...args]);
    assert.equal(res.status, 2, `${args.join(' ')}: ${res.stdout}${res.stderr}`);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
    assert.ok(performance.now() - started < 20_000, 'refused before running');
  }
});

test('the sweep estimate: the default run fits the budget, work grows with every flag', () => {
  const settings = {
    base: DEFAULT_CONFIG,
    policies: [...POLICIES],
    ps: DEFAULT_PS,
    trials: 100,
    runs: 8,
    budgetBatches: 20,
    lr: 0.5,
  };
  const base = estimateSweep(settings);
  assert.ok(base.ms < BUDGET.ms && base.bytes < BUDGET.bytes, JSON.stringify(base));
  // Every training run spends its budget: runs × cells × budget × (W·L) generations at least.
  assert.ok(base.generations >= 63 * 8 * 20 * 64);
  for (const more of [{ trials: 1000 }, { runs: 80 }, { budgetBatches: 200 }, { ps: [...DEFAULT_PS, 0.01] }]) {
    assert.ok(estimateSweep({ ...settings, ...more }).ms > base.ms, JSON.stringify(more));
  }
  assert.ok(estimateSweep({ ...settings, base: { ...DEFAULT_CONFIG, ranks: 16 } }).ms > base.ms);
});

test('progress on stderr: plain lines every few seconds when not a terminal and the sweep is long; nothing for short ones', () => {
  let now = 0;
  const lines: string[] = [];
  const long = sweepProgress(
    (t) => lines.push(t),
    false,
    LONG_SWEEP_MS,
    () => now,
  );
  assert.deepEqual(lines, ['sweep: estimated at most 5.0 s; progress every 5.0 s\n']);
  for (let units = 1; units <= 100; units++) {
    now = units * 200; // 20 s in all
    long.update({ cells: Math.floor(units / 10), totalCells: 10, units, totalUnits: 100 });
  }
  long.end();
  assert.deepEqual(lines.slice(1), [
    'sweep: 25% (2/10 policy × p cells done) in 5.0 s\n',
    'sweep: 50% (5/10 policy × p cells done) in 10.0 s\n',
    'sweep: 75% (7/10 policy × p cells done) in 15.0 s\n',
    'sweep: 100% (10/10 policy × p cells done) in 20.0 s\n',
    'sweep: done in 20.0 s\n',
  ]);
  assert.ok(
    lines.every((l) => !l.includes('\r')),
    'no carriage returns in a log',
  );
  assert.equal(PROGRESS_EVERY_MS, 5000);

  const quiet: string[] = [];
  const short = sweepProgress(
    (t) => quiet.push(t),
    false,
    LONG_SWEEP_MS - 1,
    () => now,
  );
  short.update({ cells: 1, totalCells: 1, units: 1, totalUnits: 1 });
  short.end();
  assert.deepEqual(quiet, [], 'a short sweep keeps stderr empty');

  // On a terminal: one line rewritten in place, ended by a newline.
  const tty: string[] = [];
  now = 0;
  const t = sweepProgress(
    (x) => tty.push(x),
    true,
    10,
    () => now,
  );
  t.update({ cells: 1, totalCells: 2, units: 1, totalUnits: 2 });
  now = 1000;
  t.update({ cells: 2, totalCells: 2, units: 2, totalUnits: 2 });
  t.end();
  assert.deepEqual(tty, [
    '\rsweep: 50% (1/2 policy × p cells done) in 0.0 s',
    '\rsweep: 100% (2/2 policy × p cells done) in 1.0 s',
    '\rsweep: 100% (2/2 policy × p cells done) in 1.0 s\n',
  ]);
});

test('dynamic --sweep (the default run) with stderr piped: an estimate line first, a done line last; stdout has the table', async () => {
  const res = await runCli(['dynamic', '--sweep']);
  assert.equal(res.status, 0, res.stderr);
  const lines = res.stderr.trimEnd().split('\n');
  assert.match(lines[0]!, /^sweep: estimated at most \d+\.\d s; progress every 5\.0 s$/);
  assert.match(lines.at(-1)!, /^sweep: done in \d+\.\d s$/);
  for (const l of lines.slice(1, -1)) assert.match(l, /^sweep: \d+% \(\d+\/63 policy × p cells done\) in \d+\.\d s$/);
  assert.match(res.stdout, /^6300 steps and 504 training runs$/m);
});
