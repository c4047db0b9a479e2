// `grpo-sandbox train` as a user runs it. Node-only file: it starts the CLI itself under Node and
// under Deno (to compare them) and sends a real SIGINT, so running it again from Deno adds nothing.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli, runCliDeno, runCliNode } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const small = ['--ranks', '2', '--batch', '16', '--k', '4', '--sampler', 'trl'];
const dir = () => tempDir('grpo-train-');

/** metrics.jsonl without the wall time of each step. */
function metricsOf(out: string): unknown[] {
  return readFileSync(join(out, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { stepMs: _, ...rest } = JSON.parse(l);
      return rest;
    });
}

test('train --out writes metrics.jsonl, config.json, checkpoint.json and a self-contained report.html', async () => {
  const out = dir();
  const r = await runCli(['train', ...small, '--steps', '6', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /trained at step 6 of 6 on 2 ranks \(cpu\)/);
  assert.equal(metricsOf(out).length, 6);
  const m = metricsOf(out)[5] as Record<string, unknown>;
  for (const key of ['rewardMean', 'rewardStd', 'optimumFraction', 'loss', 'kl', 'entropy', 'zeroStdFraction', 'clipFraction', 'gradNorm'])
    assert.ok(key in m, key);
  assert.equal(JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).ranks, 2);
  assert.equal(JSON.parse(readFileSync(join(out, 'checkpoint.json'), 'utf8')).step, 6);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /uPlot/);
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=|https?:\/\/[^"'\s]*\.(js|css)/, 'nothing loaded from outside the file');
  assert.match(html, /Learned policy per latency budget/);
});

test('train --helpers sets the helper threads of each rank thread, and its first line says so', async () => {
  const one = await runCli(['train', '--ranks', '1', '--batch', '64', '--steps', '2', '--helpers', '1']);
  assert.equal(one.status, 0, one.stderr);
  assert.match(one.stdout, /training 2 steps on 1 rank \[cpu, 1 helper thread per rank thread for the matmuls\]/);
  const none = await runCli(['train', '--ranks', '1', '--batch', '64', '--steps', '2', '--helpers', '0']);
  assert.equal(none.status, 0, none.stderr);
  assert.match(none.stdout, /training 2 steps on 1 rank \[cpu\]:/);
});

test('train says when its loss reads ~0 by construction (on-policy, no KL, a GRPO-family loss), and prints such a loss readably', async () => {
  const onPolicy = await runCli(['train', ...small, '--steps', '4', '--out', dir()]);
  assert.equal(onPolicy.status, 0, onPolicy.stderr);
  assert.match(onPolicy.stdout, /^the loss reads ~0 by construction: on-policy the ratio is 1/m);
  const losses = [...onPolicy.stdout.matchAll(/^step .* loss (\S+) /gm)].map((m) => m[1]!);
  assert.equal(losses.length, 4);
  // Each is float rounding noise, printed so: 2 significant digits, or exactly 0.
  for (const text of losses) assert.match(text, /^(-?\d\.\de-\d+|0\.0000)$/, text);
  for (const text of losses) assert.ok(Math.abs(Number(text)) < 1e-6, text);
  for (const args of [
    ['--beta', '0.04'],
    ['--loss', 'pairwise', '--advantage', 'trl-group'],
    ['--num-iterations', '2'],
    // verl: a prompt alone in its group keeps its reward (flow-grpo-lcm with k = 3 leaves some alone), so the loss is not ~0.
    ['--advantage', 'verl'],
  ]) {
    const r = await runCli(['train', ...small, '--steps', '2', ...args]);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /by construction/, args.join(' '));
  }
});

