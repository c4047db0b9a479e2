// Fuzz: seeded random flag sets over each command's real flags, extreme and malformed values included, on
// Node and on Deno (npm test runs this file under both). Most calls run in this process through
// the CLI's own entry `main(argv, io)` with a memory io; a handful are real processes. Asserted
// for every call: status 0, 1 or 2; exactly one stderr line for 2 and nothing on stdout; no stack
// trace; JSON stdout parses; each call within its wall-clock bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { commands } from '../../src/cli/commands.ts';
import { type CliResult, runCliProcess } from '../helpers/cli.ts';

const SEED = 20261122;
const IN_PROCESS_CALLS = 240;
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

/** Small values for commands that start workers (ranks, train, dynamic): refused or tiny, never a long run. */
const SMALL = ['0', '1', '2', '3', '4', '-1', '1.5', '1e3', '0x10', '99999999999999999999', 'NaN', 'Infinity'];

interface FlagTable {
  /** The command's real flags that take a value. */
  names: string[];
  /** Words that mean something to it (sampler, scheme, policy names…). */
  values: string[];
  booleans: string[];
  /** Flags whose values come only from their own list: file outputs (never a stray word that would write into the tree). */
  only?: Record<string, string[]>;
  /** Numbers from SMALL instead of NUMBERS. */
  small?: boolean;
  /** Flags added when not drawn (so a drawn one is never given twice): what keeps a worker command tiny. */
  fixed?: Record<string, string>;
}

const LAYOUT_NAMES = [
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
  'gradient-accumulation-steps',
  'preset',
  'generation-batch-size',
];
const SAMPLERS = ['flow-grpo', 'flow-grpo-lcm', 'trl', 'contiguous', 'dance-grpo', 'group-distributed'];
const POLICY_NAMES = ['fallback', 'pad', 'rebalance', 'raise', 'raise-nemo', 'stream', 'naive'];

const FLAGS: Record<string, FlagTable> = {
  layout: { names: LAYOUT_NAMES, values: [...SAMPLERS, 'seed-000', 'seed-002', 'seed-004', 'verl', 'trl'], booleans: ['json', 'help'] },
  loss: { names: ['backend', 'input'], values: ['cpu', '/nonexistent.json', '.', 'package.json'], booleans: ['help'] },
  advantages: {
    names: ['scheme', 'k', 'ranks', 'input'],
    values: ['flow-grpo', 'trl-group', 'trl-batch', 'trl-none', 'verl', 'dance', '/nonexistent.json', 'package.json'],
    booleans: ['help'],
  },
  schedule: {
    names: [
      'preset',
      'ranks',
      'batch',
      'k',
      'latency',
      'config-time',
      'policy',
      'seed',
      'alpha',
      'max-batch',
      'gather-cost',
      'schemes',
      'width',
      'html',
    ],
    values: [
      'seed-001',
      'constant',
      'controller',
      'uniform',
      'none',
      'spread,serial-dp',
      'by-structure',
      'package.json',
      '0.5',
      '/nonexistent',
    ],
    booleans: ['json', 'help'],
    only: { html: ['', '/proc/grpo-fuzz/x.html'] },
  },
  diff: {
    names: ['log', ...LAYOUT_NAMES],
    values: [
      ...SAMPLERS,
      'test/fixtures/bridge/trl-identical.jsonl',
      'test/fixtures/bridge/flow-grpo-wrong-seed.jsonl',
      'package.json',
      '/nonexistent',
    ],
    booleans: ['json', 'help'],
  },
  async: {
    names: [
      'framework',
      'compare',
      'max-staleness',
      'sampler-policy',
      'gen-workers',
      'concurrency',
      'tokens-per-second',
      'train-batch-size',
      'k',
      'step-time',
      'lengths',
      'length-distribution',
      'seed',
    ],
    values: [
      'areal',
      'nemo-rl',
      'trl-async',
      'slime',
      'areal,slime',
      'windowed',
      'in_order',
      'custom',
      'bimodal',
      'long-tail',
      'package.json',
      '/nonexistent',
    ],
    booleans: ['json', 'help'],
    small: true,
    fixed: { steps: '2' },
  },
  steps: {
    names: [...LAYOUT_NAMES, 'framework', 'loss', 'lengths', 'max-completion-length', 'micro-batch', 'show'],
    values: [
      ...SAMPLERS,
      'trl-1.13.0',
      'trl-1.9.0',
      'ms-swift-efd0a54',
      'verl-b178a3c',
      'flow_grpo-ac4c86e',
      'dapo',
      'bnpo',
      'token-mean',
      'seq-mean-token-sum-norm',
      'package.json',
      '/nonexistent',
    ],
    booleans: ['json', 'help'],
  },
  ranks: {
    names: ['world', 'fault', 'timeout-ms'],
    values: ['none', 'shape', 'deadlock', 'mismatch', 'device', 'throw', '300'],
    booleans: ['fix', 'json', 'help'],
    small: true,
    fixed: { world: '2', 'timeout-ms': '500' },
  },
  train: {
    names: [
      'preset',
      'ranks',
      'batch',
      'k',
      'sampler',
      'advantage',
      'loss',
      'epsilon-low',
      'epsilon-high',
      'beta',
      'lr',
      'steps',
      'reward',
      'seed',
      'backend',
      'dynamic-sampling',
      'max-resample-times',
      'filter-metric',
      'out',
      'resume',
    ],
    values: [
      ...SAMPLERS,
      ...POLICY_NAMES,
      'seed-000',
      'seed-003',
      'dapo',
      'grpo',
      'pairwise',
      'dense',
      'sparse',
      'cpu',
      'reward',
      'accuracy',
      'verl',
    ],
    booleans: ['json', 'help', 'overwrite'],
    small: true,
    // --out and --resume only where nothing can be created or read.
    only: { out: ['', '/proc/grpo-fuzz'], resume: ['', '/nonexistent-run', '/proc'] },
    fixed: { steps: '1', ranks: '1', batch: '2', k: '2', sampler: 'contiguous', backend: 'cpu' },
  },
  dynamic: {
    names: ['preset', 'policy', 'ranks', 'per-rank', 'k', 'max-resample-times', 'p', 'seed', 'device-fix', 'range', 'timeout-ms'],
    values: [...POLICY_NAMES, 'seed-002', 'seed-004', 'on', 'off', '0,1', '0.5', '1,0'],
    booleans: ['json', 'help'],
    small: true,
    fixed: { ranks: '2', 'per-rank': '4', k: '2', 'timeout-ms': '2000' },
  },
};

