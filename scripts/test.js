#!/usr/bin/env node
// The whole test suite, as `npm test` and .ci/run run it (test/README.md has the timings):
//   1. format and lint (biome ci), typecheck (tsc --noEmit) and the import rules of
//      docs/architecture.md (dependency-cruiser, .dependency-cruiser.cjs), side by side, while the
//      browser tests' app is built: two `vite build`s, one static server with COOP/COEP and one
//      Chromium that every browser test file connects to (test/browser/shared-app.ts);
//   2. every test/**/*.test.ts under Node's test runner (through tsx), two files at a time, the
//      slowest first; the files Deno runs (below) in three processes, not one each (`inOneProcess`);
//   3. the same files under Deno (`deno test`), except browser tests (test/browser/) and files named
//      *.node.test.ts, which say in their first lines why they are Node-only. Deno starts with
//      step 1 and runs one file at a time beside the Node pass: the browser tests leave the cores
//      idle while they wait on Chromium (page loads, animations, polls), and Deno's files fill
//      that time instead of running after the Node pass.
// Extra arguments select files by substring: `npm test -- rng layout` (and skip the checks of step 1).
// GRPO_TEST_DIR (default `test`) is where test files are looked for (the runner's own test
// points it at test/fixtures/runner).
// Prints one closing line `total: N passed, N failed, N skipped` and exits non-zero on any
// failure. A skipped test is never counted as passed; under CI=true any skip fails the run
// (the GPU tests skip only where no WebGPU adapter exists, and CI must have one).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { cliBundle as bundledCli } from '../bin/cached-bundle.js';
import { EXIT_CRASH_NOTE, denoExitCrash } from './deno-exit-crash.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const filters = process.argv.slice(2);

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // test/fixtures holds data and the runner's own fixture tests (run through GRPO_TEST_DIR only).
    if (statSync(path).isDirectory()) {
      if (name !== 'fixtures') out.push(...findTests(path));
    } else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out.sort();
}

const testDir = process.env.GRPO_TEST_DIR ?? 'test';
// The files that take longest, longest first (measured, test/README.md): they start first, so the
// last files to finish are short ones and neither of the Node pass's two slots idles at the end.
// The rest follow in path order. A file missing here only loses its place in the queue. The
// `inOneProcess` files' three processes, each longer than most files, start before all of them.
const slowestFirst = [
  'test/browser/tours.test.ts',
  'test/browser/train-dashboard.test.ts',
  'test/browser/text-overflow.test.ts',
  'test/browser/explorer-honest.test.ts',
  'test/browser/schedule-view.test.ts',
  'test/browser/explorer-teach.test.ts',
  'test/browser/explorer.test.ts',
  'test/browser/i18n.test.ts',
  'test/bridge/torchrun.node.test.ts',
];
const rank = (f) => (slowestFirst.includes(f) ? slowestFirst.indexOf(f) : slowestFirst.length);
const all = findTests(join(root, testDir))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort((a, b) => rank(a) - rank(b));
const isBrowser = (f) => f.startsWith(`${testDir}/browser/`);
// The files Deno's pass runs (not browser tests, not *.node.test.ts) share Node processes too, not
// one each: a Node process with tsx costs about 1.2 CPU-s before its first test, which was most of
// what many of these files cost (test/README.md). Deno's pass has always run them all in one
// process. Each ends its own process when run alone (a worker or timer left running would keep it
// alive), so none leaves work running for the next; the CLI tests run the CLI in the test's process
// (`runCli`, test/helpers/cli.ts). Their tests, counts and failures are reported as before. The
// Node-only files keep a process each: they start real processes of their own (torchrun, the CLI
// under both runtimes, signals, pipes, this runner).
const denoFile = (f) => !isBrowser(f) && !f.endsWith('.node.test.ts');
const inOneProcess = denoFile;
// Three such processes, not one: a process runs its files one after another, and test/ranks and
// test/train (rank workers, training runs) are the heaviest of these files (test/README.md), so
// they get a process each and no one process holds up the end of the Node pass.
const processGroups = [
  ['ranks', (f) => f.startsWith(`${testDir}/ranks/`)],
  ['train', (f) => f.startsWith(`${testDir}/train/`)],
  ['the-rest', () => true],
];
const denoFiles = all.filter(denoFile);
const totals = { passed: 0, failed: 0, skipped: 0 };
let ok = true;
const started = performance.now();
const seconds = (from) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

