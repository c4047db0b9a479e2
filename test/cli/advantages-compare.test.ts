// `grpo-sandbox advantages --compare` as a user runs it: the table has a row per completion and a
// column per scheme whose cells are `--scheme S`'s own numbers, its footer and its per-scheme lines
// say whose each column is and what it flags; --json is the same as data; --schemes picks and
// orders the columns; bad input exits 2 with one line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { comparedSchemes } from '../../src/core/grpo/compare.ts';
import { runCli } from '../helpers/cli.ts';

// A flat group (prompt 0), a group with one success (prompt 1), and prompts 2 and 3 of 3 and 1 completions:
// 12 rewards, k = 4, 4 prompts (not k × prompts), and the third run of 4 holds prompts 2 and 3.
const batch = { rewards: [1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 0], promptIds: [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3] };
const input = JSON.stringify(batch);

/** `--scheme S`'s own advantages on the batch (what each column must show). */
async function alone(scheme: string): Promise<(number | null)[]> {
  const r = await runCli(['advantages', '--scheme', scheme, '--k', '4'], input);
  assert.equal(r.status, 0, `${scheme}: ${r.stderr}`);
  return JSON.parse(r.stdout).advantages;
}

test('advantages --compare --json: one column per scheme of the registry, each --scheme’s own output', async () => {
  const r = await runCli(['advantages', '--compare', '--k', '4', '--json'], input);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.rewards, batch.rewards);
  assert.deepEqual(out.promptIds, batch.promptIds);
  assert.equal(out.k, 4);
  assert.deepEqual(
    out.columns.map((c: { scheme: string }) => c.scheme),
    comparedSchemes(),
  );
  for (const col of out.columns) {
    if (col.refused) {
      // A refusal is the same one line `--scheme` exits 2 with.
      const own = await runCli(['advantages', '--scheme', col.scheme, '--k', '4'], input);
      assert.equal(own.status, 2, col.scheme);
      assert.ok(own.stderr.includes(col.refused), `${col.scheme}: ${own.stderr} vs ${col.refused}`);
      assert.equal(col.advantages, null);
    } else assert.deepEqual(col.advantages, await alone(col.scheme), col.scheme);
  }
  // TRL's view(-1, 4) puts prompts 2 and 3 in one row: flagged as mixed, as `--scheme trl-group` flags it.
  const trl = out.columns.find((c: { scheme: string }) => c.scheme === 'trl-group');
  assert.deepEqual(trl.warnings, [{ kind: 'mixed', groups: [{ group: 2, positions: [8, 11], promptIds: [2, 2, 2, 3] }] }]);
  assert.equal(trl.grouping, 'position');
  assert.equal(out.best, 0);
  assert.equal(out.worst, 5);
});

test('advantages --compare: a row per completion, a column per --schemes name in its order, summary rows, then whose each column is', async () => {
  const schemes = ['verl', 'trl-group', 'dance-nogroup'];
  const r = await runCli(['advantages', '--compare', '--k', '4', '--schemes', schemes.join(',')], input);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const header = lines.find((l) => l.trimStart().startsWith('#'))!;
  assert.deepEqual(header.trim().split(/\s+/), ['#', 'prompt', 'reward', ...schemes]);
  const start = lines.indexOf(header) + 1;
  const own = await Promise.all(schemes.map(alone));
  for (let i = 0; i < batch.rewards.length; i++) {
    const cells = lines[start + i]!.trim().split(/\s+/);
    assert.deepEqual(cells.slice(0, 3), [String(i), String(batch.promptIds[i]), String(batch.rewards[i])]);
    schemes.forEach((s, j) => {
      const a = own[j]![i]!;
      assert.equal(Number(cells[3 + j]), Number(a.toFixed(3)), `row ${i}, ${s}`);
    });
  }
  assert.match(r.stdout, /^best #0 +0\.000 +0\.000 +[\d.]+$/m);
  assert.match(r.stdout, /^worst #5 +-0\.500 +-0\.500 +-[\d.]+$/m);
  assert.match(r.stdout, /^trl-group +TRL 1\.13\.0, groups by position \(runs of k\)$/m);
  assert.match(r.stdout, /! MIXED: 1 run\(s\) of k=4 hold more than one prompt id: group 2 \(positions 8–11\) holds 2,2,2,3/);
  assert.match(r.stdout, /^verl +verl b178a3c, groups by uid/m);
  assert.match(r.stdout, /^dance-nogroup +DanceGRPO 22b85ef, normalises the whole batch as one group$/m);
});

test('advantages --compare: a framework that refuses the batch shows — in its column and its reason below', async () => {
  // 6 rewards with k = 4: TRL's view(-1, 4) refuses; flow_grpo groups by prompt id and does not.
  const uneven = JSON.stringify({ rewards: [1, 0, 0, 1, 1, 0], promptIds: [0, 0, 0, 0, 1, 1] });
  const r = await runCli(['advantages', '--compare', '--k', '4', '--schemes', 'flow-grpo,trl-group'], uneven);
  assert.equal(r.status, 0, r.stderr);
  const row0 = r.stdout.split('\n').find((l) => /^\s*0\s+0\s+1\s/.test(l))!;
  assert.match(row0, /—$/);
  assert.match(r.stdout, /^trl-group +TRL 1\.13\.0, refuses this batch: TRL views the 6 rewards as rows of k=4/m);
});

test('advantages --compare: bad input and flags exit 2 with one line', async () => {
  const bad: [string[], string, RegExp][] = [
    [['--compare'], input, /--k is required/],
    [
      ['--compare', '--k', '4', '--schemes', 'trl-group,nope'],
      input,
      /--schemes: unknown 'nope'; give names from flow-grpo, .*, separated by commas/,
    ],
    [['--compare', '--k', '4', '--scheme', 'verl'], input, /--compare runs several schemes/],
    [['--compare', '--k', '4', '--ranks', '2'], input, /drop --ranks/],
    [['--compare', '--k', '4'], '{"rewards": [1, 0], "promptIds": [0]}', /promptIds has 1 entries but rewards has 2/],
    [['--compare', '--k', '4'], '{"rewards": [1, "x"], "promptIds": [0, 0]}', /'rewards\[1\]' must be a finite number/],
    [['--compare', '--k', '4'], '[1, 2]', /must be a JSON object/],
    [['--compare', '--k', '4'], '{"rewards": [], "promptIds": []}', /rewards is empty/],
    [['--scheme', 'verl', '--k', '4', '--json'], input, /--schemes and --json go with --compare/],
  ];
  for (const [args, stdin, message] of bad) {
    const r = await runCli(['advantages', ...args], stdin);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
