// `grpo-sandbox loss` never prints a non-number as a number: float32 overflow and inputs float32
// cannot hold are refused (exit 2) naming the field and row. Run in-process through main(argv, io).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';

async function loss(batch: unknown) {
  const io = memoryIo(JSON.stringify(batch));
  const status = await main(['loss'], io);
  return { status, stdout: io.stdout, stderr: io.stderr };
}

test('overflow in float32 exits 2 with the field and row, never null or 1e43 with exit 0', async () => {
  const cases: [unknown, RegExp][] = [
    [
      { logp: [[0, 0]], oldLogp: [[-99.9, 0]], advantages: [-1] },
      /the ratio exp\(logp − oldLogp\) = e\^99\.90 at row 0, token 0 \(float32 holds up to e\^88\.7\): check 'logp' and 'oldLogp' there/,
    ],
    [
      { logp: [[0, -50]], oldLogp: [[0, 0]], refLogp: [[0, 0]], advantages: [1], settings: { beta: 1e30 } },
      /the KL term settings\.beta × e\^\(refLogp − logp\) at row 0, token 1: check settings\.beta \(1e\+30\) and 'refLogp'/,
    ],
    [
      { logp: [[0], [80]], oldLogp: [[0], [0]], advantages: [1, -1e10] },
      /ratio × advantage = .* at row 1, token 0: check 'advantages'\[1\]/,
    ],
  ];
  for (const [batch, expected] of cases) {
    const r = await loss(batch);
    assert.equal(r.status, 2, r.stdout);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, expected);
    assert.equal(r.stderr.split('\n').length, 2);
  }
});

test('inputs float32 cannot hold are refused at validation', async () => {
  const r = await loss({ logp: [[0, 0]], oldLogp: [[0, 0]], advantages: [1e39] });
  assert.equal(r.status, 2);
  assert.equal(
    r.stderr,
    "grpo-sandbox loss: 'advantages'[0] is 1e+39, beyond float32's range (±3.4e38), in which the loss is computed as in the frameworks\n",
  );
  const s = await loss({ logp: [[0]], oldLogp: [[0]], refLogp: [[0]], advantages: [1], settings: { beta: 1e39 } });
  assert.match(s.stderr, /settings\.beta is 1e\+39, beyond float32's range/);
  const m = await loss({ logp: [[-4e38]], oldLogp: [[0]], advantages: [1] });
  assert.match(m.stderr, /'logp'\[0\]\[0\] is -4e\+38, beyond float32's range/);
});

test('large but representable results still print, as numbers', async () => {
  const r = await loss({ logp: [[0, 0]], oldLogp: [[0, 0]], advantages: [1e30] });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(typeof out.loss, 'number');
  assert.ok(Math.abs(out.loss + 1e30) / 1e30 < 1e-6);
});

test('a batch above 8·10^6 tokens is refused in words before any backend sees it (JSON.stringify and Dawn failed uncaught)', async () => {
  const row = `[${'0,'.repeat(8999)}0]`;
  const m = `[${Array.from({ length: 1000 }, () => row).join(',')}]`;
  const text = `{"logp":${m},"oldLogp":${m},"advantages":[${'0,'.repeat(999)}0],"settings":{"maxCompletionLength":9000}}`;
  const io = memoryIo(text);
  assert.equal(await main(['loss', '--backend', 'webgpu'], io), 2);
  assert.equal(io.stdout, '');
  assert.match(
    io.stderr,
    /^grpo-sandbox loss: the batch has B × T = 1000 × 9000 = 9000000 tokens, above the limit of 8000000 .*; split it into smaller batches\n$/,
  );
});

test('a loss that overflows although no single factor does names the row and token (it named no row)', async () => {
  // ratio × advantage = 3e38 and beta × e^1 = 2.7e38 each fit float32; their sum, the token's term, does not.
  const r = await loss({ logp: [[0]], oldLogp: [[0]], refLogp: [[1]], advantages: [-3e38], settings: { beta: 1e38 } });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    new RegExp(
      "^grpo-sandbox loss: the loss overflows float32 \\(.+\\): the term at row 0, token 0 is 3\\.72e\\+38, beyond float32's ±3\\.4e38; " +
        "check 'advantages'\\[0\\], settings\\.beta and 'refLogp' in row 0\n$",
    ),
  );
});