/** Whether `args` already gives `--flag` (as `--flag v` or `--flag=v`). */
const gives = (args: readonly string[], flag: string) => args.some((a) => a === `--${flag}` || a.startsWith(`--${flag}=`));

/** A random flag set for `command` over its real flags: extreme, malformed, missing and repeated values. */
function drawFlags(command: string, r: () => number): string[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const spec = FLAGS[command]!;
  const args: string[] = [];
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    const roll = r();
    const name = pick(spec.names);
    if (roll < 0.12) args.push(`--${pick(spec.booleans)}`);
    else if (roll < 0.16)
      args.push(pick(MALFORMED)); // a stray word or a bad flag
    else if (roll < 0.19)
      // A missing value; for a file output an empty one, so a stray word after it never becomes a path to write.
      args.push(spec.only?.[name] ? `--${name}=` : `--${name}`);
    else {
      const own = spec.only?.[name];
      const pool = own ?? (r() < 0.45 ? (spec.small ? SMALL : NUMBERS) : r() < 0.6 ? spec.values : MALFORMED);
      const value = pick(pool);
      args.push(...(r() < 0.2 ? [`--${name}=${value}`] : [`--${name}`, value]));
    }
  }
  // Often a repeated flag (a value-less repeat of the first token).
  if (args.length && r() < 0.1) args.push(args[0]!);
  return args;
}

/** `args` with what keeps a worker command tiny, only where the draw did not give it (a drawn --world stays the only one). */
function withFixed(command: string, args: string[]): string[] {
  const out = [...args];
  for (const [flag, value] of Object.entries(FLAGS[command]!.fixed ?? {})) if (!gives(args, flag)) out.push(`--${flag}`, value);
  return out;
}

const flagSet = (command: string, r: () => number) => withFixed(command, drawFlags(command, r));

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

/** An advantages input: rewards and prompt ids with extreme, fractional, negative and missing entries, or malformed JSON. */
function advantagesInput(r: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const n = pick([0, 1, 2, 4, 6, 8, 12]);
  const batch: Record<string, unknown> = {
    rewards: Array.from({ length: n }, () => pick([0, 1, -1, 0.5, 1e308, -1e308, 5e-324, 3])),
    promptIds: Array.from({ length: n }, (_, i) => (r() < 0.9 ? Math.floor(i / 2) : pick([-1, 1.5, 1e300, 2 ** 53 + 2]))),
  };
  if (r() < 0.1) batch.promptIds = (batch.promptIds as number[]).slice(1);
  if (r() < 0.05) delete batch.rewards;
  const text = JSON.stringify(batch);
  const roll = r();
  if (roll < 0.1) return text.slice(0, Math.floor(r() * text.length));
  if (roll < 0.15) return pick(['', '[]', 'null', '{"rewards":[NaN]}', '{"rewards":"x","promptIds":[]}', '{"__proto__":{"rewards":[1]}}']);
  return text;
}

