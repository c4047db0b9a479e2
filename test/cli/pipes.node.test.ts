// Node only: it starts both runtimes itself as child processes (running it again under Deno would repeat the same checks).
// Pipes and stdin as Unix tools treat them (Node and Deno): a reader that stops early (EPIPE)
// ends the process quietly with status 0; `loss` answers as soon as a complete JSON value has
// arrived, says once that it waits when nothing comes, and refuses input over the stated cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runtimes = {
  node: ['node', ['bin/grpo-sandbox.js']],
  deno: ['node_modules/.bin/deno', ['run', '-A', '--no-check', 'src/cli/bin.ts']],
} as const;
const batch = '{"logp":[[-1,-2]],"oldLogp":[[-1,-2]],"advantages":[1]}';

function start(runtime: keyof typeof runtimes, args: string[]) {
  const [cmd, pre] = runtimes[runtime];
  const child = spawn(cmd, [...pre, ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, done, out: () => stdout, err: () => stderr };
}

for (const runtime of ['node', 'deno'] as const) {
  test(`${runtime}: a closed stdout (| head -1) ends layout quietly with status 0`, async () => {
    const p = start(runtime, [
      'layout',
      '--ranks',
      '64',
      '--batch',
      '32',
      '--k',
      '4',
      '--dataset-size',
      '10000',
      '--batches-per-epoch',
      '4',
    ]);
    p.child.stdin.end();
    // Read the first chunk, then close our end, as `head -1` does.
    await new Promise<void>((resolve) => p.child.stdout.once('data', () => resolve()));
    p.child.stdout.destroy();
    const code = await p.done;
    assert.equal(p.err(), '');
    assert.equal(code, 0);
  });

  test(`${runtime}: loss answers once a complete JSON object arrived, while the writer keeps stdin open`, async () => {
    const p = start(runtime, ['loss']);
    p.child.stdin.write(batch.slice(0, 20));
    await new Promise((r) => setTimeout(r, 200));
    p.child.stdin.write(batch.slice(20));
    // stdin stays open: the answer must not wait for end-of-file.
    const code = await p.done;
    p.child.stdin.destroy();
    assert.equal(code, 0, p.err());
    assert.deepEqual(JSON.parse(p.out()), { loss: -1, gradLogp: [[-0.5, -0.5]] });
  });
}

test('node: with no data on stdin, loss says once on stderr that it waits for JSON, then still answers', async () => {
  const p = start('node', ['loss']);
  const t0 = Date.now();
  while (!p.err().includes('\n') && Date.now() - t0 < 15_000) await new Promise((r) => setTimeout(r, 100));
  assert.match(p.err(), /^grpo-sandbox loss: waiting for JSON on stdin \(pipe a JSON object, or pass --input FILE; Ctrl-C to stop\)\n$/);
  p.child.stdin.end(batch);
  assert.equal(await p.done, 0);
  assert.equal(JSON.parse(p.out()).loss, -1);
});

test('node: stdin over the 128 MiB input cap is refused in one line, exit 2', async () => {
  const p = start('node', ['loss']);
  p.child.stdin.on('error', () => {}); // the process may stop reading before we stop writing
  const chunk = Buffer.alloc(1 << 20, 0x20);
  let written = 0;
  let exited = false;
  p.done.then(() => (exited = true));
  while (written <= 130 && !exited) {
    if (!p.child.stdin.write(chunk)) await Promise.race([new Promise((r) => p.child.stdin.once('drain', r)), p.done]);
    written++;
  }
  if (!exited) p.child.stdin.end();
  assert.equal(await p.done, 2);
  assert.equal(p.out(), '');
  assert.equal(p.err(), 'grpo-sandbox loss: stdin holds more than 128 MiB, the input limit; pass a smaller batch\n');
});
