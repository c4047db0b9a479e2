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
import { TRAIN_SETTINGS } from '../../src/train/settings.ts';
import { runCli } from '../helpers/cli.ts';
import { DYNAMIC_ATTRIBUTES, dynamicRequest } from '../../src/ui/dynamic/dynamic-request.ts';
import { SCHEDULE_ATTRIBUTES, scheduleRequest } from '../../src/ui/schedule/schedule-request.ts';
import { TRAIN_ATTRIBUTES, trainRequest } from '../../src/ui/train/train-request.ts';

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
        const given = { ...f.base, [s.key]: value };
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
