import { configError, fact } from '../messages/index.ts';
import { quote, readSettings, type Setting, type SettingGetter } from '../setting.ts';
import { uniformPolicy } from './policy.ts';
import { schedulePresetNames, schedulePresets } from './presets.ts';
import { SCHEMES, type ScheduleConfig, type SchemeName } from './types.ts';

/** The settings as read, before the cross-field rules. */
export interface ScheduleValues {
  ranks: number;
  batch: number;
  k: number;
  latency: 'constant' | 'controller';
  configTime: number;
  policy: string;
  seed: number;
  alpha: number;
  maxBatch: number | null;
  gatherCost: number;
  schemes: SchemeName[];
}

const MODELS = ['constant', 'controller'] as const;

/** Every setting of a schedule, in the order `--help` lists them. */
export const SCHEDULE_SETTINGS: readonly Setting<ScheduleValues>[] = [
  { field: 'ranks', key: 'ranks', metavar: 'W', kind: 'int', min: 1, max: 4096, hint: 'GPUs (data-parallel ranks)' },
  {
    field: 'batch',
    key: 'batch',
    metavar: 'B',
    kind: 'int',
    min: 1,
    hint: 'samples (inputs) in the step; sample s belongs to rank s mod W',
  },
  { field: 'k', key: 'k', metavar: 'K', kind: 'int', min: 1, hint: 'group size: configurations per sample (num_generations)' },
  {
    field: 'latency',
    key: 'latency',
    metavar: 'MODEL',
    kind: 'choice',
    choices: MODELS,
    hint:
      "constant (every configuration takes T) or controller (the seed-003 controller's prefill latency, src/core/env/controller.ts, " +
      'of configurations drawn from --policy)',
  },
  {
    field: 'configTime',
    key: 'config-time',
    metavar: 'MS',
    kind: 'number',
    min: Number.MIN_VALUE,
    hint: 'constant model: T in milliseconds (default: times are shown in units of T)',
  },
  {
    field: 'policy',
    key: 'policy',
    metavar: 'P',
    kind: 'text',
    hint:
      'controller model: uniform (default); a `grpo-sandbox train` run (its --out directory or its checkpoint.json; on the page: ' +
      'trained, the run given to it): the trained controller on --batch prompts of its task; or a JSON file of per-head probability ' +
      'tables {"tier": [3], "insertion": [5], "topK": [5] or [5][5], "knob3": [16] or [5][16]} (stage-2 heads per insertion ' +
      'position); implies --latency controller',
  },
  {
    field: 'seed',
    key: 'seed',
    metavar: 'S',
    kind: 'int',
    min: 0,
    max: 2 ** 32 - 1,
    hint: "seed of the draws from the policy (PyTorch's CPU generator) and of the trained controller's prompts (default 0)",
  },
  {
    field: 'alpha',
    key: 'alpha',
    metavar: 'A',
    kind: 'number',
    min: 0,
    max: 1,
    hint: 'batching: b configurations take T·(A + (1−A)·b), A in [0, 1] (default 0)',
  },
  {
    field: 'maxBatch',
    key: 'max-batch',
    metavar: 'N|none',
    kind: 'int',
    min: 1,
    none: 'none',
    hint: 'memory cap on the configurations in one launch (default none)',
  },
  {
    field: 'gatherCost',
    key: 'gather-cost',
    metavar: 'G',
    kind: 'number',
    min: 0,
    hint: "spread's all-gather, in the latency unit (default 10% of the mean latency)",
  },
  {
    field: 'schemes',
    key: 'schemes',
    metavar: 'LIST',
    kind: 'list',
    choices: SCHEMES,
    item: 'scheme',
    hint: `comma-separated subset of ${SCHEMES.join(', ')}`,
  },
];

export interface ScheduleSettings {
  /** The preset the settings apply over (seed-001 unless given). */
  preset: string;
  /** The simulator's configuration; with the controller model, the uniform policy until the caller resolves `policy`. */
  config: ScheduleConfig;
  /** The controller model's policy as given (a word or a path the caller resolves); undefined: uniform. */
  policy: string | undefined;
  schemes: SchemeName[];
}

/**
 * The schedule the settings ask for: the preset (default seed-001) with the settings applied, and
 * the latency model's rules (--policy implies the controller model; --config-time belongs to the
 * constant one). `get` reads one key's text (null or undefined: not given).
 */
export function scheduleSettingsFrom(get: SettingGetter): ScheduleSettings {
  const preset = get('preset') ?? 'seed-001';
  // An own property only: `--preset __proto__` or `constructor` is just an unknown name.
  if (!Object.hasOwn(schedulePresets, preset))
    throw configError([fact('schedule.unknown-preset', { got: quote(preset), presets: [...schedulePresetNames] })]);
  const base = schedulePresets[preset]!.config;
  const v = readSettings(SCHEDULE_SETTINGS, get);
  const config: ScheduleConfig = { ...base };
  for (const f of ['ranks', 'batch', 'k', 'seed', 'alpha', 'gatherCost', 'maxBatch'] as const) {
    if (v[f] !== undefined) (config as unknown as Record<string, unknown>)[f] = v[f];
  }
  const latency = v.latency ?? (v.policy !== undefined ? 'controller' : base.latency.kind);
  if (latency === 'constant') {
    if (v.policy !== undefined) throw configError([fact('schedule.policy-constant')]);
    config.latency = v.configTime === undefined ? { kind: 'constant', t: 1, unit: 'T' } : { kind: 'constant', t: v.configTime, unit: 'ms' };
  } else {
    if (v.configTime !== undefined) throw configError([fact('schedule.config-time-controller')]);
    config.latency = { kind: 'controller', policy: uniformPolicy() };
  }
  return { preset, config, policy: latency === 'controller' ? v.policy : undefined, schemes: v.schemes ?? [...SCHEMES] };
}
