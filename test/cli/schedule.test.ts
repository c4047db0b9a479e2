// `grpo-sandbox schedule` as a user runs it: seed-001's story as a chart and a table, --json,
// --html (self-contained), policy files, bad flags (exit 2, one line), and Node = Deno.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, runCliDeno, runCliNode } from '../helpers/cli.ts';

test('--preset seed-001 tells 20T vs 5T as Gantt charts, a legend and a table', async () => {
  const res = await runCli(['schedule', '--preset', 'seed-001']);
  assert.equal(res.status, 0, res.stderr);
  assert.equal(res.stderr, '');
  const text = res.stdout;
  assert.match(text, /^serial-dp: 20T, 1\.00× serial-dp$/m);
  assert.match(text, /^per-rank-batched: 5T, 4\.00× serial-dp$/m);
  // serial-dp: rank 0 runs all 20 configurations one by one, ranks 1–3 idle throughout.
  assert.match(text, /^rank 0 +1-1\|1-2\|1-3\|1-4\|1-5\|2-1\|.*4-5\| +idle 0%$/m);
  assert.match(text, /^rank 3 +·{80} +idle 100%$/m);
  // per-rank-batched: each rank one launch of its sample's 5 configurations.
  assert.match(text, /^rank 2 +3-1…5-+\| +idle 0%$/m);
  assert.match(text, /^legend:$/m);
  assert.match(text, /one column = 0\.25T/);
  assert.match(text, /^scheme +makespan +speed-up +launches +peak batch/m);
  assert.match(text, /^serial-dp +20T +1\.00× +20 +1 +75% +100% +0% 100% 100% 100%$/m);
  assert.match(text, /^per-rank-batched +5T +4\.00× +4 +5 +0% +0%/m);
  assert.match(text.replace(/\n +/g, ' '), /with α > 0 it would cost \(5 − 4α\)·T, 4α·T less/);
});

test('--json: one object with the configurations and every scheme’s timeline and totals', async () => {
  const res = await runCli(['schedule', '--preset', 'seed-001', '--alpha', '0.25', '--json']);
  assert.equal(res.status, 0, res.stderr);
  assert.equal(res.stdout.trim().split('\n').length, 1);
  const out = JSON.parse(res.stdout);
  assert.deepEqual(Object.keys(out), ['config', 'unit', 'work', 'gatherCost', 'configurations', 'schemes']);
  assert.equal(out.unit, 'T');
  assert.equal(out.configurations.length, 20);
  assert.deepEqual(out.configurations[6], { index: 6, id: '2-2', sample: 1, copy: 1, latency: 1, structure: 'any' });
  const by = Object.fromEntries(out.schemes.map((s: { scheme: string }) => [s.scheme, s]));
  assert.equal(by['serial-dp'].makespan, 20);
  assert.equal(by['per-rank-batched'].makespan, 4); // 5 − 4 · 0.25
  assert.deepEqual(by['per-rank-batched'].timeline[1], [{ kind: 'run', start: 0, end: 4, configs: ['2-1', '2-2', '2-3', '2-4', '2-5'] }]);
  assert.deepEqual(by.spread.timeline[3].at(-1), { kind: 'gather', start: 5, end: 5.1, configs: [] });
  assert.deepEqual(Object.keys(by.spread), [
    'scheme',
    'timeline',
    'makespan',
    'idleFraction',
    'launches',
    'peakBatch',
    'runTime',
    'speedup',
  ]);
});

test('--schemes selects what is shown; --config-time puts T in milliseconds', async () => {
  const res = await runCli(['schedule', '--schemes', 'spread,serial-dp', '--config-time', '30', '--json']);
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.deepEqual(
    out.schemes.map((s: { scheme: string }) => s.scheme),
    ['serial-dp', 'spread'],
  );
  assert.equal(out.unit, 'ms');
  assert.equal(out.schemes[0].makespan, 600);
  const text = (await runCli(['schedule', '--schemes', 'per-rank-serial'])).stdout;
  assert.doesNotMatch(text, /^serial-dp:/m);
  assert.match(text, /^per-rank-serial: 5T, 4\.00× serial-dp$/m);
});

