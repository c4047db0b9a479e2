#!/usr/bin/env node
// CPU seconds of each test file, for test/README.md ("CPU per test file"). Linux with cgroup v1's
// cpuacct mounted at /sys/fs/cgroup/cpuacct and write access to it (root): each measured process
// tree runs in its own cpuacct group, whose counter keeps the CPU of every process that was ever
// in it, exited ones included (Chromium's renderers, the CLI processes a test starts).
//   node scripts/measure-cpu.js browser [substrings…]  browser files one at a time against one shared
//                                                      app; the file's Node process tree and Chromium's
//                                                      CPU during it (Chromium in a group of its own)
//   node scripts/measure-cpu.js node [substrings…]     the other files under Node, one at a time
//   node scripts/measure-cpu.js deno [substrings…]     the Deno pass's files, one `deno test` each
// Prints one tab-separated line per file: file, passed, failed, skipped, wall s, CPU-s of the file's
// processes, Chromium CPU-s during the file (browser only).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { cliBundle as bundledCli } from '../bin/cached-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cpuacct = '/sys/fs/cgroup/cpuacct';
const [mode, ...filters] = process.argv.slice(2);

function findTests(dir) {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : findTests(path);
      return name.endsWith('.test.ts') ? [relative(root, path)] : [];
    })
    .sort();
}

const group = (name) => {
  const dir = join(cpuacct, `grpo-measure-${process.pid}-${name}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const usage = (dir) => Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8')) / 1e9;

/** Runs `cmd args` inside the cpuacct group `dir` (a shell moves itself there, then execs). */
function runIn(dir, cmd, args, env) {
  return new Promise((resolve) => {
    const script = `echo $$ > ${dir}/cgroup.procs && exec "$@"`;
    const child = spawn('sh', ['-c', script, 'sh', cmd, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

const all = findTests(join(root, 'test')).filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
const isBrowser = (f) => f.startsWith('test/browser/');
const files =
  mode === 'browser'
    ? all.filter(isBrowser)
    : mode === 'node'
      ? all.filter((f) => !isBrowser(f))
      : all.filter((f) => !isBrowser(f) && !f.endsWith('.node.test.ts'));

let env = {};
let app = null;
let chromiumGroup = null;
if (mode === 'browser') {
  chromiumGroup = group('chromium');
  const tmpWrapper = `/tmp/grpo-measure-${process.pid}-chromium.sh`;
  writeFileSync(tmpWrapper, `#!/bin/sh\necho $$ > ${chromiumGroup}/cgroup.procs\nexec /usr/bin/chromium "$@"\n`, { mode: 0o755 });
  process.env.GRPO_CHROMIUM = tmpWrapper;
  const { startSharedApp } = await tsImport('../test/browser/shared-app.ts', import.meta.url);
  app = await startSharedApp();
  env = app.env;
} else if (mode === 'node') {
  env = { GRPO_CLI_BUNDLE: await bundledCli() };
}

process.stdout.write('file\tpassed\tfailed\tskipped\twall_s\tcpu_s\tchromium_cpu_s\n');
for (const file of files) {
  const dir = group('file');
  const before = usage(dir);
  const chromiumBefore = chromiumGroup ? usage(chromiumGroup) : 0;
  const t0 = performance.now();
  const { out } =
    mode === 'deno'
      ? await runIn(dir, join(root, 'node_modules/.bin/deno'), ['test', '-A', '--no-check', file], {})
      : await runIn(dir, process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], env);
  const wall = (performance.now() - t0) / 1000;
  const cpu = usage(dir) - before;
  const chromium = chromiumGroup ? usage(chromiumGroup) - chromiumBefore : 0;
  let counts;
  if (mode === 'deno') {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes from Deno output
    const m = /(\d+) passed[^|]*\|\s*(\d+) failed(?:[^|]*\|\s*(\d+) ignored)?/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
    counts = m ? [m[1], m[2], m[3] ?? 0] : ['?', '?', '?'];
  } else {
    const num = (w) => new RegExp(`^# ${w} (\\d+)$`, 'm').exec(out)?.[1] ?? '?';
    counts = [num('pass'), num('fail'), num('skipped')];
  }
  process.stdout.write(`${file}\t${counts.join('\t')}\t${wall.toFixed(1)}\t${cpu.toFixed(1)}\t${chromium.toFixed(1)}\n`);
  if (counts[1] !== '0') process.stderr.write(`--- ${file}\n${out.slice(-3000)}\n`);
}
await app?.close();
for (const name of readdirSync(cpuacct)) {
  if (name.startsWith(`grpo-measure-${process.pid}-`) && !name.endsWith('.sh')) {
    try {
      rmdirSync(join(cpuacct, name));
    } catch {}
  }
}