/** The stdin a command reads, if any. */
const stdinFor = (command: string, r: () => number) =>
  command === 'loss' ? lossInput(r) : command === 'advantages' ? advantagesInput(r) : undefined;

function checkResult(what: string, res: CliResult, elapsed: number, bound: number): void {
  assert.ok(res.status === 0 || res.status === 1 || res.status === 2, `${what}: status ${res.status}\n${res.stderr}`);
  assert.ok(elapsed < bound, `${what}: took ${elapsed.toFixed(0)} ms (bound ${bound})`);
  assert.doesNotMatch(res.stderr, /^\s+at .+(:\d+|\(native\))/m, `${what}: a stack trace\n${res.stderr}`);
  assert.doesNotMatch(res.stdout, /^\s+at .+:\d+/m, `${what}: a stack trace on stdout`);
  if (res.status === 2) {
    assert.equal(res.stdout, '', `${what}: stdout on a mistake`);
    assert.equal(res.stderr.split('\n').length, 2, `${what}: not one line on stderr:\n${res.stderr}`);
  }
  // --help wins over --json (usage is text, as for every command).
  if (what.includes('--json') && !/"(--help|-h)"/.test(what) && res.status !== 2 && res.stdout) {
    assert.doesNotThrow(() => JSON.parse(res.stdout), `${what}: --json stdout does not parse`);
  }
}

/** Commands that start workers: a few draws each, kept tiny by their fixed flags. */
const WORKER_COMMANDS = ['ranks', 'train', 'dynamic'];
const LIGHT_COMMANDS = ['layout', 'loss', 'advantages', 'schedule', 'diff'];

test('the fuzz knows every registered command by its real flags', () => {
  assert.deepEqual(Object.keys(FLAGS).sort(), Object.keys(commands).sort());
});

test(`fuzz in-process: ${IN_PROCESS_CALLS} seeded calls of every command through main(argv, io)`, async () => {
  const r = rng(SEED);
  for (let i = 0; i < IN_PROCESS_CALLS; i++) {
    // Worker commands start real workers (0.3–2 s each): every 12th call, in turn.
    const command = i % 12 === 11 ? WORKER_COMMANDS[Math.floor(i / 12) % WORKER_COMMANDS.length]! : LIGHT_COMMANDS[Math.floor(r() * 5)]!;
    const args = [command, ...flagSet(command, r)];
    const stdin = stdinFor(command, r);
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

test('fuzz in-process: 80 seeded calls of steps (its own draws, so the other commands keep theirs)', async () => {
  const r = rng(SEED + 3);
  for (let i = 0; i < 80; i++) {
    const args = ['steps', ...flagSet('steps', r)];
    const io = memoryIo();
    const what = `#${i} ${JSON.stringify(args)}`;
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

test('a drawn --world is the only one: the fixed flags are added only where the draw did not give them (it said "given twice")', () => {
  const r = rng(SEED + 2);
  const count = (args: string[], flag: string) => args.filter((a) => a === `--${flag}` || a.startsWith(`--${flag}=`)).length;
  let drawn = 0;
  for (let i = 0; i < 300; i++) {
    const raw = drawFlags('ranks', r);
    const full = withFixed('ranks', raw);
    for (const flag of ['world', 'timeout-ms']) assert.equal(count(full, flag), Math.max(1, count(raw, flag)), full.join(' '));
    if (count(raw, 'world') > 0) drawn++;
  }
  assert.ok(drawn > 20, `only ${drawn} draws gave --world`);
});

test('fuzz as processes: every registered command, a few seeded flag sets each', () => {
  const r = rng(SEED + 1);
  const cli = runCliProcess;
  const bound = 60_000;
  for (const command of Object.keys(commands)) {
    const args = [command, ...flagSet(command, r)];
    const t0 = performance.now();
    const res = cli(args, stdinFor(command, r) ?? '');
    checkResult(JSON.stringify(args), res, performance.now() - t0, bound);
  }
  // dynamic --sweep is fuzzed here only, with a tiny study.
  const sweep = ['--ps', '--policies', '--trials', '--runs', '--budget', '--lr'];
  const args = ['dynamic', '--sweep', '--trials', '2', '--runs', '1', '--budget', '2', '--ps', '0.5'];
  const flag = sweep[Math.floor(r() * sweep.length)]!;
  const drawn = [flag, String([SMALL[Math.floor(r() * SMALL.length)], 'fallback,naive', '0.1,2', ''][Math.floor(r() * 4)])];
  const t0 = performance.now();
  const res = cli(args.filter((a, j) => !(a === flag || args[j - 1] === flag)).concat(drawn, r() < 0.5 ? ['--json'] : []), '');
  checkResult(JSON.stringify(args), res, performance.now() - t0, bound);
});
