// train --async with the user's own simulation: the async command's workload flags and each framework's own rule keys,
// read by the async command's readers, change which version generated each row exactly as `grpo-sandbox async` with
// the same flags says (its --json, run as a command); flags the chosen rule does not read are refused in one line, as
// facts said in en and zh-CN. Runs under Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { trainConfigFromArgs } from '../../src/cli/train.ts';
import { asyncPlanOf, asyncRunOf, stepLag } from '../../src/train/async-plan.ts';
import { asyncCommandOf } from '../../src/train/async-settings.ts';
import { trainConfigFromJson } from '../../src/train/config.ts';
import { trainConfigFrom, trainSettingTexts } from '../../src/train/settings.ts';
import { train } from '../../src/train/run.ts';
import { clausesText, type SaidFact } from '../../src/ui/core-text.ts';
import { loadCatalogue, setLang } from '../../src/ui/i18n/index.ts';
import { formFields, trainRequest } from '../../src/ui/train/train-request.ts';

await loadCatalogue('zh-CN');

/** A small run: 2 ranks × 8 rows, k 4 (4 prompts a step), 8 steps, seed 0. */
const RUN = ['--ranks', '2', '--batch', '8', '--k', '4', '--sampler', 'contiguous', '--steps', '8', '--lr', '0.05'];
/** The same simulation's workload as the async command's own flags (the run's prompts per step, k, steps and seed). */
const SAME_RUN = ['--train-batch-size', '4', '--k', '4', '--steps', '8', '--seed', '0'];

/** Each step's mean lag (trainer version − the version that decoded each completion's first token), from `async --json`. */
async function asyncLags(flags: string[]): Promise<number[]> {
  const io = memoryIo();
  assert.equal(await main(['async', ...flags, ...SAME_RUN, '--json'], io), 0, io.stderr);
  const out = JSON.parse(io.stdout) as {
    steps: { version: number; samples: { version?: number; versions?: number[] }[] }[];
  };
  return out.steps.map((s) => s.samples.reduce((sum, x) => sum + s.version - (x.version ?? x.versions![0]!), 0) / s.samples.length);
}

/** Each step's mean lag as `train --async` with these flags plans it. */
function trainLags(flags: string[]): number[] {
  const c = trainConfigFromArgs([...RUN, ...flags]);
  return asyncPlanOf(c, asyncRunOf(c)).steps.map((rows, t) => stepLag(rows, t).mean);
}

test('a workload flag changes the lags train --async trains on exactly as `async` with the same flags says', async () => {
  const cases: [string, string[]][] = [
    ['prime-rl', []],
    ['prime-rl', ['--tokens-per-second', '1000']],
    ['areal', ['--max-staleness', '2']],
    ['areal', ['--max-staleness', '2', '--step-time', '1']],
    ['areal', ['--max-staleness', '2', '--gen-workers', '1', '--concurrency', '2']],
    ['trl-async', ['--length-distribution', 'uniform']],
    ['trl-async', ['--train-tokens-per-second', '200']],
  ];
  const seen = new Map<string, string>();
  for (const [framework, flags] of cases) {
    const args = ['--framework', framework, ...flags];
    const want = await asyncLags(args);
    assert.deepEqual(trainLags(['--async', framework, ...flags]), want, args.join(' '));
    seen.set(args.join(' '), JSON.stringify(want));
  }
  // Each flag moved the lags away from the framework's run without it.
  assert.notEqual(seen.get('--framework prime-rl --tokens-per-second 1000'), seen.get('--framework prime-rl'));
  assert.notEqual(seen.get('--framework areal --max-staleness 2 --step-time 1'), seen.get('--framework areal --max-staleness 2'));
  assert.notEqual(
    seen.get('--framework areal --max-staleness 2 --gen-workers 1 --concurrency 2'),
    seen.get('--framework areal --max-staleness 2'),
  );
  // The training run's own per-step lag is the plan's (one run, the fast generator: lags 0 … 7).
  const c = trainConfigFromArgs([...RUN, '--async', 'prime-rl', '--tokens-per-second', '1000']);
  const result = await train({ config: c });
  assert.deepEqual(
    result.metrics.map((m) => m.async?.meanLag),
    await asyncLags(['--framework', 'prime-rl', '--tokens-per-second', '1000']),
  );
  assert.equal(result.async?.maxLag, 7);
});

test("a rule's own key (NeMo RL's sampler policy) changes the plan, as `async --sampler-policy` says", async () => {
  const windowed = trainConfigFromArgs([...RUN, '--async', 'nemo-rl']);
  const inOrder = trainConfigFromArgs([...RUN, '--async', 'nemo-rl', '--sampler-policy', 'in_order']);
  assert.deepEqual(inOrder.asyncSettings, { 'sampler-policy': 'in_order' });
  const a = asyncRunOf(windowed);
  const b = asyncRunOf(inOrder);
  assert.equal(a.settings['async_rl.sampler.name'], 'windowed');
  assert.equal(b.settings['async_rl.sampler.name'], 'in_order');
  assert.ok(a.dropped.length > 0 && b.dropped.length === 0, 'windowed evicts, in_order keeps every group');
  assert.notDeepEqual(asyncPlanOf(inOrder, b).steps, asyncPlanOf(windowed, a).steps);
  assert.deepEqual(
    trainLags(['--async', 'nemo-rl', '--sampler-policy', 'in_order']),
    await asyncLags(['--framework', 'nemo-rl', '--sampler-policy', 'in_order']),
  );
  // The async command the run names is the same simulation, byte for byte.
  const io = memoryIo();
  assert.equal(await main(['async', ...asyncCommandOf(inOrder), '--json'], io), 0, io.stderr);
  const { workload: _, ...printed } = JSON.parse(io.stdout);
  assert.deepEqual(printed, JSON.parse(JSON.stringify(b)));
});

