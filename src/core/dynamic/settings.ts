import { configError, fact } from '../messages/index.ts';
import { readSettings, type Setting, type SettingGetter } from '../setting.ts';
import { DYNAMIC_PRESET_NAMES, DYNAMIC_PRESETS, type DynamicPreset } from './presets.ts';
import type { RewardModel } from './rewards.ts';
import { DEFAULT_CONFIG, type DynamicConfig, POLICIES, type Policy, validateDynamicConfig } from './types.ts';

/** The word for "no preset: random rewards with --p". */
export const NO_PRESET = 'none';

/** The most ranks a world holds (MAX_WORLD of src/ranks/arena.ts; a test checks they agree). */
export const MAX_RANKS = 256;

/** Every sample (with its tensor) crosses allGatherObject once per draw; this keeps a step interactive. */
export const MAX_STEP_SAMPLES = 4096;

export interface DynamicValues {
  preset: string;
  policy: Policy;
  ranks: number;
  perRank: number;
  k: number;
  maxResampleTimes: number;
  p: number;
  seed: number;
  deviceFix: boolean;
  range: [number, number];
  timeoutMs: number;
}

/** Every setting of a step, in the order `--help` lists them. */
export const DYNAMIC_SETTINGS: readonly Setting<DynamicValues>[] = [
  {
    field: 'preset',
    key: 'preset',
    metavar: 'NAME',
    kind: 'choice',
    choices: [...DYNAMIC_PRESET_NAMES, NO_PRESET],
    hint: `${DYNAMIC_PRESET_NAMES.join(', ')}: the scenario's numbers, with scripted reward draws; ${NO_PRESET}: random rewards with --p`,
  },
  {
    field: 'policy',
    key: 'policy',
    metavar: 'P',
    kind: 'choice',
    choices: POLICIES,
    hint: `what a short pool does: ${POLICIES.join(', ')} (default fallback; seed-002 preset: naive)`,
  },
  {
    field: 'ranks',
    key: 'ranks',
    metavar: 'W',
    kind: 'int',
    min: 1,
    max: MAX_RANKS,
    hint: `1 to ${MAX_RANKS} (default ${DEFAULT_CONFIG.ranks})`,
  },
  {
    field: 'perRank',
    key: 'per-rank',
    metavar: 'L',
    kind: 'int',
    min: 1,
    max: MAX_STEP_SAMPLES,
    hint: `samples per rank, a multiple of K (default ${DEFAULT_CONFIG.perRank})`,
  },
  { field: 'k', key: 'k', metavar: 'K', kind: 'int', min: 1, max: 256, hint: `completions per prompt (default ${DEFAULT_CONFIG.k})` },
  {
    field: 'maxResampleTimes',
    key: 'max-resample-times',
    metavar: 'N',
    kind: 'int',
    min: 0,
    max: 1000,
    hint: `default ${DEFAULT_CONFIG.maxResampleTimes} (verl's max_num_gen_batches = N + 1)`,
  },
  { field: 'p', key: 'p', metavar: 'P', kind: 'probability', hint: 'success probability of each completion (binary reward; default 0.2)' },
  {
    field: 'seed',
    key: 'seed',
    metavar: 'S',
    kind: 'int',
    min: 0,
    max: 2 ** 31 - 1,
    hint: `reward draws and pad's choice (default ${DEFAULT_CONFIG.seed})`,
  },
  {
    field: 'deviceFix',
    key: 'device-fix',
    metavar: 'on|off',
    kind: 'switch',
    hint: 'move each pooled tensor with .to(device) before stacking (default on; seed-004 preset: off, then on)',
  },
  {
    field: 'range',
    key: 'range',
    metavar: 'MIN,MAX',
    kind: 'interval',
    hint: 'stream keeps a group when MIN < mean reward < MAX (default 0,1)',
  },
  {
    field: 'timeoutMs',
    key: 'timeout-ms',
    metavar: 'MS',
    kind: 'int',
    min: 1,
    max: 600_000,
    hint: 'a collective with no progress for MS is a hang (default 30000)',
  },
];

export interface DynamicRequest {
  /** The preset's name, or null (none: random rewards). */
  preset: string | null;
  presetInfo: DynamicPreset | null;
  config: DynamicConfig;
  rewards: RewardModel;
  /** Device-fix settings to run in turn (seed-004: off, then on). */
  fixes: boolean[];
  timeoutMs: number;
  p: number;
}

/**
 * One step's request: the preset's numbers (or the defaults) with the settings applied. A preset
 * fixes the world and the reward draws, so those settings with it are refused. `get` reads one
 * key's text (null or undefined: not given).
 */
export function dynamicSettingsFrom(get: SettingGetter): DynamicRequest {
  const v = readSettings(DYNAMIC_SETTINGS, get);
  const presetName = v.preset === undefined || v.preset === NO_PRESET ? null : v.preset;
  const preset = presetName === null ? null : DYNAMIC_PRESETS[presetName]!;
  const fixed = ['ranks', 'per-rank', 'k', 'p'].some((key) => get(key) !== null && get(key) !== undefined);
  if (preset && fixed) throw configError([fact('dynamic.preset-fixes', { preset: presetName!, none: NO_PRESET })]);
  const config: DynamicConfig = {
    ...DEFAULT_CONFIG,
    ...preset?.config,
    ranks: v.ranks ?? preset?.config.ranks ?? DEFAULT_CONFIG.ranks,
    perRank: v.perRank ?? preset?.config.perRank ?? DEFAULT_CONFIG.perRank,
    k: v.k ?? preset?.config.k ?? DEFAULT_CONFIG.k,
    policy: v.policy ?? preset?.config.policy ?? DEFAULT_CONFIG.policy,
    maxResampleTimes: v.maxResampleTimes ?? preset?.config.maxResampleTimes ?? DEFAULT_CONFIG.maxResampleTimes,
    seed: v.seed ?? DEFAULT_CONFIG.seed,
    range: v.range ?? DEFAULT_CONFIG.range,
  };
  validateDynamicConfig(config);
  if (config.ranks * config.perRank > MAX_STEP_SAMPLES)
    throw configError([fact('dynamic.step-too-big', { max: MAX_STEP_SAMPLES, ranks: config.ranks, perRank: config.perRank })]);
  const p = v.p ?? 0.2;
  return {
    preset: presetName,
    presetInfo: preset,
    config,
    rewards: preset ? preset.rewards : { kind: 'bernoulli', p, seed: config.seed },
    fixes: v.deviceFix !== undefined ? [v.deviceFix] : (preset?.deviceFix ?? [true]),
    timeoutMs: v.timeoutMs ?? 30_000,
    p,
  };
}
