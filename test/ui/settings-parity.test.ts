// One table per feature: the CLI command, the URL and the element accept exactly the same keys,
// and each key the same values with the same result (the same configuration, or the same
// one-line refusal). The only differences allowed are budgets, which each side states in its own
// words: the page's drawing budget ("this view draws"), the CLI's memory/time budget ("would need").
// The keys and values come from the tables, so a row added later is checked with no edit here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DYNAMIC_SETTINGS } from '../../src/core/dynamic/settings.ts';
import { SCHEDULE_SETTINGS } from '../../src/core/schedule/settings.ts';
import type { Setting } from '../../src/core/setting.ts';
import { dynamicRequestFromArgs } from '../../src/cli/dynamic.ts';
import { requestFromFlags as scheduleFromArgs } from '../../src/cli/schedule.ts';
import { trainConfigFromArgs } from '../../src/cli/train.ts';
import { MAX_WORLD } from '../../src/ranks/arena.ts';
import { ruleOwners } from '../../src/train/async-settings.ts';
import { isAsyncRow, TRAIN_SETTINGS } from '../../src/train/settings.ts';
import { runCli } from '../helpers/cli.ts';
import { DYNAMIC_ATTRIBUTES, dynamicRequest } from '../../src/ui/dynamic/dynamic-request.ts';
import { SCHEDULE_ATTRIBUTES, scheduleRequest } from '../../src/ui/schedule/schedule-request.ts';
import { TRAIN_ATTRIBUTES, trainRequest } from '../../src/ui/train/train-request.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromFlags } from '../../src/cli/layout.ts';
import { stepsJson } from '../../src/cli/steps.ts';
import { presets } from '../../src/core/presets.ts';
import type { LayoutConfig } from '../../src/core/layout/types.ts';
import { buildLayout, defaultConfig, samplerNames, samplers } from '../../src/core/samplers/index.ts';
import { LAYOUT_INPUTS, layoutArgs } from '../../src/core/samplers/settings.ts';
import { LAYOUT_SETTINGS, type LayoutSetting } from '../../src/core/settings.ts';
import { buildSteps } from '../../src/core/steps/index.ts';
import { STEPS_INPUTS } from '../../src/core/steps/settings.ts';
import { STEPS_ATTRIBUTES, stepsRequest } from '../../src/ui/steps/steps-request.ts';
import { parseState } from '../../src/ui/url-state.ts';

type Outcome = { ok: string } | { refused: string };

/** What a parse did: the result as JSON (functions dropped), or the refusal's message. */
async function outcome(parse: () => unknown): Promise<Outcome> {
  try {
    return { ok: JSON.stringify(await parse()) };
  } catch (err) {
    if ((err as Error).name !== 'ConfigError') throw err;
    return { refused: (err as Error).message };
  }
}

const BUDGET = /this view draws|would need/;

/** Values to try for a row: each end of its range and just past it, its words and a wrong one, a word where a number goes. */
function samples(s: Setting<never>): string[] {
  const atMost = (n: number | undefined, fallback: number) => (n === undefined || n > 1e6 ? fallback : n);
  switch (s.kind) {
    case 'int': {
      const min = Math.max(s.min ?? 0, -1e6);
      const max = atMost(s.max, min + 7);
      return [String(min), String(min + 1), String(max), String(min - 1), String(max + 1), '2.5', 'x', ...(s.none ? [s.none] : [])];
    }
    case 'number':
      return ['0', '0.5', '1', '2', '-1', 'x', '1e400'];
    case 'choice':
    case 'list':
      return [...s.choices!, 'nope', ...(s.kind === 'list' ? [s.choices!.slice(0, 2).join(',')] : [])];
    case 'switch':
      return ['on', 'off', 'maybe'];
    case 'probability':
      return ['0', '0.3', '1', '1.5', 'x'];
    case 'interval':
      return ['0,1', '0.2,0.8', '1,0', 'x'];
    case 'text':
      return ['uniform'];
  }
}

