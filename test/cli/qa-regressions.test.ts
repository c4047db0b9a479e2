// Defects a hostile QA pass found in the CLI (the CLI's promise: no input kills the process or
// prints a stack trace, every user mistake is one line on stderr with exit 2, Node = Deno bytes).
// The cases run in-process through main(argv, io), except a full disk's, which needs the process's own stdout.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { escapeControls, jsonValueText, quote } from '../../src/cli/flags.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { metricsUpTo } from '../../src/cli/train.ts';
import { buildLayout, validateConfig } from '../../src/core/samplers/index.ts';
import { DEFAULT_TRAIN, layoutConfigOf } from '../../src/train/config.ts';

const fixtures = fileURLToPath(new URL('../fixtures/bridge', import.meta.url));

async function run(args: string[], stdin?: string) {
  const io = memoryIo(stdin);
  const status = await main(args, io);
  return { status, stdout: io.stdout, stderr: io.stderr };
}

/** A user mistake: status 2, nothing on stdout, one line on stderr matching `message`, no longer than `max`. */
function mistake(r: { status: number; stdout: string; stderr: string }, message: RegExp, max = 400): void {
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.split('\n').length, 2, r.stderr);
  assert.ok(r.stderr.length <= max, `${r.stderr.length} characters: ${r.stderr.slice(0, 200)}`);
  assert.match(r.stderr, message);
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

test('a deeply nested or huge JSON value where a number belongs is named by its kind (was a stack overflow on Node, a flood on Deno)', async () => {
  mistake(await run(['loss'], `{"logp":${deep(50_000)}}`), /'logp'\[0\]\[0\] must be a finite number, got an array of 1$/m);
  mistake(
    await run(['loss'], `{"logp":[[0]],"oldLogp":[[0]],"advantages":["${'x'.repeat(100_000)}"]}`),
    /'advantages'\[0\] must be a finite number, got "x{40}…"$/m,
  );
  mistake(
    await run(['advantages', '--scheme', 'flow-grpo', '--k', '2'], `{"rewards":[1,0],"promptIds":[0,${deep(50_000)}]}`),
    /'promptIds\[1\]' must be a whole number, got an array of 1$/m,
  );
  mistake(
    await run(['loss'], `{"logp":[[0]],"oldLogp":[[0]],"advantages":[1],"settings":{"lossType":${deep(50_000)}}}`),
    /settings\.lossType must be one of .*, got an array of 1$/m,
  );
  assert.equal(jsonValueText({ a: 1 }), 'an object');
  assert.equal(jsonValueText(null), 'null');
});