test('the settings travel in the link and the form shows the ones the chosen rule reads', () => {
  const given = { async: 'nemo-rl', 'sampler-policy': 'ready_first', 'gen-workers': '3', 'max-staleness': '2' };
  const c = trainRequest(given);
  assert.deepEqual(c.asyncSettings, { 'gen-workers': '3', 'sampler-policy': 'ready_first' });
  const texts = trainSettingTexts(c);
  assert.deepEqual(
    trainConfigFrom((key) => Object.fromEntries(texts)[key]),
    c,
  );
  // Only the given ones are written out (a link made before a default changes still means the same run).
  assert.ok(!texts.some(([k]) => k === 'concurrency' || k === 'max-inflight'));
  const shown = formFields({}, 'nemo-rl');
  assert.ok(
    ['max-staleness', 'sampler-policy', 'max-lookahead-versions', 'gen-workers', 'length-distribution'].every((f) => shown.includes(f)),
  );
  assert.ok(!shown.includes('max-inflight') && !shown.includes('trigger-parameter-sync-step'));
  const off = formFields({}, null);
  assert.ok(!off.includes('gen-workers') && !off.includes('sampler-policy') && !off.includes('max-staleness'));
  assert.ok(formFields({ 'max-inflight': '4' }, 'nemo-rl').includes('max-inflight'), 'a given setting stays in sight');
  // A run's config.json keeps them as text; anything else there is refused in one line.
  assert.deepEqual(trainConfigFromJson(JSON.parse(JSON.stringify(c))), c);
  for (const asyncSettings of [{ nope: '1' }, { 'gen-workers': 3 }, ['gen-workers']])
    assert.throws(() => trainConfigFromJson({ asyncSettings }), /'asyncSettings' must map/);
});

test('a simulation setting the chosen rule does not read is refused in one line, said as a fact in en and zh-CN', async () => {
  const refused: [string[], RegExp][] = [
    [['--gen-workers', '2'], /^--gen-workers is a setting of the asynchronous simulation: it goes with --async FRAMEWORK$/],
    [
      ['--async', 'areal', '--sampler-policy', 'in_order'],
      /^--sampler-policy is not areal's setting \(it is nemo-rl's\); areal reads --max-staleness/,
    ],
    [
      ['--async', 'slime', '--max-inflight', '4'],
      /^--max-inflight is not slime's setting \(it is prime-rl's\); slime reads --sglang-server-concurrency/,
    ],
    // The async command's readers, with its words.
    [['--async', 'nemo-rl', '--sampler-policy', 'nope'], /--sampler-policy \(nemo-rl's async_rl\.sampler\.name\) takes one of/],
    [['--async', 'nemo-rl', '--sampler-policy', 'custom'], /outside code/],
    [['--async', 'areal', '--gen-workers', '0'], /--gen-workers must be between 1 and 4096/],
    [['--async', 'areal', '--length-distribution', 'zipf'], /unknown --length-distribution 'zipf'/],
    [['--async', 'areal', '--train-tokens-per-second', '5', '--step-time', '3'], /give exactly one of --step-time/],
    [['--async', 'verl', '--partial-rollout', 'maybe'], /takes true or false/],
  ];
  for (const [args, want] of refused) {
    const io = memoryIo();
    assert.equal(await main(['train', ...RUN, ...args], io), 2, args.join(' '));
    const line = io.stderr.replace(/^grpo-sandbox train: /, '').trimEnd();
    assert.match(line, want, args.join(' '));
    assert.equal(line.split('\n').length, 1, io.stderr);
    // The async command says the reader's refusals in the same words.
    if (args[0] === '--async' && !/not .*'s setting/.test(line)) {
      const asyncIo = memoryIo();
      assert.equal(await main(['async', '--framework', ...args.slice(1)], asyncIo), 2);
      assert.equal(asyncIo.stderr.replace(/^grpo-sandbox async: /, '').trimEnd(), line);
    }
  }
  // The two refusals of their own are facts: the page says them without the CLI's dashes, in English and Chinese.
  for (const values of [{ 'gen-workers': '2' }, { async: 'areal', 'sampler-policy': 'in_order' }]) {
    let clauses: readonly SaidFact[] | null = null;
    try {
      trainRequest(values);
    } catch (err) {
      clauses = (err as { clauses: readonly SaidFact[] | null }).clauses;
    }
    assert.ok(clauses && clauses.length === 1, JSON.stringify(values));
    assert.doesNotMatch(clausesText(clauses, true), /--/);
    await setLang('zh-CN');
    try {
      assert.match(clausesText(clauses, true), /异步模拟|不是 areal 的设置/);
    } finally {
      await setLang('en');
    }
  }
});

test("a trainer packer's settings (TRL async's token_budget) are the async command's only: train --async trains every admitted sample", async () => {
  const io = memoryIo();
  const status = await main(['train', '--preset', 'seed-000', '--steps', '2', '--async', 'trl-async', '--token-budget', '300'], io);
  assert.equal(status, 2);
  assert.match(io.stderr, /unknown flag '--token-budget'/);
  const viaAsync = memoryIo();
  assert.equal(await main(['async', '--framework', 'trl-async', '--token-budget', '300', '--steps', '2'], viaAsync), 0, viaAsync.stderr);
});
