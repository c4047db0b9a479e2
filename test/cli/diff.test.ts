// `grpo-sandbox diff` without Python: the logs under test/fixtures/bridge were written by the probe
// in real `torchrun --nproc_per_node 2` runs (test/bridge/run_all.py; `npm run test:bridge` makes
// them afresh), so these check the diagnoses against golden data, plus every bad-log error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, runCliDeno } from '../helpers/cli.ts';

const fixture = (name: string) => `test/fixtures/bridge/${name}.jsonl`;
const dir = mkdtempSync(join(tmpdir(), 'grpo-diff-'));
let n = 0;
/** Writes `text` to a fresh file and returns its path. */
function logFile(text: string): string {
  const path = join(dir, `log${n++}.jsonl`);
  writeFileSync(path, text);
  return path;
}
// The real log, its lines in a fixed order (the ranks' appends interleave at random): both headers, then step-major records.
const goodLines = readFileSync(fixture('flow-grpo-identical'), 'utf8')
  .trimEnd()
  .split('\n')
  .map((l) => JSON.parse(l))
  .sort((a, b) => ('probe' in b ? 1 : 0) - ('probe' in a ? 1 : 0) || (a.step ?? 0) - (b.step ?? 0) || a.rank - b.rank)
  .map((o) => JSON.stringify(o));
const good = `${goodLines.join('\n')}\n`;

test('the real identical runs of all three frameworks: exit 0, one line saying identical', () => {
  for (const name of ['trl-identical', 'flow-grpo-identical', 'dance-grpo-identical']) {
    const res = runCli(['diff', '--log', fixture(name)]);
    assert.equal(res.status, 0, res.stderr);
    assert.equal(res.stderr, '');
    assert.match(res.stdout, /^identical: every logged step matches the sandbox's layout \(\d+ step\(s\) × 2 rank\(s\)/);
  }
});

test('the seeded divergences: exit 1, first divergence and the diagnosis of each', () => {
  const expect: [string, string[], RegExp][] = [
    ['trl-wrong-seed', ['--seed', '42'], /no step matches: a different seed/],
    ['dance-grpo-wrong-seed', ['--seed', '42'], /no step matches: a different seed/],
    ['flow-grpo-wrong-seed', ['--seed', '42'], /no step matches: a different seed/],
    ['flow-grpo-prefetch', [], /found step s holds expected step s−2 .*prefetches/],
    ['flow-grpo-no-set-epoch', [], /every step from 1 on repeats step 0's batch/],
  ];
  for (const [name, flags, diagnosis] of expect) {
    const res = runCli(['diff', '--log', fixture(name), ...flags]);
    assert.equal(res.status, 1, `${name}: ${res.stderr}`);
    assert.match(res.stdout, /^diverged at step \d+ \(epoch \d+, step \d+\), rank \d: expected \[[\d, ]+\], found \[[\d, ]+\]/m);
    assert.match(res.stdout, new RegExp(`^diagnosis: ${diagnosis.source}`, 'm'), name);
  }
});

test('without the --seed override the wrong-seed run is identical to its own logged settings', () => {
  assert.equal(runCli(['diff', '--log', fixture('trl-wrong-seed')]).status, 0);
});

test('the first divergence is exact: step 1, rank 0 of the missing-set_epoch run (--json)', () => {
  const res = runCli(['diff', '--log', fixture('flow-grpo-no-set-epoch'), '--json']);
  assert.equal(res.status, 1);
  const out = JSON.parse(res.stdout);
  assert.equal(out.identical, false);
  assert.equal(out.matchingSteps, 1);
  assert.deepEqual(out.first, { step: 1, epoch: 0, stepInEpoch: 1, rank: 0, expected: [16, 13, 8], found: [18, 18, 14] });
});

test('ranks swapped: same prompts per step, placed differently', () => {
  const swapped = goodLines.map((l) => {
    const o = JSON.parse(l);
    if ('rank' in o && 'ids' in o) o.rank = 1 - o.rank;
    return JSON.stringify(o);
  });
  const res = runCli(['diff', '--log', logFile(`${swapped.join('\n')}\n`)]);
  assert.equal(res.status, 1);
  assert.match(res.stdout, /^diagnosis: every step has the expected prompts, placed differently/m);
});

const badCases: [string, string, RegExp][] = [
  ['truncated last line', `${good.trimEnd().slice(0, -5)}`, /^grpo-sandbox diff: log line 14: not complete JSON: the log is truncated/],
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
    'headers disagree',
    good.replace(/("rank":1,"settings":\{[^}]*"seed":)42/, '$143'),
    /^grpo-sandbox diff: log line 2: field 'settings' differs from line 1's/,
  ],
];

for (const [what, text, message] of badCases) {
  test(`a bad log (${what}): exit 2, one line on stderr naming it, nothing on stdout`, () => {
    const res = runCli(['diff', '--log', logFile(text)]);
    assert.equal(res.status, 2, res.stdout);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split('\n').length, 1);
  });
}

test('no --log, a missing file: exit 2 with one line', () => {
  assert.match(runCli(['diff']).stderr, /^grpo-sandbox diff: --log FILE is required/);
  const res = runCli(['diff', '--log', join(dir, 'nope.jsonl')]);
  assert.equal(res.status, 2);
  assert.match(res.stderr, /cannot read it \(ENOENT\)/);
});

test('Deno prints what Node prints (a diagnosis and a bad log)', () => {
  for (const args of [
    ['diff', '--log', fixture('flow-grpo-prefetch')],
    ['diff', '--log', logFile('{"step":0}\n')],
  ]) {
    assert.deepEqual(runCliDeno(args), runCli(args));
  }
});