test('schedule --policy: a deeply nested table is named by its kind (overflowed the stack), weights summing to Infinity are refused (were all 0)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grpo-qa-policy-'));
  const rest = `"insertion":[1,1,1,1,1],"topK":[1,1,1,1,1],"knob3":[${Array(16).fill(1).join(',')}]`;
  try {
    const deepPolicy = join(dir, 'deep.json');
    writeFileSync(deepPolicy, `{"tier":${deep(50_000)},${rest}}`);
    mistake(await run(['schedule', '--policy', deepPolicy]), /tier must be an array of 3 probabilities, got an array of 1$/m);
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, `{"tier":[1e308,1e308,1e308],${rest}}`);
    mistake(await run(['schedule', '--policy', huge]), /tier sums beyond the largest number \(1\.8e308\); scale its weights down$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('diff --log: a deeply nested or huge logged value is shown bounded (stack overflow on Node, a 100 kB line before)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grpo-qa-log-'));
  const header = readFileSync(join(fixtures, 'trl-identical.jsonl'), 'utf8').split('\n')[0];
  try {
    const deepLog = join(dir, 'deep.jsonl');
    writeFileSync(deepLog, `${header}\n{"step":${deep(50_000)},"rank":0,"ids":[1]}\n`);
    mistake(await run(['diff', '--log', deepLog]), /log line 2: field 'step' = an array of 1 must be an integer ≥ 0$/m);
    const longLog = join(dir, 'long.jsonl');
    writeFileSync(longLog, `${header}\n{"step":"${'x'.repeat(100_000)}","rank":0,"ids":[1]}\n`);
    mistake(await run(['diff', '--log', longLog]), /log line 2: field 'step' = "x{39}… must be an integer ≥ 0$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('advantages: rewards beyond float32 are refused, not printed as null advantages with status 0', async () => {
  const r = await run(['advantages', '--scheme', 'flow-grpo', '--k', '2'], '{"rewards":[1e308,-1e308,1,0],"promptIds":[0,0,1,1]}');
  mistake(r, /'rewards\[0\]' is 1e\+308, beyond float32's range/);
  const ok = await run(['advantages', '--scheme', 'flow-grpo', '--k', '2'], '{"rewards":[3e38,-3e38,1,0],"promptIds":[0,0,1,1]}');
  assert.equal(ok.status, 0, ok.stderr);
  assert.doesNotMatch(ok.stdout, /null/);
});

test('a UTF-8 byte-order mark before the JSON (Windows editors) is read as the same input', async () => {
  const batch = '{"logp":[[-1,-2]],"oldLogp":[[-1,-2]],"advantages":[1]}';
  const plain = await run(['loss'], batch);
  const bom = await run(['loss'], `\uFEFF${batch}`);
  assert.equal(plain.status, 0, plain.stderr);
  assert.deepEqual(bom, plain);
});

test("--input - (the Unix habit for stdin) says how stdin is read, not 'cannot read it (ENOENT)'", async () => {
  mistake(await run(['loss', '--input', '-'], '{}'), /--input '-': to read stdin, leave --input out and pipe the JSON in$/m);
  mistake(await run(['advantages', '--scheme', 'verl', '--k', '2', '--input', '-'], '{}'), /to read stdin, leave --input out/);
});

test('messages never carry a raw control character: DEL and C1 are escaped, and so is an unquoted ESC or CR', async () => {
  assert.equal(quote('\x7fELF'), "'\\u007fELF'");
  assert.equal(escapeControls('a\u009b31mb'), 'a\\u009b31mb');
  const r = await run(['loss'], '\x7fELF');
  mistake(r, /found '\\u007f'/);
  const preset = await run(['train', '--preset', 'a\x1bb\rc']);
  mistake(preset, /unknown --preset 'a\\u001bb\\rc'/);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
  assert.doesNotMatch(preset.stderr.slice(0, -1), /[\u0000-\u001f\u007f-\u009f]/);
});

test('train --resume of a damaged or foreign run: one line naming config.json, never the default run or a TypeError', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grpo-qa-resume-'));
  try {
    const cases: [string, RegExp][] = [
      ['[]', /config\.json is not a training run's config: it holds an array, not an object$/m],
      ['null', /config\.json is not a training run's config: it holds null, not an object$/m],
      ['{"dims": null}', /config\.json is not a training run's config: 'dims' must be an object, got null$/m],
      ['{"dims": {"dModel": 0, "hidden": 32}}', /'dims' must be \{dModel, hidden\}, each a whole number from 1 to 65536$/m],
      ['{"ranks": "x"}', /'ranks' must be a number, got a string$/m],
      ['{"foo": 1}', /'foo' is not a setting this grpo-sandbox knows \(a run of another version\?\)$/m],
      ['{"bankSize": 100000000000}', /config\.json is not a training run's config: dataset-size=100000000000 is above/],
      ['{"ranks": 1, "batch"', /config\.json is not valid JSON at line 1, column 21: expected ':', the input ends/],
    ];
    for (const [config, message] of cases) {
      writeFileSync(join(dir, 'config.json'), config);
      mistake(await run(['train', '--resume', dir]), message);
    }
    // The same for `schedule --policy RUN`, which reads a run's config.json too.
    writeFileSync(join(dir, 'config.json'), '{"dims": null}');
    writeFileSync(join(dir, 'checkpoint.json'), '{}');
    mistake(await run(['schedule', '--policy', dir]), /is not a training run's config \('dims' must be an object, got null\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("train --resume reads metrics.jsonl: a last line cut mid-write is redone, any other bad line is refused (was JSON.parse's stack trace)", () => {
  const rec = (step: number) =>
    JSON.stringify({
      step,
      rewardMean: 0.5,
      rewardStd: 0.1,
      optimumFraction: 0.6,
      zeroStdFraction: 0,
      loss: 0,
      kl: null,
      entropy: { tier: 1, insertion: 1, topK: 1, knob3: 1 },
      clipFraction: 0,
      gradNorm: 0.3,
      stepMs: 5,
    });
  const path = '/run/metrics.jsonl';
  assert.deepEqual(
    metricsUpTo(`${rec(1)}\n${rec(2)}\n${rec(3)}\n{"ste`, 2, path).map((m) => m.step),
    [1, 2],
  );
  assert.throws(() => metricsUpTo(`${rec(1)}\ngarbage{\n${rec(2)}\n`, 2, path), /metrics\.jsonl line 2 is not JSON/);
  assert.throws(() => metricsUpTo(`${rec(1)}\n{"step":2,"x":1}\n`, 2, path), /line 2 is not a step record \(no number 'rewardMean'\)/);
  assert.throws(() => metricsUpTo('[1]\n', 2, path), /line 1 is not a step record \(not an object\)/);
});

test('train --steps past the layout limit names the largest --steps that passes, not layout flags train does not have', async () => {
  const r = await run(['train', '--steps', '100000', '--ranks', '2', '--batch', '8', '--k', '4']);
  mistake(r, /--steps 100000 needs 100000 epochs of the flow-grpo sampler's layout: .*; use --steps \d+ or fewer$/m);
  assert.doesNotMatch(r.stderr, /epochs=|dataset-size=\d+$|try /);
  const suggested = Number(/use --steps (\d+) or fewer/.exec(r.stderr)![1]);
  const c = { ...DEFAULT_TRAIN, ranks: 2, batch: 8, k: 4 };
  const perEpoch = buildLayout(layoutConfigOf(c, 1)).steps.length;
  assert.equal(validateConfig(layoutConfigOf(c, suggested / perEpoch)), null, 'the suggestion passes the validator');
  assert.notEqual(validateConfig(layoutConfigOf(c, suggested / perEpoch + 1)), null, 'and is the largest that does');
});

test('schedule: open bounds read as words, not "between 5e-324 and Infinity"', async () => {
  mistake(await run(['schedule', '--config-time', '-1']), /--config-time must be a positive number, got -1$/m);
  mistake(await run(['schedule', '--gather-cost', '-1']), /--gather-cost must be a number ≥ 0, got -1$/m);
});

test('diff: a bad setting that came from the flags is not blamed on the logged settings alone', async () => {
  const log = join(fixtures, 'trl-identical.jsonl');
  mistake(
    await run(['diff', '--log', log, '--ranks', '100000', '--batch', '100000']),
    /the logged settings \(line 1\) with the flags given are not a valid sandbox configuration/,
  );
});

test('dynamic prints the same stdout under Node and Deno: no runtime name in it', async () => {
  const r = await run(['dynamic', '--ranks', '1', '--per-rank', '4', '--k', '4', '--p', '0.3', '--seed', '1']);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /worker_threads|Web Workers|Node|Deno/);
  assert.match(r.stdout, /^1 simulated rank \(a worker each\); policy fallback/m);
  assert.equal(r.stderr, '');
});

test('stdout on a full disk (> /dev/full): one line and status 1, no stack trace, on every command including dynamic', () => {
  if (!existsSync('/dev/full')) return;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const [cmd, pre] =
    'Deno' in globalThis ? ['node_modules/.bin/deno', ['run', '-A', '--no-check', 'src/cli/bin.ts']] : ['node', ['bin/grpo-sandbox.js']];
  for (const args of [['layout'], ['layout', '--json'], ['dynamic', '--ranks', '1', '--per-rank', '4'], ['--help']]) {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(cmd, [...pre, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', full, 'pipe'] });
      assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr, 'grpo-sandbox: cannot write to stdout (ENOSPC); the output is incomplete\n', args.join(' '));
    } finally {
      closeSync(full);
    }
  }
});
