// <grpo-dynamic>'s settings: attributes named like `grpo-sandbox dynamic`'s flags (preset,
// policy, ranks, per-rank, k, max-resample-times, p, seed, device-fix, range, timeout-ms) turned
// into one step's DynamicConfig, reward model and device-fix runs, by the CLI's rules. Pure.
import {
  DEFAULT_CONFIG,
  DYNAMIC_PRESET_NAMES,
  DYNAMIC_PRESETS,
  type DynamicConfig,
  type DynamicPreset,
  POLICIES,
  type Policy,
  type RewardModel,
  validateDynamicConfig,
} from '../../core/dynamic/index.ts';
import { ConfigError } from '../../core/errors.ts';

export const DYNAMIC_ATTRIBUTES = [
  'preset',
  'policy',
  'ranks',
  'per-rank',
  'k',
  'max-resample-times',
  'p',
  'seed',
  'device-fix',
  'range',
  'timeout-ms',
] as const;
export type DynamicAttribute = (typeof DYNAMIC_ATTRIBUTES)[number];
export type DynamicAttributes = Partial<Record<DynamicAttribute, string | null>>;

/** What the page draws: every group a box, every sample a cell (the CLI allows 4096 samples a step). */
export const VIEW_LIMITS = { ranks: 16, samples: 1024 };

export interface DynamicRequest {
  preset: string | null;
  presetInfo: DynamicPreset | null;
  config: DynamicConfig;
  rewards: RewardModel;
  /** Device-fix settings to run in turn (seed-004: off, then on). */
  fixes: boolean[];
  timeoutMs: number;
  p: number;
}

const given = (v: string | null | undefined): string | undefined =>
  v === null || v === undefined || v.trim() === '' ? undefined : v.trim();

function int(value: string | null | undefined, name: string, min: number, max: number): number | undefined {
  const text = given(value);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n)) throw new ConfigError(`${name} must be a whole number, got '${text}'`);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${text}`);
  return n;
}

export function requestFromAttributes(a: DynamicAttributes): DynamicRequest {
  // The view tells seed-002's story unless told otherwise (preset none: random rewards with p).
  const presetName = given(a.preset) ?? 'seed-002';
  if (presetName !== null && presetName !== 'none' && !Object.hasOwn(DYNAMIC_PRESETS, presetName))
    throw new ConfigError(`preset must be one of ${DYNAMIC_PRESET_NAMES.join(', ')}, got '${presetName}'`);
  const preset = presetName && presetName !== 'none' ? DYNAMIC_PRESETS[presetName]! : null;
  const fixText = given(a['device-fix']);
  if (fixText !== undefined && fixText !== 'on' && fixText !== 'off')
    throw new ConfigError(`device-fix must be on or off, got '${fixText}'`);
  if (preset && (given(a.p) ?? given(a.k) ?? given(a['per-rank']) ?? given(a.ranks)) !== undefined)
    throw new ConfigError(`preset ${presetName} fixes ranks, per-rank, k and the reward draws; leave them out or choose preset none`);
  const policyText = given(a.policy);
  if (policyText !== undefined && !POLICIES.includes(policyText as Policy))
    throw new ConfigError(`policy must be one of ${POLICIES.join(', ')}, got '${policyText}'`);
  let range = DEFAULT_CONFIG.range;
  const rangeText = given(a.range);
  if (rangeText !== undefined) {
    const parts = rangeText.split(',').map(Number);
    if (parts.length !== 2 || parts.some((x) => !Number.isFinite(x)) || !(parts[0]! < parts[1]!))
      throw new ConfigError(`range must be MIN,MAX with MIN < MAX (e.g. 0,1), got '${rangeText}'`);
    range = [parts[0]!, parts[1]!];
  }
  const config: DynamicConfig = {
    ...DEFAULT_CONFIG,
    ...preset?.config,
    ranks: int(a.ranks, 'ranks', 1, VIEW_LIMITS.ranks) ?? preset?.config.ranks ?? DEFAULT_CONFIG.ranks,
    perRank: int(a['per-rank'], 'per-rank', 1, VIEW_LIMITS.samples) ?? preset?.config.perRank ?? DEFAULT_CONFIG.perRank,
    k: int(a.k, 'k', 1, 256) ?? preset?.config.k ?? DEFAULT_CONFIG.k,
    policy: (policyText as Policy | undefined) ?? preset?.config.policy ?? DEFAULT_CONFIG.policy,
    maxResampleTimes: int(a['max-resample-times'], 'max-resample-times', 0, 1000) ?? preset?.config.maxResampleTimes ?? 3,
    seed: int(a.seed, 'seed', 0, 2 ** 31 - 1) ?? DEFAULT_CONFIG.seed,
    range,
  };
  validateDynamicConfig(config);
  if (config.ranks * config.perRank > VIEW_LIMITS.samples)
    throw new ConfigError(
      `ranks × per-rank must be at most ${VIEW_LIMITS.samples} samples in this view, ` +
        `got ${config.ranks} × ${config.perRank} = ${config.ranks * config.perRank}; ` +
        'use `grpo-sandbox dynamic` in a terminal for more',
    );
  const pText = given(a.p);
  const p = pText === undefined ? 0.2 : Number(pText);
  if (!Number.isFinite(p) || p < 0 || p > 1) throw new ConfigError(`p must be a probability from 0 to 1, got '${pText}'`);
  const rewards: RewardModel = preset ? preset.rewards : { kind: 'bernoulli', p, seed: config.seed };
  const fixes = fixText !== undefined ? [fixText === 'on'] : (preset?.deviceFix ?? [true]);
  const timeoutMs = int(a['timeout-ms'], 'timeout-ms', 1, 600_000) ?? 30_000;
  return { preset: preset ? presetName : null, presetInfo: preset, config, rewards, fixes, timeoutMs, p };
}
