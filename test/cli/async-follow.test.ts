// `grpo-sandbox async --follow PROMPT`: one prompt followed from generation into the update. What it says of generation is
// what `async --json` says of the same run; its weights are TRL's normalisers on the step's real token counts (dapo: the
// global token mean, 1 / the step's tokens; grpo: each completion's token mean over the step's completions). Runs under
// Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';

async function run(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const io = memoryIo();
  const status = await main(['async', ...args], io);
  return { status, stdout: io.stdout, stderr: io.stderr };
}

async function json(args: string[]) {
  const r = await run([...args, '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

interface Sample {
  prompt: number;
  index: number;
  length: number;
  version?: number;
  versions?: number[];
  lag: number;
  wait: number;
}

test('a trained prompt: the versions, wait, step and lag `async --json` has for it, then its place and weight in the update', async () => {
  const base = ['--framework', 'prime-rl', '--seed', '3'];
  const whole = await json(base);
  for (const prompt of [0, 9, 17]) {
    const step = whole.steps.find((s: { samples: Sample[] }) => s.samples.some((x) => x.prompt === prompt));
    assert.ok(step, `prompt ${prompt} is trained`);
    const mine: Sample[] = step.samples.filter((x: Sample) => x.prompt === prompt);
    const tokens = step.samples.reduce((n: number, x: Sample) => n + x.length, 0);
    for (const [loss, ranks] of [
      ['dapo', 1],
      ['dapo', 4],
      ['grpo', 2],
    ] as const) {
      const f = await json([...base, '--follow', String(prompt), '--ranks', String(ranks), '--loss', loss]);
      assert.equal(f.fate.kind, 'trained');
      assert.equal(f.fate.step, step.step);
      assert.equal(f.fate.lag, mine[0]!.lag);
      assert.equal(f.fate.loss, loss);
      const perRank = step.samples.length / ranks;
      for (const c of f.completions) {
        const x = mine.find((s) => s.index === c.index)!;
        assert.deepEqual(c.versions, x.versions ?? [x.version]);
        assert.equal(c.wait, x.wait);
        assert.equal(c.length, x.length);
        // Its rank: the step's completions in the rule's order, an equal block per rank.
        const at = step.samples.indexOf(step.samples.find((s: Sample) => s.prompt === prompt && s.index === c.index));
        assert.equal(c.rank, Math.floor(at / perRank));
        assert.equal(c.position, at % perRank);
        assert.equal(c.microStep, 0);
        const near = (a: number, b: number) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.abs(b), `${a} vs ${b}`);
        // TRL 1.13.0's dapo divides by the step's tokens over every rank (then DDP's mean × W cancel): the global token mean.
        if (loss === 'dapo') near(c.weight, 1 / tokens);
        // grpo: each completion's token mean, averaged over the step's completions.
        else near(c.weight * c.length, 1 / step.samples.length);
        near(c.intendedWeight, 1 / tokens);
      }
    }
  }
});

test('a dropped prompt says why, as `async --json` does, and trains nowhere', async () => {
  const base = ['--framework', 'trl-async', '--max-staleness', '0'];
  const whole = await json(base);
  const d = whole.dropped[0];
  const f = await json([...base, '--follow', String(d.prompt)]);
  assert.deepEqual(f.fate, { kind: 'dropped', why: d.why, detail: d.detail, atVersion: d.atVersion, time: d.time });
  assert.ok(f.completions.every((c: { weight: unknown }) => c.weight === null));
  const text = await run([...base, '--follow', String(d.prompt)]);
  assert.match(text.stdout, /^dropped at .*stale-at-consumption.*; it trains nowhere$/m);
});

test('the text names the worker, lane, versions and the weight', async () => {
  const r = await run(['--framework', 'areal', '--max-staleness', '2', '--follow', '5', '--ranks', '2']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^prompt 5 \(easy\) under areal \(rollout\.max_head_offpolicyness=2/);
  assert.match(r.stdout, /^ {2}completion 0: worker \d lane \d, [\d.]+–[\d.]+ s, \d+ tokens, version \d, waited [\d.]+ s$/m);
  assert.match(r.stdout, /^trained at step \d+ \(trainer version \d+, starts [\d.]+ s\): lag \d+ \(/m);
  assert.match(
    r.stdout,
    /^ {2}completion 0: rank \d, micro-batch 0 position \d+, \d+ tokens × weight [\d.]+e-\d per token = [\d.]+ of the update/m,
  );
});

test('--follow refusals, one line each', async () => {
  const cases: [string[], RegExp][] = [
    [['--framework', 'areal', '--ranks', '2'], /--ranks goes with --follow PROMPT/],
    [['--compare', 'areal,skyrl', '--follow', '1'], /not --compare/],
    [['--framework', 'areal', '--follow', '300'], /dispatched prompts 0–\d+ in its 8 steps/],
    [['--framework', 'areal', '--follow', '3', '--ranks', '3'], /3 ranks cannot share equally/],
    [['--framework', 'areal', '--follow', '3', '--steps-framework', 'verl-b178a3c'], /--steps-framework takes one of trl-1\.13\.0/],
    [['--framework', 'areal', '--follow', 'x'], /follow/],
  ];
  for (const [args, want] of cases) {
    const r = await run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, want, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