test('train --json prints one summary object; progress goes to stderr', async () => {
  const r = await runCli(['train', ...small, '--steps', '3', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.step, 3);
  assert.equal(typeof summary.finalOptimumFraction, 'number');
  assert.match(r.stderr, /training 3 steps on 2 ranks/);
});

for (const [args, pattern] of [
  [['--k', '1'], /--k must be between 2 and 1024, got 1/],
  [['--sampler', 'nope'], /--sampler must be one of/],
  [['--lr', 'fast'], /--lr must be a number, got 'fast'/],
  [['--reward', 'dens'], /--reward must be one of dense, sparse/],
  [['--preset', 'seed-009'], /unknown --preset 'seed-009'; presets: seed-000, seed-003/],
  [['--ranks', '3', '--batch', '5', '--k', '4'], /k=4 must divide ranks×batch=15/],
  [['--advantage', 'dance', '--batch', '6', '--k', '4', '--ranks', '2'], /--advantage dance groups each rank's 6 samples/],
  [['--resume', '/nonexistent/run'], /--resume: cannot read \/nonexistent\/run\/config.json \(ENOENT\)/],
  [['--stepz', '3'], /unknown flag '--stepz'/],
  [['--helpers', '65'], /--helpers must be between 0 and 64, got 65/],
] as const) {
  test(`train ${args.join(' ')} exits 2 with one line`, async () => {
    const r = await runCli(['train', ...args]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, pattern);
  });
}

test('Ctrl-C stops at a step boundary with a valid checkpoint; --resume continues the uninterrupted run exactly', async () => {
  const steps = ['--steps', '16'];
  const whole = dir();
  assert.equal((await runCli(['train', ...small, ...steps, '--out', whole])).status, 0);

  const cut = dir();
  const child = spawn('node', ['bin/grpo-sandbox.js', 'train', ...small, ...steps, '--out', cut], { cwd: root });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (d) => {
    stdout += d;
    // The first progress line: the run is between steps 1 and 16.
    if (!sent && /^step \d+\/16/m.test(stdout)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 130, stderr);
  assert.match(stderr, /stopping after this step/);
  const stoppedAt = JSON.parse(readFileSync(join(cut, 'checkpoint.json'), 'utf8')).step as number;
  assert.ok(stoppedAt > 0 && stoppedAt < 16, `stopped at ${stoppedAt}`);
  assert.equal(metricsOf(cut).length, stoppedAt);

  const resumed = await runCli(['train', '--resume', cut]);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stdout, new RegExp(`resuming at step ${stoppedAt}`));
  assert.deepEqual(metricsOf(cut), metricsOf(whole));
  assert.equal(
    JSON.parse(readFileSync(join(cut, 'checkpoint.json'), 'utf8')).params,
    JSON.parse(readFileSync(join(whole, 'checkpoint.json'), 'utf8')).params,
  );
});

test('train --resume refuses settings that would change the run', async () => {
  const out = dir();
  assert.equal((await runCli(['train', ...small, '--steps', '2', '--out', out])).status, 0);
  const r = await runCli(['train', '--resume', out, '--k', '8']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--resume takes the run's settings from .*config.json; drop --k/);
});

test('train --out refuses to replace a saved run (nothing is lost) unless --overwrite is given', async () => {
  const out = dir();
  assert.equal((await runCli(['train', ...small, '--steps', '2', '--out', out])).status, 0);
  const before = readFileSync(join(out, 'metrics.jsonl'), 'utf8');
  const again = await runCli(['train', ...small, '--steps', '3', '--out', out]);
  assert.equal(again.status, 2);
  assert.equal(again.stdout, '');
  assert.equal(again.stderr.trim().split('\n').length, 1, again.stderr);
  assert.match(again.stderr, /already holds a training run \(checkpoint.json, metrics.jsonl\); continue it with --resume .*--overwrite/);
  assert.equal(readFileSync(join(out, 'metrics.jsonl'), 'utf8'), before, 'the saved run is untouched');
  assert.equal((await runCli(['train', ...small, '--steps', '3', '--out', out, '--overwrite'])).status, 0);
  assert.equal(metricsOf(out).length, 3);
  assert.equal((await runCli(['train', '--resume', out, '--overwrite'])).status, 2);
});

// Node 20's V8 and Deno's V8 round Math.exp and Math.log differently in the last bit for some
// arguments (checked while writing this test). What is stored in float32 — rewards, parameters,
// gradients — comes out identical here; metrics summed in float64 straight from exp/log (loss,
// KL: e^d − d − 1 for tiny d; entropy: p log p) carry that last bit, so they are compared to 1e-9.
test('Deno gives the same parameters and rewards as Node bit for bit; loss, KL, entropy to 1e-9', async () => {
  const node = dir();
  const deno = dir();
  const args = ['train', ...small, '--steps', '4', '--reward', 'sparse', '--beta', '0.04'];
  assert.equal(runCliNode([...args, '--out', node]).status, 0);
  const d = runCliDeno([...args, '--out', deno]);
  assert.equal(d.status, 0, d.stderr);
  const strip = (m: unknown) => {
    const { loss: _l, kl: _k, entropy: _e, ...rest } = m as Record<string, unknown>;
    return rest;
  };
  const [a, b] = [metricsOf(deno), metricsOf(node)];
  assert.deepEqual(a.map(strip), b.map(strip));
  a.forEach((m, i) => {
    const flat = (x: unknown) => {
      const r = x as Record<string, number> & { entropy: Record<string, number> };
      return { loss: r.loss, kl: r.kl, ...r.entropy };
    };
    const [fa, fb] = [flat(m), flat(b[i])];
    for (const key of Object.keys(fb) as (keyof typeof fb)[]) {
      const x = fa[key]!;
      const y = fb[key]!;
      assert.ok(Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y), 1e-30), `step ${i + 1} ${key}: ${x} vs ${y}`);
    }
  });
  assert.equal(
    JSON.parse(readFileSync(join(deno, 'checkpoint.json'), 'utf8')).params,
    JSON.parse(readFileSync(join(node, 'checkpoint.json'), 'utf8')).params,
  );
});

// No usable Vulkan driver: Dawn finds no adapter on any rank (Dawn itself also warns on stderr).
// 8 ranks: with several ranks asking Dawn for an adapter at once, stopping the world while one is
// still inside requestAdapter crashed Node natively (napi_throw); World.start now lets every init settle.
const noGpu = (backend: string) =>
  spawnSync(
    'node',
    ['bin/grpo-sandbox.js', 'train', '--ranks', '8', '--batch', '8', '--k', '4', '--sampler', 'trl', '--steps', '1', '--backend', backend],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, VK_ICD_FILENAMES: '/nonexistent/icd.json' },
    },
  );

test('--backend auto without a WebGPU adapter trains on the CPU after a one-line notice', () => {
  const r = noGpu('auto');
  assert.equal(r.status, 0, r.stderr);
  const ours = r.stderr.split('\n').filter((l) => l.startsWith('grpo-sandbox train:'));
  assert.equal(ours.length, 1, r.stderr);
  assert.match(ours[0]!, /WebGPU unavailable \(.*no WebGPU adapter.*\); training on the CPU instead/);
  assert.match(r.stdout, /on 8 ranks \[cpu\]/);
});

test('--backend webgpu without a WebGPU adapter exits 2 naming the fix', () => {
  const r = noGpu('webgpu');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /grpo-sandbox train: --backend webgpu: .*no WebGPU adapter.*; use --backend cpu \(or auto to fall back\)/);
});
