import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliDeno } from '../helpers/cli.ts';
import { testGpu } from '../helpers/gpu.ts';

const batch = {
  logp: [
    [-1, -2],
    [-0.5, -1],
  ],
  oldLogp: [
    [-1.5, -2],
    [-0.5, -1],
  ],
  mask: [
    [1, 1],
    [1, 0],
  ],
  advantages: [2, -1],
};
// Token (0,0): ratio e^0.5 > 1.2 with A = 2 → clipped, loss −2.4, gradient 0. Token (0,1): ratio 1,
// loss −2, gradient −2. Token (1,0): ratio 1, loss 1, gradient 1. dapo divides by the 3 active tokens.
const expected = {
  loss: (-2.4 - 2 + 1) / 3,
  gradLogp: [
    [0, -2 / 3],
    [1 / 3, 0],
  ],
};

function assertResult(stdout: string, want: typeof expected): void {
  const got = JSON.parse(stdout) as typeof expected;
  assert.ok(Math.abs(got.loss - want.loss) < 1e-5, `loss ${got.loss} vs ${want.loss}`);
  got.gradLogp.forEach((row, b) =>
    row.forEach((v, t) => assert.ok(Math.abs(v - want.gradLogp[b]![t]!) < 1e-5, `gradLogp[${b}][${t}] ${v}`)),
  );
}

test('loss (TRL defaults: dapo, ε 0.2) on a hand-computed batch from stdin', async () => {
  const res = await runCli(['loss'], JSON.stringify(batch));
  assert.equal(res.status, 0, res.stderr);
  assertResult(res.stdout, expected);
});

// Whether this machine has an adapter is known before the test runs, so a missing one is a
// declared skip (counted as skipped by both runners; in CI the test runs and fails instead).
const gpu = await testGpu();
if (gpu.result.ok) gpu.result.device.destroy();

test('loss --backend webgpu gives the same numbers on a real adapter', { skip: gpu.skip }, async () => {
  const res = await runCli(['loss', '--backend', 'webgpu'], JSON.stringify(batch));
  assert.equal(res.status, 0, res.stderr);
  assert.doesNotMatch(res.stderr, /unavailable/, 'fell back to the CPU');
  assertResult(res.stdout, expected);
});

test('loss pairwise on the seed-003 rewards: ln 2 when all log-probs are equal', async () => {
  const input = {
    logp: Array.from({ length: 5 }, () => [-1, -1, -1, -1]),
    rewards: [0.5, 0.8, 0.3, 0.9, 0.6],
    settings: { lossType: 'pairwise' },
  };
  const res = await runCli(['loss'], JSON.stringify(input));
  assert.equal(res.status, 0, res.stderr);
  assert.ok(Math.abs((JSON.parse(res.stdout) as { loss: number }).loss - Math.LN2) < 1e-6);
});

test('loss: bad batches exit 2 with one line naming the field and the shapes', async () => {
  const cases: [unknown, RegExp][] = [
    [{ ...batch, oldLogp: [[-1, -2]] }, /'oldLogp' is 1 × 2 but 'logp' is 2 × 2/],
    [{ ...batch, advantages: [1, 2, 3] }, /'advantages' has 3 values but 'logp' has B = 2 rows/],
    [{ ...batch, advantage: [1, 2] }, /unknown field 'advantage'/],
    [{ ...batch, settings: { lossType: 'ppo' } }, /settings.lossType must be one of grpo, bnpo, dr_grpo, dapo, pairwise/],
    [{ ...batch, settings: { beta: 0.04 } }, /settings.beta is 0.04 but 'refLogp' is missing/],
    [
      {
        ...batch,
        mask: [
          [1, 2],
          [1, 0],
        ],
      },
      /'mask'\[0\]\[1\] must be 0 or 1/,
    ],
  ];
  for (const [input, message] of cases) {
    const res = await runCli(['loss'], JSON.stringify(input));
    assert.equal(res.status, 2, JSON.stringify(input));
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split('\n').length, 1);
    assert.equal(res.stdout, '');
  }
  const notJson = await runCli(['loss'], '{"logp": [');
  assert.equal(notJson.status, 2);
  assert.match(notJson.stderr, /stdin is not valid JSON/);
});

test('loss runs the same under Deno', () => {
  const res = runCliDeno(['loss'], JSON.stringify(batch));
  assert.equal(res.status, 0, res.stderr);
  assertResult(res.stdout, expected);
});
