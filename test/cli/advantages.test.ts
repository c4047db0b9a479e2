// `grpo-sandbox advantages` as a user runs it: values worked out by hand from each framework's
// formula (docs/frameworks.md, copied into src/core/grpo/advantages.ts), bad input.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli, runCliDeno } from '../helpers/cli.ts';

const input = JSON.stringify({ rewards: [1, 0, 1, 0], promptIds: [0, 0, 1, 1] });
const sd = Math.SQRT1_2; // unbiased std of a group {1, 0}

const cases: [string, string[], number[]][] = [
  ['flow-grpo', [], [0.5 / (0.5 + 1e-4), -0.5 / (0.5 + 1e-4), 0.5 / (0.5 + 1e-4), -0.5 / (0.5 + 1e-4)]],
  ['trl-group', [], [0.5 / (sd + 1e-4), -0.5 / (sd + 1e-4), 0.5 / (sd + 1e-4), -0.5 / (sd + 1e-4)]],
  ['trl-batch', [], [0.5, -0.5, 0.5, -0.5].map((x) => x / (Math.sqrt(1 / 3) + 1e-4))],
  ['trl-none', [], [0.5, -0.5, 0.5, -0.5]],
  ['verl', [], [0.5 / (sd + 1e-6), -0.5 / (sd + 1e-6), 0.5 / (sd + 1e-6), -0.5 / (sd + 1e-6)]],
  ['dance', ['--ranks', '2'], [0.5 / (sd + 1e-8), -0.5 / (sd + 1e-8), 0.5 / (sd + 1e-8), -0.5 / (sd + 1e-8)]],
  // The settings' other sides: global_std=False, norm_adv_by_std_in_grpo=False, DanceGRPO without --use_group.
  ['flow-grpo-prompt-std', [], [0.5 / (0.5 + 1e-4), -0.5 / (0.5 + 1e-4), 0.5 / (0.5 + 1e-4), -0.5 / (0.5 + 1e-4)]],
  ['verl-no-std', [], [0.5, -0.5, 0.5, -0.5]],
  ['dance-nogroup', ['--ranks', '2'], [0.5, -0.5, 0.5, -0.5].map((x) => x / (Math.sqrt(1 / 3) + 1e-8))],
];

for (const [scheme, extra, expected] of cases) {
  test(`advantages --scheme ${scheme}`, async () => {
    const r = await runCli(['advantages', '--scheme', scheme, '--k', '2', ...extra], input);
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout).advantages as number[];
    got.forEach((a, i) => assert.ok(Math.abs(a - expected[i]!) < 1e-12, `${scheme}[${i}]: ${a} vs ${expected[i]}`));
  });
}

test('advantages: flow_grpo groups by prompt id wherever the copies sit; TRL views rows of k', async () => {
  // Copies of prompt 0 at positions 0 and 2: TRL's view(-1, 2) pairs (0,1) and (2,3) regardless.
  const mixed = JSON.stringify({ rewards: [1, 3, 0, 2], promptIds: [0, 1, 0, 1] });
  const flow = JSON.parse((await runCli(['advantages', '--scheme', 'flow-grpo', '--k', '2'], mixed)).stdout).advantages as number[];
  const trl = JSON.parse((await runCli(['advantages', '--scheme', 'trl-none', '--k', '2'], mixed)).stdout).advantages as number[];
  assert.deepEqual(trl, [-1, 1, -1, 1]);
  const std = Math.sqrt(1.25); // numpy std of [1, 3, 0, 2]
  assert.deepEqual(
    flow.map((x) => x.toFixed(12)),
    [0.5, 0.5, -0.5, -0.5].map((x) => (x / (std + 1e-4)).toFixed(12)),
  );
});

