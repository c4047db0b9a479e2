// <grpo-schedule>'s settings: its attributes (named like `grpo-sandbox schedule`'s flags) turned
// into the simulator's ScheduleConfig, with the CLI's rules and one-line errors. Pure: no DOM.
import { ConfigError } from '../../core/errors.ts';
import {
  SCHEMES,
  schedulePresetNames,
  schedulePresets,
  uniformPolicy,
  validateScheduleConfig,
  type ControllerPolicy,
  type ScheduleConfig,
  type SchemeName,
} from '../../core/schedule/index.ts';

/** The attributes, as strings (null: not given), by their flag names. */
export const SCHEDULE_ATTRIBUTES = [
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
] as const;
export type ScheduleAttribute = (typeof SCHEDULE_ATTRIBUTES)[number];
export type ScheduleAttributes = Partial<Record<ScheduleAttribute, string | null>>;

/**
 * What the page draws without freezing: every interval is one SVG group, every rank one row.
 * (The CLI's budget is about memory and time of a process; the page's is about the DOM.)
 */
export const VIEW_LIMITS = { ranks: 256, configurations: 4096 };

export interface ScheduleRequest {
  config: ScheduleConfig;
  preset: string;
  schemes: SchemeName[];
  /** The policy attribute: 'uniform' or 'trained' (a checkpoint the page was given). */
  policy: 'uniform' | 'trained';
}

function int(value: string | null | undefined, name: string, min: number, max: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const n = Number(text);
  if (!Number.isInteger(n)) throw new ConfigError(`${name} must be a whole number, got '${text}'`);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${text}`);
  return n;
}

function real(value: string | null | undefined, name: string, min: number, max = Number.POSITIVE_INFINITY): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const n = Number(text);
  if (!Number.isFinite(n)) throw new ConfigError(`${name} must be a number, got '${text}'`);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${text}`);
  return n;
}

/**
 * The request the attributes make: the preset (default seed-001) with the attributes applied, as
 * `grpo-sandbox schedule` applies its flags. `trained` is the policy read from a checkpoint, when
 * the page has one; policy=trained without it is an error that says what to give.
 */
export function requestFromAttributes(a: ScheduleAttributes, trained: ControllerPolicy | null): ScheduleRequest {
  const preset = a.preset?.trim() || 'seed-001';
  if (!Object.hasOwn(schedulePresets, preset))
    throw new ConfigError(`unknown preset '${preset}'; schedule presets: ${schedulePresetNames.join(', ')}`);
  const config: ScheduleConfig = { ...schedulePresets[preset]!.config };
  config.ranks = int(a.ranks, 'ranks', 1, VIEW_LIMITS.ranks) ?? config.ranks;
  config.batch = int(a.batch, 'batch', 1, VIEW_LIMITS.configurations) ?? config.batch;
  config.k = int(a.k, 'k', 1, VIEW_LIMITS.configurations) ?? config.k;
  config.seed = int(a.seed, 'seed', 0, 2 ** 32 - 1) ?? config.seed;
  config.alpha = real(a.alpha, 'alpha', 0, 1) ?? config.alpha;
  config.gatherCost = real(a['gather-cost'], 'gather-cost', 0) ?? config.gatherCost;
  const cap = a['max-batch']?.trim();
  if (cap) config.maxBatch = cap === 'none' ? null : int(cap, 'max-batch', 1, VIEW_LIMITS.configurations)!;
  if (config.batch * config.k > VIEW_LIMITS.configurations) {
    throw new ConfigError(
      `batch × k = ${config.batch * config.k} configurations is more than this view draws (${VIEW_LIMITS.configurations}); ` +
        'lower batch or k, or use `grpo-sandbox schedule` in a terminal',
    );
  }
  const policyText = a.policy?.trim() || undefined;
  if (policyText !== undefined && policyText !== 'uniform' && policyText !== 'trained')
    throw new ConfigError(`policy must be uniform or trained (a checkpoint.json given to the page), got '${policyText}'`);
  const latencyText = a.latency?.trim() || undefined;
  if (latencyText !== undefined && latencyText !== 'constant' && latencyText !== 'controller')
    throw new ConfigError(`latency must be constant or controller, got '${latencyText}'`);
  const latency = latencyText ?? (policyText !== undefined ? 'controller' : config.latency.kind);
  const policy = policyText === 'trained' ? 'trained' : 'uniform';
  if (latency === 'constant') {
    if (policyText !== undefined)
      throw new ConfigError('policy draws configurations for latency controller; drop latency constant or policy');
    const ms = real(a['config-time'], 'config-time', Number.MIN_VALUE);
    config.latency = ms === undefined ? { kind: 'constant', t: 1, unit: 'T' } : { kind: 'constant', t: ms, unit: 'ms' };
  } else {
    if (a['config-time']?.trim())
      throw new ConfigError(
        "config-time sets the constant model's T; the controller model takes each configuration's prefill latency instead",
      );
    if (policy === 'trained' && trained === null)
      throw new ConfigError('policy trained needs a run of `grpo-sandbox train`: give its checkpoint.json and config.json');
    config.latency = { kind: 'controller', policy: policy === 'trained' ? trained! : uniformPolicy() };
  }
  let schemes: SchemeName[] = [...SCHEMES];
  const list = a.schemes?.trim();
  if (list) {
    const names = list.split(',').map((x) => x.trim());
    const unknown = names.filter((x) => !(SCHEMES as readonly string[]).includes(x));
    if (unknown.length > 0) throw new ConfigError(`unknown scheme '${unknown[0]}' in schemes; schemes: ${SCHEMES.join(', ')}`);
    schemes = SCHEMES.filter((x) => names.includes(x));
  }
  validateScheduleConfig(config);
  return { config, preset, schemes, policy };
}