/** The live step under way (it prints as it goes); a step that prints when done waits for it, so outputs never interleave. */
let liveStep = Promise.resolve();

/**
 * Runs one step; `parse` reads its counts from stdout; `clean` trims what is printed. A `live`
 * step prints as it goes; the others print when done (they run side by side).
 */
async function run(label, cmd, args, { parse, clean = (s) => s, env = {}, live = false, exitCrash = null } = {}) {
  const t0 = performance.now();
  let liveDone = () => {};
  if (live) {
    liveStep = new Promise((resolve) => {
      liveDone = resolve;
    });
    process.stdout.write(`\n=== ${label}\n`);
  }
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  let stdout = '';
  let output = '';
  const collect = (stream, onData) =>
    stream.setEncoding('utf8').on('data', (d) => {
      onData(d);
      if (live) process.stdout.write(d);
      else output += d;
    });
  collect(child.stdout, (d) => {
    stdout += d;
  });
  let stderr = '';
  collect(child.stderr, (d) => {
    stderr += d;
  });
  const [status, error, signal] = await new Promise((resolve) => {
    child.on('error', (err) => resolve([null, err, null]));
    child.on('close', (code, sig) => resolve([code, null, sig]));
  });
  const took = seconds(t0);
  if (!live) {
    await liveStep;
    process.stdout.write(`\n=== ${label}\n${clean(output)}`);
  }
  if (error) process.stdout.write(`${label}: could not start ${cmd}: ${error.message}\n`);
  process.stdout.write(`=== ${label}: ${took}\n`);
  liveDone();
  const counts = parse ? parse(stdout) : null;
  if (status !== 0 || (counts && counts.failed > 0)) keepFailures(label, stdout);
  if (counts) {
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
  }
  const crashedAtExit = exitCrash && counts && counts.failed === 0 ? exitCrash(signal, stderr) : null;
  if (crashedAtExit) {
    // Every test passed and the summary is printed; the runtime then died in its own teardown.
    process.stdout.write(`${label}: every test passed, then the runtime aborted at exit (${crashedAtExit}); ${EXIT_CRASH_NOTE}\n`);
  } else if (status !== 0) {
    ok = false;
    if (!counts || counts.failed === 0) {
      totals.failed += 1;
      // No test failed, yet the process did: say so, or the run's one failure has no name.
      process.stdout.write(
        `${label}: the process ended with ${signal ? `signal ${signal}` : `exit status ${status}`} and no failed test\n`,
      );
    }
  }
}

/** Each failed step's failure reports, as its reporter printed them, for the end of the run. */
const failureReports = [];
const MAX_REPORT = 8000;

/**
 * Keeps the part of a test runner's output that reports its failures: Node's spec reporter repeats
 * them under `✖ failing tests:` at its end, Deno under `ERRORS`. They are printed again after every
 * step, so the tail of a long log (all a CI summary may keep) still says what failed and why.
 */