test('advantages: a position-based scheme that puts different prompt ids in one group says MIXED on stderr and in the JSON', async () => {
  const scattered = JSON.stringify({ rewards: [1, 3, 0, 2, 5, 5], promptIds: [0, 1, 0, 1, 2, 2] });
  const r = await runCli(['advantages', '--scheme', 'trl-group', '--k', '2'], scattered);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).mixed, [
    { group: 0, positions: [0, 1], promptIds: [0, 1] },
    { group: 1, positions: [2, 3], promptIds: [0, 1] },
  ]);
  assert.match(
    r.stderr,
    /^grpo-sandbox advantages: MIXED: trl-group groups runs of k=2 by position, and 2 of 3 groups hold more than one prompt id: /,
  );
  assert.match(r.stderr, /group 0 \(positions 0–1\) holds 0,1; group 1 \(positions 2–3\) holds 0,1\./);
  // DanceGRPO's local runs of k are positions too; flow_grpo and verl group by id, so they print no "mixed" at all.
  assert.equal(
    JSON.parse((await runCli(['advantages', '--scheme', 'dance', '--k', '2', '--ranks', '3'], scattered)).stdout).mixed.length,
    2,
  );
  for (const scheme of ['flow-grpo', 'verl', 'dance-nogroup']) {
    const byId = await runCli(['advantages', '--scheme', scheme, '--k', '2'], scattered);
    assert.equal(byId.stderr, '', scheme);
    assert.equal(JSON.parse(byId.stdout).mixed, undefined, scheme);
  }
  // Consecutive copies: nothing to say, and an empty list.
  const clean = await runCli(['advantages', '--scheme', 'trl-group', '--k', '2'], input);
  assert.equal(clean.stderr, '');
  assert.deepEqual(JSON.parse(clean.stdout).mixed, []);
});

test('advantages: verl gives a lone sample mean 0 and std 1; TRL a NaN (null) for a group of one', async () => {
  const lone = JSON.stringify({ rewards: [2, 3], promptIds: [0, 1] });
  // verl's std of 1 is torch.tensor(1.0), float32: 1 + 1e-6 rounds to float32 (its own code, run: golden-advantages-frameworks).
  assert.deepEqual(JSON.parse((await runCli(['advantages', '--scheme', 'verl', '--k', '1'], lone)).stdout).advantages, [
    2 / Math.fround(1 + 1e-6),
    3 / Math.fround(1 + 1e-6),
  ]);
  assert.deepEqual(JSON.parse((await runCli(['advantages', '--scheme', 'trl-group', '--k', '1'], lone)).stdout).advantages, [null, null]);
});

test('advantages: the same output under Deno', async () => {
  const r = runCliDeno(['advantages', '--scheme', 'flow-grpo', '--k', '2'], input);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, (await runCli(['advantages', '--scheme', 'flow-grpo', '--k', '2'], input)).stdout);
});

for (const [args, stdin, pattern] of [
  [['--k', '2'], input, /--scheme is required/],
  [['--scheme', 'grpo', '--k', '2'], input, /--scheme must be one of flow-grpo/],
  [['--scheme', 'verl'], input, /--k is required/],
  [['--scheme', 'verl', '--k', '2'], '{"rewards": [1, 2]}', /'promptIds' must be an array/],
  [['--scheme', 'verl', '--k', '2'], '{"rewards": [1, "x"], "promptIds": [0, 0]}', /'rewards\[1\]' must be a finite number/],
  [['--scheme', 'verl', '--k', '2'], '{"rewards": [1, 2], "promptIds": [0]}', /promptIds has 1 entries but rewards has 2/],
  [['--scheme', 'trl-group', '--k', '3'], input, /multiple of k/],
  [['--scheme', 'dance', '--k', '4', '--ranks', '2'], input, /each rank needs a multiple of k/],
  [['--scheme', 'verl', '--k', '2'], 'not json', /stdin is not valid JSON/],
] as const) {
  test(`advantages ${args.join(' ')} given ${stdin.slice(0, 40)} exits 2 with one line`, async () => {
    const r = await runCli(['advantages', ...args], stdin);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, pattern);
  });
}