test('--latency controller: configurations drawn from the uniform policy or a policy file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-'));
  try {
    const uniform = JSON.parse((await runCli(['schedule', '--latency', 'controller', '--seed', '3', '--json'])).stdout);
    assert.equal(uniform.unit, 'ms');
    assert.equal(uniform.config.latency.policy, 'uniform');
    assert.ok(new Set(uniform.configurations.map((c: { structure: string }) => c.structure)).size > 5);
    // A policy file that always picks high tier, insertion after block 1, top-K 8 and 15 more blocks.
    const hot = (n: number, i: number) => Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));
    const file = join(dir, 'policy.json');
    writeFileSync(file, JSON.stringify({ tier: hot(3, 2), insertion: hot(5, 0), topK: hot(5, 4), knob3: hot(16, 15) }));
    const fixed = JSON.parse((await runCli(['schedule', '--policy', file, '--alpha', '0.5', '--json'])).stdout);
    assert.equal(fixed.config.latency.policy, 'policy.json');
    for (const c of fixed.configurations) assert.equal(c.structure, 'high(12 crops) p=1 topK=8 blocks=16');
    const by = Object.fromEntries(fixed.schemes.map((s: { scheme: string }) => [s.scheme, s]));
    assert.ok(Math.abs(by['by-structure'].makespan - 52 * 3) < 1e-9);
    const text = (await runCli(['schedule', '--policy', file])).stdout;
    // The drawn configurations are listed, so the charts' ids can be looked up.
    assert.match(text, /^configurations drawn \(id, structure, latency alone\):$/m);
    assert.equal(text.match(/^ {2}\d-\d +high\(12 crops\) p=1 topK=8 blocks=16 +52 ms$/gm)?.length, 20);
    assert.match(text.replace(/\n +/g, ' '), /1 distinct structure \(tier, insertion, top-K, active blocks\) among the 20 configurations/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--html FILE writes one self-contained page: a chart per scheme, captions, table, no network', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-'));
  try {
    const file = join(dir, 'seed-001.html');
    const res = await runCli(['schedule', '--preset', 'seed-001', '--html', file, '--json']);
    assert.equal(res.status, 0, res.stderr);
    JSON.parse(res.stdout); // stdout stays the JSON
    assert.equal(res.stderr, `grpo-sandbox schedule: wrote ${file}\n`);
    const html = readFileSync(file, 'utf8');
    assert.match(html, /^<!doctype html>/);
    assert.equal(html.match(/aria-label="[\w-]+ timeline"/g)?.length, 5);
    for (const s of ['serial-dp: 20T', 'per-rank-batched: 5T']) assert.ok(html.includes(s), s);
    assert.match(html, /Today&#39;s code|Today's code/);
    assert.match(html, /<pre>scheme +makespan/);
    // Nothing to fetch: no scripts, stylesheets, images or links; the only URL is the SVG namespace.
    assert.doesNotMatch(html, /<script|<link|<img|src=|href=/);
    assert.deepEqual([...new Set(html.match(/https?:\/\/[^"'\s)]+/g))], ['http://www.w3.org/2000/svg']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--html: the captions print 1 − α rounded (α = 0.7 gives 0.3, not 0.30000000000000004)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-alpha-'));
  try {
    const file = join(dir, 'alpha.html');
    const res = await runCli(['schedule', '--preset', 'seed-001', '--alpha', '0.7', '--html', file]);
    assert.equal(res.status, 0, res.stderr);
    const html = readFileSync(file, 'utf8');
    assert.ok(html.includes('T·(0.7 + 0.3·5) = 2.2·T, 2.8·T less'), 'the per-rank-batched caption');
    assert.doesNotMatch(html, /0\.\d{10,}/);
    assert.ok(res.stdout.replace(/\n +/g, ' ').includes('T·(0.7 + 0.3·5) = 2.2·T'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad flags: one line on stderr, nothing on stdout, exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-'));
  const badPolicy = join(dir, 'bad.json');
  writeFileSync(
    badPolicy,
    JSON.stringify({
      tier: [1, 1, 1],
      insertion: [0, 0, 1, 0, 0],
      topK: [1, 1, 1, 1, 1],
      knob3: [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
    }),
  );
  const notJson = join(dir, 'x.json');
  writeFileSync(notJson, '{tier');
  const cases: [string[], RegExp][] = [
    [['--ranks', '0'], /--ranks must be between 1 and 4096, got 0/],
    [['--batch', 'two'], /--batch must be a whole number, got 'two'/],
    [['--alpha', '1.5'], /--alpha must be between 0 and 1, got 1\.5/],
    [['--alpha', 'x'], /--alpha must be a number, got 'x'/],
    [['--latency', 'fast'], /--latency must be one of constant, controller, got 'fast'/],
    [['--schemes', 'serial-dp,ddp'], /unknown scheme 'ddp' in --schemes; schemes: serial-dp, per-rank-serial/],
    [['--max-batch', '0'], /--max-batch must be between 1/],
    [['--preset', 'seed-009'], /unknown preset 'seed-009'; schedule presets: seed-001/],
    [['--policy', join(dir, 'missing.json')], /cannot read it \(ENOENT\)/],
    [['--policy', notJson], /--policy '.*x\.json' is not valid JSON at line 1, column 2/],
    [['--policy', badPolicy], /knob3 gives no weight to the options valid after block 3/],
    [['--latency', 'constant', '--policy', 'uniform'], /--policy draws configurations for --latency controller/],
    [['--latency', 'controller', '--config-time', '3'], /--config-time sets the constant model's T/],
    [['--config-time', '-3'], /--config-time must be a positive number, got -3$/m],
    [['--gather-cost', '-1'], /--gather-cost must be a number ≥ 0, got -1$/m],
    [['--bogus'], /--bogus.*known flags: --preset/i],
    [['--preset', '__proto__'], /unknown preset '__proto__'/],
    [['--preset', 'constructor'], /unknown preset 'constructor'/],
    [['--html', join(dir, 'no', 'such', 'dir.html')], /--html .*cannot write it \(ENOENT\)/],
    [['--batch', '1000', '--k', '1000'], /100000/],
  ];
  try {
    for (const [args, message] of cases) {
      const res = await runCli(['schedule', ...args]);
      assert.equal(res.status, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.equal(res.stdout, '', args.join(' '));
      assert.equal(res.stderr.split('\n').length, 2, `one line: ${res.stderr}`);
      assert.match(res.stderr, /^grpo-sandbox schedule: /);
      assert.match(res.stderr, message, args.join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--help lists every flag and scheme', async () => {
  const res = await runCli(['schedule', '--help']);
  assert.equal(res.status, 0);
  for (const flag of [
    '--preset',
    '--ranks',
    '--batch',
    '--k',
    '--latency',
    '--config-time',
    '--policy',
    '--seed',
    '--alpha',
    '--max-batch',
    '--gather-cost',
    '--schemes',
    '--width',
    '--json',
    '--html',
  ])
    assert.ok(res.stdout.includes(flag), flag);
  for (const s of ['serial-dp', 'per-rank-serial', 'per-rank-batched', 'by-structure', 'spread'])
    assert.match(res.stdout, new RegExp(`^  ${s} `, 'm'));
});

test('Node and Deno write the same HTML page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-'));
  try {
    const args = (file: string) => ['schedule', '--latency', 'controller', '--batch', '6', '--alpha', '0.5', '--html', join(dir, file)];
    assert.equal((await runCli(args('node.html'))).status, 0);
    assert.equal(runCliDeno(args('deno.html')).status, 0);
    assert.equal(readFileSync(join(dir, 'deno.html'), 'utf8'), readFileSync(join(dir, 'node.html'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Node and Deno print the same bytes (text and a controller run as JSON)', () => {
  for (const args of [
    ['schedule', '--preset', 'seed-001'],
    ['schedule', '--latency', 'controller', '--batch', '6', '--ranks', '3', '--alpha', '0.4', '--max-batch', '3', '--json'],
    ['schedule', '--ranks', '0'],
  ]) {
    const node = runCliNode(args);
    const deno = runCliDeno(args);
    assert.equal(deno.status, node.status, args.join(' '));
    assert.equal(deno.stdout, node.stdout, args.join(' '));
    assert.equal(deno.stderr, node.stderr, args.join(' '));
  }
});

test('the chart: a gather shorter than a column still shows at the end; launches piling into one column show as #', async () => {
  // Spread's gather (10% of the mean latency) is a fraction of a column here, after the last launch.
  const spread = (await runCli(['schedule', '--latency', 'controller', '--batch', '8', '--alpha', '0.5', '--schemes', 'spread'])).stdout;
  const rows = spread.split('\n').filter((l) => l.startsWith('rank '));
  assert.equal(rows.length, 4);
  for (const row of rows) assert.match(row, /≈ +idle \d+%$/, row);
  // 2000 launches of T on 80 columns: 25 per column.
  const dense = (await runCli(['schedule', '--batch', '200', '--k', '10', '--schemes', 'serial-dp'])).stdout;
  assert.match(dense, /^rank 0 +#{80} +idle 0%$/m);
  assert.match(dense, /# +several launches within one column/);
  // Long controller runs are told in seconds.
  const long = (await runCli(['schedule', '--latency', 'controller', '--batch', '100', '--k', '8', '--schemes', 'serial-dp'])).stdout;
  assert.match(long, /^serial-dp: \d+(\.\d+)? s, 1\.00× serial-dp$/m);
  assert.match(long, /^ +0 s +5 s +10 s +15 s +20 s +25 s$/m);
  assert.match(long, /^Fastest: serial-dp,/m, 'the conclusion names a scheme shown');
});
