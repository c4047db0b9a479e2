// Fuzz: seeded random flag sets, extreme and malformed values included, for every command, on
// Node and on Deno (npm test runs this file under both). Most calls run in this process through
// the CLI's own entry `main(argv, io)` with a memory io; a handful are real processes. Asserted
// for every call: status 0, 1 or 2; exactly one stderr line for 2 and nothing on stdout; no stack
// trace; JSON stdout parses; each call within its wall-clock bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { commands } from '../../src/cli/commands.ts';
import { runCli, runCliDeno, type CliResult } from '../helpers/cli.ts';

const SEED = 20261122;
const IN_PROCESS_CALLS = 160;
/** Per call, in-process (generous: a loaded 2-core machine) and spawned (process start included). */
const BOUND_MS = 20_000;

/** mulberry32: a small seeded generator, so a failure names a reproducible case. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = [
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '8',
  '16',
  '-1',
  '-5',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  '9007199254740993',
  'NaN',
  'Infinity',
];
const MALFORMED = ['', ' ', 'abc', '__proto__', 'constructor', 'toString', '--json', '-x', '\n', 'a\nb', 'x'.repeat(300), '√', '{}'];

const FLAGS: Record<string, { values: string[]; booleans: string[]; names: string[] }> = {
  layout: {
    names: [
      'sampler',
      'ranks',
      'batch',
      'k',
      'batches-per-epoch',
      'epochs',
      'dataset-size',
      'seed',
      'steps-per-generation',
      'num-iterations',
      'preset',
      'generation-batch-size',
    ],
    values: ['flow-grpo', 'flow-grpo-lcm', 'trl', 'contiguous', 'dance-grpo', 'group-distributed', 'seed-000', 'seed-002', 'seed-004'],
    booleans: ['json', 'help'],
  },
  loss: { names: ['backend', 'input'], values: ['cpu', '/nonexistent.json', '.', 'package.json'], booleans: ['help'] },
  ranks: {
    names: ['world', 'fault', 'timeout-ms'],
    values: ['none', 'shape', 'deadlock', 'mismatch', 'device', 'throw', '300'],
    booleans: ['fix', 'json', 'help'],
  },
};

function flagSet(command: string, r: () => number): string[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const spec = FLAGS[command]!;
  const args: string[] = [];
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    const roll = r();
    if (roll < 0.12) args.push(`--${pick(spec.booleans)}`);
    else if (roll < 0.16)
      args.push(pick(MALFORMED)); // a stray word or a bad flag
    else if (roll < 0.19)
      args.push(`--${pick(spec.names)}`); // a missing value
    else {
      const pool = r() < 0.45 ? NUMBERS : r() < 0.6 ? spec.values : MALFORMED;
      const value = pick(pool);
      args.push(...(r() < 0.2 ? [`--${pick(spec.names)}=${value}`] : [`--${pick(spec.names)}`, value]));
    }
  }
  // Often a repeated flag.
  if (args.length && r() < 0.1) args.push(args[0]!);
  return args;
}

/** A loss input: valid batches with extreme numbers, malformed JSON, wrong shapes. */
function lossInput(r: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const num = () => pick([0, -1, 1, -0.5, 88.8, -99.9, 1e30, -1e30, 3e38, 1e39, 1e-45, 5]);
  const rows = 1 + Math.floor(r() * 3);
  const tokens = 1 + Math.floor(r() * 3);
  const m = () => Array.from({ length: rows }, () => Array.from({ length: tokens }, num));
  const batch: Record<string, unknown> = { logp: m(), oldLogp: m(), advantages: Array.from({ length: rows }, num) };
  if (r() < 0.3) batch.refLogp = m();
  if (r() < 0.4)
    batch.settings = { lossType: pick(['grpo', 'bnpo', 'dr_grpo', 'dapo', 'pairwise', 'nope']), beta: pick([0, 0.04, 1e30, -1]) };
  if (r() < 0.2) batch.rewards = Array.from({ length: rows }, num);
  if (r() < 0.1) batch.mask = m();
  const text = JSON.stringify(batch);
  const roll = r();
  if (roll < 0.1) return text.slice(0, Math.floor(r() * text.length)); // truncated
  if (roll < 0.15) return text.replace(',', ',\n]'); // a syntax error on line 2
  if (roll < 0.2) return pick(['', '[]', 'null', '"x"', '{"logp":', '[[[[[[', '{"__proto__":{}}']);
  return text;
}

function checkResult(what: string, res: CliResult, elapsed: number, bound: number): void {
  assert.ok(res.status === 0 || res.status === 1 || res.status === 2, `${what}: status ${res.status}\n${res.stderr}`);
  assert.ok(elapsed < bound, `${what}: took ${elapsed.toFixed(0)} ms (bound ${bound})`);
  assert.doesNotMatch(res.stderr, /^\s+at .+(:\d+|\(native\))/m, `${what}: a stack trace\n${res.stderr}`);
  assert.doesNotMatch(res.stdout, /^\s+at .+:\d+/m, `${what}: a stack trace on stdout`);
  if (res.status === 2) {
    assert.equal(res.stdout, '', `${what}: stdout on a mistake`);
    assert.equal(res.stderr.split('\n').length, 2, `${what}: not one line on stderr:\n${res.stderr}`);
  }
  if (what.includes('--json') && res.status !== 2 && res.stdout) {
    assert.doesNotThrow(() => JSON.parse(res.stdout), `${what}: --json stdout does not parse`);
  }
}

test(`fuzz in-process: ${IN_PROCESS_CALLS} seeded calls of layout, loss and ranks through main(argv, io)`, async () => {
  const r = rng(SEED);
  for (let i = 0; i < IN_PROCESS_CALLS; i++) {
    // ranks starts real workers: a few calls only.
    const command = i % 40 === 39 ? 'ranks' : r() < 0.5 ? 'layout' : 'loss';
    const args = [command, ...flagSet(command, r)];
    if (command === 'ranks') args.push('--world', '2', '--timeout-ms', '500');
    const stdin = command === 'loss' ? lossInput(r) : undefined;
    const io = memoryIo(stdin);
    const what = `#${i} ${JSON.stringify(args)}${stdin === undefined ? '' : ` stdin ${JSON.stringify(stdin.slice(0, 80))}`}`;
    const t0 = performance.now();
    let status: number;
    try {
      status = await main(args, io);
    } catch (err) {
      assert.fail(`${what}: threw ${(err as Error).stack}`);
    }
    checkResult(what, { status, stdout: io.stdout, stderr: io.stderr }, performance.now() - t0, BOUND_MS);
  }
});

test('fuzz as processes: every registered command, a few seeded flag sets each', () => {
  const r = rng(SEED + 1);
  const cli = 'Deno' in globalThis ? runCliDeno : runCli;
  const bound = 60_000;
  for (const command of Object.keys(commands)) {
    // Commands without a flag table here (added by others) get the generic malformed values.
    const spec = FLAGS[command] ?? { names: ['ranks', 'k', 'seed', 'json'], values: [], booleans: ['json', 'help'] };
    FLAGS[command] ??= spec;
    for (let j = 0; j < 1; j++) {
      const args = [command, ...flagSet(command, r)];
      const t0 = performance.now();
      const res = cli(args, command === 'loss' ? lossInput(r) : '');
      checkResult(JSON.stringify(args), res, performance.now() - t0, bound);
    }
  }
});
