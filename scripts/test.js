#!/usr/bin/env node
// The whole test suite, as `npm test` and .ci/run run it:
//   1. format and lint (biome ci) and typecheck (tsc --noEmit);
//   2. every test/**/*.test.ts under Node's test runner (through tsx);
//   3. the same files under Deno (`deno test`), except browser tests (test/browser/) and
//      files named *.node.test.ts, which say in their first lines why they are Node-only.
// Extra arguments select files by substring: `npm test -- rng layout`.
// Prints one closing line `total: N passed, N failed` and exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filters = process.argv.slice(2);

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out.sort();
}

const all = findTests(join(root, 'test')).filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
const denoFiles = all.filter((f) => !f.startsWith('test/browser/') && !f.endsWith('.node.test.ts'));
const totals = { passed: 0, failed: 0 };
let ok = true;

function run(label, cmd, args, parse) {
  process.stdout.write(`\n=== ${label}\n`);
  const res = spawnSync(cmd, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 1 << 28,
  });
  process.stdout.write(res.stdout ?? '');
  if (res.error) process.stdout.write(`${label}: could not start ${cmd}: ${res.error.message}\n`);
  const counts = parse ? parse(res.stdout ?? '') : null;
  if (counts) {
    totals.passed += counts.passed;
    totals.failed += counts.failed;
  }
  if (res.status !== 0) {
    ok = false;
    if (!counts || counts.failed === 0) totals.failed += 1;
  }
}

const bin = (name) => join(root, 'node_modules', '.bin', name);

if (filters.length === 0) {
  run('format and lint (biome)', bin('biome'), ['ci', '--reporter=github']);
  run('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
}

if (all.length > 0) {
  run('node', process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...all], (out) => {
    const pass = /^\S*\s*pass (\d+)$/m.exec(out);
    const fail = /^\S*\s*fail (\d+)$/m.exec(out);
    return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : null;
  });
}
if (denoFiles.length > 0 && process.env.GRPO_SKIP_DENO !== '1') {
  run('deno', bin('deno'), ['test', '-A', '--no-check', '--quiet', ...denoFiles], (out) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes from Deno output
    const m = /(\d+) passed[^|]*\|\s*(\d+) failed/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
    return m ? { passed: Number(m[1]), failed: Number(m[2]) } : null;
  });
}

process.stdout.write(`\ntotal: ${totals.passed} passed, ${totals.failed} failed\n`);
process.exit(ok ? 0 : 1);