/** The flags `grpo-sandbox CMD --help` lists (its own output flags aside). */
async function helpFlags(command: string, outputFlags: string[]): Promise<string[]> {
  const { status, stdout } = await runCli([command, '--help']);
  assert.equal(status, 0);
  const usage = stdout.split('\n\n').find((part) => /^ {2}--/m.test(part))!;
  return [...usage.matchAll(/^ {2}--([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((f) => !outputFlags.includes(f));
}

interface Feature {
  command: string;
  table: readonly Setting<never>[];
  attributes: readonly string[];
  outputFlags: string[];
  /** Settings every case carries on both sides (a world small enough for every budget). */
  base: Record<string, string>;
  /** More settings a row's cases carry (a setting that means something only beside another: train --async's). */
  context?: (key: string) => Record<string, string>;
  cli: (args: string[]) => unknown;
  element: (attrs: Record<string, string>) => unknown;
}

const FEATURES: Feature[] = [
  {
    command: 'train',
    table: TRAIN_SETTINGS as readonly Setting<never>[],
    attributes: TRAIN_ATTRIBUTES,
    // --threads places the ranks on threads and --helpers gives them helper threads (the same results for any N),
    // like dynamic's collective-backend flags.
    outputFlags: ['out', 'resume', 'overwrite', 'json', 'threads', 'helpers'],
    base: {},
    // The asynchronous simulation's bound and settings, under a rule that reads them (off, every value is refused alike).
    context: (key): Record<string, string> => (key === 'max-staleness' || isAsyncRow(key) ? { async: ruleOwners(key)[0] ?? 'areal' } : {}),
    cli: trainConfigFromArgs,
    element: trainRequest,
  },
  {
    command: 'schedule',
    table: SCHEDULE_SETTINGS as readonly Setting<never>[],
    attributes: SCHEDULE_ATTRIBUTES,
    outputFlags: ['width', 'json', 'html'],
    base: {},
    cli: async (args) => (await scheduleFromArgs(args)).config,
    element: (attrs) => scheduleRequest(attrs, null).config,
  },
  {
    command: 'dynamic',
    table: DYNAMIC_SETTINGS as readonly Setting<never>[],
    attributes: DYNAMIC_ATTRIBUTES,
    // The CLI's collective-backend flags (src/cli/ranks.ts) are the command's, not the step's settings.
    outputFlags: ['json', 'backend-behaviour', 'watchdog-ms'],
    // The page's default is seed-002 and the CLI's none: the cases name it, so both mean the same.
    base: { preset: 'none' },
    cli: dynamicRequestFromArgs,
    element: dynamicRequest,
  },
];

for (const f of FEATURES) {
  test(`${f.command}: the CLI's flags are the element's attributes (and so its URL keys), from one table`, async () => {
    const keys = f.table.map((s) => s.key);
    assert.deepEqual(await helpFlags(f.command, f.outputFlags), f.command === 'dynamic' ? keys : ['preset', ...keys]);
    assert.deepEqual([...f.attributes].sort(), [...new Set(['preset', ...keys])].sort());
  });

  test(`${f.command}: every value of every setting is read the same by the CLI, the URL and the element`, async () => {
    let compared = 0;
    for (const s of f.table) {
      for (const value of samples(s)) {
        const given = { ...f.base, ...f.context?.(s.key), [s.key]: value };
        const args = Object.entries(given).flatMap(([k, v]) => [`--${k}=${v}`]);
        const url = new URLSearchParams(Object.entries(given));
        const cli = await outcome(() => f.cli(args));
        const element = await outcome(() => f.element(given));
        const fromUrl = await outcome(() => f.element(Object.fromEntries(url)));
        const what = `${f.command} ${args.join(' ')}`;
        assert.deepEqual(fromUrl, element, `${what}: the URL reads as the attributes`);
        if ('refused' in element && BUDGET.test(element.refused) && 'ok' in cli) continue;
        if ('refused' in cli && BUDGET.test(cli.refused) && 'ok' in element) continue;
        assert.deepEqual(element, cli, what);
        compared++;
      }
    }
    assert.ok(compared > 5 * f.table.length, `${compared} cases compared`);
  });
}

test("dynamic's largest world is the ranks' (MAX_WORLD)", () => {
  assert.equal(DYNAMIC_SETTINGS.find((s) => s.key === 'ranks')!.max, MAX_WORLD);
});

// The layout (and the steps, which are a layout and a report's inputs): one reader in core
// (src/core/samplers/settings.ts, src/core/steps/settings.ts), keyed by CLI flag; a link and the
// elements name a setting by its URL key (the table's `param`). A link carries every setting (the
// explorer writes them all), so it reads a setting the sampler does not read as carried, and text
// that is no value as a notice; the CLI and the elements refuse both, with the same words.

/** Values to try for a layout row: each end of its range and just past it, a fraction, a word; the sampler's names. */
function layoutSamples(s: LayoutSetting): string[] {
  if (s.kind === 'sampler') return [...samplerNames, 'nope'];
  if (s.kind === 'bool') return ['true', 'false', 'maybe'];
  const min = Math.max(s.min, -1e6);
  const max = s.max > 1e6 ? min + 7 : s.max;
  return [String(min), String(min + 1), String(max), String(min - 1), String(max + 1), '2.5', 'x'];
}

/** Settings by flag, as the CLI's arguments, a link's query and an element's attributes. */
const asArgs = (given: Record<string, string>) => Object.entries(given).map(([k, v]) => `--${k}=${v}`);
const paramOf = (flag: string) => LAYOUT_SETTINGS.find((s) => s.flag === flag)?.param ?? flag;
const asAttributes = (given: Record<string, string>) => Object.fromEntries(Object.entries(given).map(([k, v]) => [paramOf(k), v]));

/** The layout the CLI builds for `layout` flags, an element (<grpo-steps>) for attributes, a link for a query. */
const fromCli = (given: Record<string, string>) => outcome(() => buildLayout(configFromFlags(asArgs(given)).config));
const fromElement = (given: Record<string, string>) => outcome(() => buildLayout(stepsRequest(asAttributes(given)).config));
async function fromLink(given: Record<string, string>): Promise<Outcome | { notices: string[] }> {
  const state = parseState(`?${new URLSearchParams(asAttributes(given))}`, defaultConfig, presets);
  return state.notices.length ? { notices: state.notices } : outcome(() => buildLayout(state.config));
}

/** Combinations whose settings act together: TRL's derived steps_per_generation, a sampler's script defaults, verl's batch. */
const LAYOUT_CASES: Record<string, string>[] = [
  { sampler: 'trl', ranks: '2', batch: '4', k: '2', 'gradient-accumulation-steps': '2', 'dataset-size': '16' },
  { sampler: 'trl', ranks: '2', batch: '4', k: '2', 'gradient-accumulation-steps': '2', 'steps-per-generation': '1', 'dataset-size': '16' },
  { sampler: 'trl', ranks: '2', batch: '2', k: '2', 'gradient-accumulation-steps': '2', 'steps-per-generation': '4', 'dataset-size': '16' },
  { preset: 'seed-002', 'gradient-accumulation-steps': '2' },
  { preset: 'seed-002', 'gradient-accumulation-steps': '3' },
  { preset: 'seed-002', 'batches-per-epoch': '2' },
  { sampler: 'flow-grpo-lcm' },
  { sampler: 'flow-grpo-lcm', 'batches-per-epoch': '3' },
  { sampler: 'flow-grpo', 'num-workers': '0', 'accelerate-prepare': '0' },
  { sampler: 'verl', 'ppo-mini-batch-size': '2', 'ppo-micro-batch-size-per-gpu': '2' },
  { sampler: 'verl', 'num-workers': '2' },
  // verl's Ulysses SP: ranks stays the data-parallel size; without use_dynamic_bsz the samples must split over ranks × S GPUs.
  { sampler: 'verl', 'ulysses-sequence-parallel-size': '2' },
  { sampler: 'verl', ranks: '2', batch: '3', k: '3', 'ulysses-sequence-parallel-size': '2' },
  { sampler: 'dance-grpo', epochs: '2' },
  { preset: 'nope' },
  { preset: 'seed-003', k: '3' },
];

test("layout: the CLI's flags are the element's attributes, each a URL key of the one table", async () => {
  const layoutFlags = ['preset', ...LAYOUT_SETTINGS.map((s) => s.flag), ...LAYOUT_INPUTS];
  assert.deepEqual(await helpFlags('layout', ['json', 'emit']), layoutFlags);
  const stepsFlags = [...layoutFlags, ...STEPS_INPUTS];
  assert.deepEqual((await helpFlags('steps', ['show', 'json'])).sort(), [...stepsFlags].sort());
  // The page takes the token counts as a list (`lengths`) and no verl seqlens file.
  const byFlag = STEPS_ATTRIBUTES.map((a) => LAYOUT_SETTINGS.find((s) => s.param === a)?.flag ?? a);
  assert.deepEqual(byFlag.sort(), stepsFlags.filter((f) => f !== 'seqlens').sort());
});

test('layout: the same settings give the same layout from a flag, an attribute and a link', async () => {
  const cases = [...LAYOUT_SETTINGS.flatMap((s) => layoutSamples(s).map((v) => ({ [s.flag]: v }))), ...LAYOUT_CASES];
  let compared = 0;
  for (const given of cases) {
    const what = `layout ${asArgs(given).join(' ')}`;
    const cli = await fromCli(given);
    assert.deepEqual(await fromElement(given), cli, `${what}: the element reads as the CLI`);
    const link = await fromLink(given);
    if ('ok' in cli) {
      assert.deepEqual(link, cli, `${what}: the link reads as the CLI`);
      compared++;
    } else if ('ok' in link) {
      // A link carries every setting: only a setting the sampler does not read may read differently (carried, not refused).
      assert.match(cli.refused, /does not use/, `${what}: the link shows a layout the CLI refuses (${cli.refused})`);
    }
  }
  assert.ok(compared > 2 * LAYOUT_SETTINGS.length, `${compared} layouts compared`);
});

test("layout: TRL's steps_per_generation defaults to gradient_accumulation_steps in a link as on the CLI", async () => {
  const link = parseState('?sampler=trl&ranks=2&batch=4&k=2&ga=2&dataset=16', defaultConfig, presets);
  const layout = buildLayout(link.config);
  assert.equal(layout.config.stepsPerGeneration, 2);
  assert.equal(layout.steps.length, 2);
  const cli = buildLayout(
    configFromFlags([
      '--sampler',
      'trl',
      '--ranks',
      '2',
      '--batch',
      '4',
      '--k',
      '2',
      '--gradient-accumulation-steps',
      '2',
      '--dataset-size',
      '16',
    ]).config,
  );
  assert.deepEqual(layout, cli);
});

test('steps: the same settings give the same report from the CLI and the element', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steps-parity-'));
  try {
    const lengthsFile = join(dir, 'lengths.txt');
    writeFileSync(lengthsFile, '5 9 3 12');
    const cases: Record<string, string>[] = [
      { sampler: 'trl', ranks: '2', batch: '2', k: '2', 'dataset-size': '16', 'gradient-accumulation-steps': '2' },
      {
        sampler: 'trl',
        ranks: '2',
        batch: '2',
        k: '2',
        'dataset-size': '16',
        'steps-per-generation': '4',
        framework: 'trl-1.9.0',
        loss: 'dapo',
      },
      { sampler: 'verl', 'ppo-mini-batch-size': '2', 'ppo-micro-batch-size-per-gpu': '2', 'max-completion-length': '64' },
      // verl's actor.use_dynamic_bsz and its budget: the micro-batches cut by tokens (packedTokens), the switch off, refusals.
      {
        sampler: 'verl',
        ranks: '2',
        batch: '8',
        k: '4',
        'dataset-size': '16',
        'use-dynamic-bsz': 'true',
        'ppo-max-token-len-per-gpu': '2048',
      },
      { sampler: 'verl', ranks: '2', batch: '8', k: '4', 'use-dynamic-bsz': 'false', 'ppo-max-token-len-per-gpu': '2048' },
      { sampler: 'verl', 'use-dynamic-bsz': 'true', 'ppo-mini-batch-size': '2', 'ppo-max-token-len-per-gpu': '1500' },
      { sampler: 'verl', 'use-dynamic-bsz': 'true', 'ppo-max-token-len-per-gpu': '512' },
      { sampler: 'verl', 'use-dynamic-bsz': 'maybe' },
      // actor.ulysses_sequence_parallel_size: the budget is ppo_max_token_len_per_gpu × S (600 × 2 passes the longest sample).
      {
        sampler: 'verl',
        ranks: '2',
        batch: '8',
        k: '4',
        'dataset-size': '16',
        'use-dynamic-bsz': 'true',
        'ppo-max-token-len-per-gpu': '600',
        'ulysses-sequence-parallel-size': '2',
      },
      { sampler: 'verl', 'use-dynamic-bsz': 'true', 'ppo-max-token-len-per-gpu': '400', 'ulysses-sequence-parallel-size': '2' },
      { sampler: 'verl', ranks: '2', batch: '3', k: '3', 'ulysses-sequence-parallel-size': '2' },
      { sampler: 'trl', 'ulysses-sequence-parallel-size': '2' },
      { sampler: 'trl', 'use-dynamic-bsz': 'true' },
      { 'micro-batch': '1' },
      { 'micro-batch': '0' },
      { 'max-completion-length': 'x' },
      { framework: 'nope' },
      { loss: 'nope' },
      { lengths: '5 9 3 12' },
      { lengths: '5 9 3 12', 'max-completion-length': '10' },
    ];
    for (const given of cases) {
      const args = asArgs(given).map((a) => (a.startsWith('--lengths=') ? `--lengths=${lengthsFile}` : a));
      const { status, stdout, stderr } = await runCli(['steps', ...args, '--json']);
      // A list's refusal quotes the list where the CLI's quotes the file.
      const refused = stderr
        .trim()
        .replace(/^grpo-sandbox steps: /, '')
        .replace(`'${lengthsFile}'`, "'5 9 3 12'");
      const cli = status === 0 ? { ok: JSON.parse(stdout) } : { refused };
      const element = await outcome(() => {
        const { config, options } = stepsRequest(asAttributes(given));
        return stepsJson(buildSteps(buildLayout(config), options));
      });
      const mine = 'ok' in element ? { ok: JSON.parse(element.ok) } : element;
      // Where the counts came from is said in each side's words (a file on the CLI, the list on the page).
      const unsourced = (o: typeof mine) => ('ok' in o ? { ok: { ...o.ok, lengths: undefined } } : o);
      assert.deepEqual(unsourced(mine), unsourced(cli), `steps ${args.join(' ')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the explorer's CLI command prints the layout the explorer shows", async () => {
  const states = [
    ...Object.keys(presets).map((name) => `?preset=${name}`),
    ...Object.keys(presets).flatMap((name) => samplerNames.map((sampler) => `?preset=${name}&sampler=${sampler}`)),
    ...LAYOUT_CASES.filter((c) => !('preset' in c && !(c.preset! in presets))).map((c) => `?${new URLSearchParams(asAttributes(c))}`),
    '?sampler=trl&ranks=2&batch=4&k=2&ga=2&spg=1&dataset=16',
    '?preset=seed-000&workers=0&prepare=0&seed=7',
  ];
  // A setting the sampler does not read stays in the page's configuration (the panel keeps it for another sampler) and out of the command.
  const drawn = (config: LayoutConfig) => {
    const layout = buildLayout(config);
    const ignored = samplers[config.sampler].ignores;
    return { ...layout, config: Object.fromEntries(Object.entries(layout.config).filter(([f]) => !ignored[f as keyof LayoutConfig])) };
  };
  let compared = 0;
  for (const search of states) {
    const { config, preset } = parseState(search, defaultConfig, presets);
    const shown = await outcome(() => drawn(config));
    if (!('ok' in shown)) continue;
    const args = layoutArgs(config, preset)!;
    const printed = await outcome(() => drawn(configFromFlags(args.flatMap((a) => a.split(' '))).config));
    assert.deepEqual(printed, shown, `${search} → grpo-sandbox layout ${args.join(' ')}`);
    compared++;
  }
  assert.ok(compared > 30, `${compared} views compared`);
  assert.deepEqual(layoutArgs(presets['seed-000']!.config), ['--sampler flow-grpo'], "the default view's command is short");
  assert.deepEqual(layoutArgs(presets['seed-002']!.config, 'seed-002'), ['--preset seed-002'], 'a preset is named');
});
