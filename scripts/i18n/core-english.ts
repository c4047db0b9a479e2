// Every ConfigError message and layout note the explorer's settings reach (each sampler × preset ×
// one setting at an edge value, and the schedule's settings), in English as the CLI prints them.
// test/ui/i18n-catalogue.test.ts checks the same sweeps say every error as facts with its Chinese.
// `node --import tsx scripts/i18n/core-english.ts FILE` records them; test/cli/english-unchanged.test.ts
// checks the core still says exactly that.
import { writeFileSync } from 'node:fs';
import { say } from '../../src/core/messages/index.ts';
import { presets } from '../../src/core/presets.ts';
import type { ConfigError } from '../../src/core/errors.ts';
import type { LayoutConfig } from '../../src/core/layout/types.ts';
import { buildLayout, CANONICAL_FIELDS, samplerNames, validateConfig } from '../../src/core/samplers/index.ts';
import { schedulePresets, validateScheduleConfig } from '../../src/core/schedule/index.ts';

// Every layout setting but the sampler (swept separately), in the config's order, then verl's own.
const FIELDS = [
  ...CANONICAL_FIELDS.filter((f) => f !== 'sampler'),
  'ppoMiniBatchSize',
  'ppoMicroBatchSizePerGpu',
  'dataloaderNumWorkers',
  'balanceBatch',
] as const;
const VALUES: unknown[] = [0, 1, 2, 3, 5, 7, 37, 1e9, -1, 1.5, Number.NaN, 2 ** 60, false];

/** Each sampler × preset × one setting at an edge value: the layout settings a user can reach from the config panel. */
export function* layoutSweep(): Generator<{ asked: string; config: LayoutConfig; error: ConfigError | null; value: unknown }> {
  for (const sampler of samplerNames) {
    for (const [name, preset] of Object.entries(presets)) {
      for (const field of FIELDS) {
        for (const value of VALUES) {
          const config = { ...preset.config, sampler, [field]: value } as LayoutConfig;
          yield { asked: `${name} ${sampler} ${field}=${String(value)}`, config, error: validateConfig(config), value };
        }
      }
    }
  }
}

/** The schedule view's settings, each at an edge value: the errors validateScheduleConfig throws. */
export function* scheduleSweep(): Generator<{ asked: string; error: Error }> {
  const seed = schedulePresets['seed-001']!.config;
  for (const field of ['ranks', 'batch', 'k', 'alpha', 'maxBatch', 'gatherCost', 'seed']) {
    for (const value of [0, -1, 1.5, 2, 1e9, Number.NaN]) {
      try {
        validateScheduleConfig({ ...seed, [field]: value });
      } catch (e) {
        yield { asked: `schedule ${field}=${value}`, error: e as Error };
      }
    }
  }
}

/** The distinct messages, in sweep order, each with the first setting that made it. */
export function coreEnglish(): { asked: string; said: string }[] {
  const out: { asked: string; said: string }[] = [];
  const seen = new Set<string>();
  const push = (asked: string, said: string) => {
    if (!seen.has(said)) out.push({ asked, said });
    seen.add(said);
  };
  for (const { asked, config, error, value } of layoutSweep()) {
    if (error) push(asked, `error: ${error.message} | fixes: ${JSON.stringify(error.suggestions)}`);
    else if (value === 37 || value === 3) {
      for (const note of buildLayout(config).notes) push(asked, `note: ${say(note)}`);
    }
  }
  for (const { asked, error } of scheduleSweep()) push(asked, `error: ${error.message}`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(process.argv[2]!, `${JSON.stringify(coreEnglish(), null, 1)}\n`);