function keepFailures(label, stdout) {
  const text = plain(stdout);
  const at = [text.indexOf('✖ failing tests:'), text.search(/^\s*ERRORS\s*$/m)].find((i) => i >= 0);
  if (at === undefined) return;
  const report = text.slice(at).trimEnd();
  failureReports.push(
    `--- ${label}\n${report.length > MAX_REPORT ? `${report.slice(0, MAX_REPORT)}\n… (${report.length - MAX_REPORT} more characters cut)` : report}`,
  );
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
// biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes from Deno output
const plain = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** Format and lint (biome ci), typecheck (tsc) and the import rules (dependency-cruiser), side by side. */
function staticChecks() {
  return Promise.all([
    run('format and lint (biome)', bin('biome'), ['ci', '--reporter=github']),
    run('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
    // dependency-cruiser needs Node ≥ 22 (Deno provides a newer Node API) and parses TypeScript with
    // @swc/core; its notice that TypeScript 7 has no compiler API for it yet is dropped.
    run(
      'import rules (dependency-cruiser)',
      bin('deno'),
      [
        'run',
        '-A',
        'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs',
        '--config',
        '.dependency-cruiser.cjs',
        '--output-type',
        'err',
        'src',
      ],
      { clean: (s) => plain(s).replace(/\n‼ missing-tsc-transpiler:[\s\S]*?stable\.\n/, '\n') },
    ),
  ]);
}

/**
 * Browser tests share one production build, one static server and one Chromium
 * (test/browser/shared-app.ts), started here while the static checks run; the harness in each
 * test file connects to them through the environment. Null when no browser test is selected.
 */
async function sharedBrowserApp() {
  if (!all.some(isBrowser) || process.env.GRPO_TEST_APP_URL) return null;
  const t0 = performance.now();
  try {
    const { startSharedApp } = await tsImport('../test/browser/shared-app.ts', import.meta.url);
    const app = await startSharedApp();
    process.stdout.write(`\n=== browser tests' app: two vite builds, static server, Chromium: ${seconds(t0)}\n`);
    return app;
  } catch (err) {
    process.stdout.write(`\n=== browser tests' app could not start: ${err.stack ?? err}\n`);
    ok = false;
    totals.failed += 1;
    return null;
  }
}

const nodeFiles = all.length > 0;
const checks = filters.length === 0 ? staticChecks() : null;
// Deno beside the Node pass: one file at a time (DENO_JOBS), so the two passes together keep
// about three processes busy on a 2-core machine. Alone (only Deno files selected) it uses every core.
const deno =
  denoFiles.length > 0 && process.env.GRPO_SKIP_DENO !== '1'
    ? run('deno', bin('deno'), ['test', '-A', '--no-check', '--quiet', '--parallel', ...denoFiles], {
        env: nodeFiles ? { DENO_JOBS: '1' } : {},
        exitCrash: denoExitCrash,
        parse: (out) => {
          const m = /(\d+) passed[^|]*\|\s*(\d+) failed(?:[^|]*\|\s*(\d+) ignored)?/.exec(plain(out));
          return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) } : null;
        },
      })
    : null;
const app = await sharedBrowserApp();
// The CLI tests' Node runs use the CLI's cached bundle (bin/cached-bundle.js) directly: tsx's start
// per run cost about 1 s of CPU, several hundred times; built here once if the sources changed.
const cliBundle = nodeFiles ? await bundledCli() : null;

/**
 * The Node pass's files: those of `inOneProcess`, by `processGroups`, as generated files that each
 * import a group's files (a group of one stays that file), first; then the others.
 */
function nodePassFiles() {
  const together = all.filter(inOneProcess);
  if (together.length < 2) return all;
  const dir = mkdtempSync(join(tmpdir(), 'grpo-test-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const groups = processGroups.map(([name]) => ({ name, files: [] }));
  for (const f of together) groups[processGroups.findIndex(([, has]) => has(f))].files.push(f);
  const entries = groups
    .filter((g) => g.files.length > 0)
    .map(({ name, files }) => {
      if (files.length === 1) return files[0];
      const entry = join(dir, `${files.length}-files-in-one-process-${name}.test.mjs`);
      writeFileSync(entry, files.map((f) => `import ${JSON.stringify(pathToFileURL(join(root, f)).href)};\n`).join(''));
      return entry;
    });
  return [...entries, ...all.filter((f) => !inOneProcess(f))];
}

if (nodeFiles) {
  const files = nodePassFiles();
  await run('node', process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files], {
    env: { ...app?.env, ...(cliBundle ? { GRPO_CLI_BUNDLE: cliBundle } : {}) },
    live: true,
    parse: (out) => {
      const num = (word) => {
        const m = new RegExp(`^\\S*\\s*${word} (\\d+)$`, 'm').exec(out);
        return m ? Number(m[1]) : null;
      };
      const [pass, fail, skipped, todo] = [num('pass'), num('fail'), num('skipped'), num('todo')];
      return pass !== null && fail !== null ? { passed: pass, failed: fail, skipped: (skipped ?? 0) + (todo ?? 0) } : null;
    },
  });
}
await app?.close();
await Promise.all([checks, deno]);

if (process.env.CI === 'true' && totals.skipped > 0) {
  ok = false;
  process.stdout.write(
    `\nCI=true: ${totals.skipped} test(s) skipped; in CI every test must run (a GPU test skips only without an adapter)\n`,
  );
}
if (failureReports.length > 0)
  process.stdout.write(`\n=== the failures again, as their runners reported them\n${failureReports.join('\n\n')}\n`);
process.stdout.write(`\nall steps: ${seconds(started)}\n`);
process.stdout.write(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(ok ? 0 : 1);
