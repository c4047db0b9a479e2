// A batch for the loss calculator (`grpo-sandbox loss`, the UI): JSON in, validated typed arrays
// out. Every mistake is a ConfigError naming the field and the shapes involved.
import { ConfigError } from '../core/errors.ts';
import { LOSS_KINDS, TRL_DEFAULTS, type LossKind } from '../core/grpo/loss.ts';
import type { LossInput } from '../ops/loss.ts';
import { jsonValueText } from './flags.ts';

/** A validated batch: B rows × T tokens, flattened row-major. */
export type LossBatch = LossInput<Float32Array>;

const FIELDS = ['logp', 'oldLogp', 'refLogp', 'mask', 'advantages', 'rewards', 'settings'];
const SETTINGS = ['lossType', 'epsilonLow', 'epsilonHigh', 'beta', 'maxCompletionLength', 'groupSize'];

function unknownKeys(obj: Record<string, unknown>, known: string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) throw new ConfigError(`unknown field '${where}${key}' (known: ${known.join(', ')})`);
  }
}

/** A B × T matrix of finite numbers; `like` fixes the shape it must have. */
function matrix(
  value: unknown,
  name: string,
  like?: { rows: number; tokens: number },
): { rows: number; tokens: number; data: Float32Array } {
  if (!Array.isArray(value) || value.length === 0 || !value.every(Array.isArray)) {
    throw new ConfigError(`'${name}' must be a non-empty array of rows (B × T numbers), got ${describe(value)}`);
  }
  const rows = value.length;
  const tokens = (value[0] as unknown[]).length;
  if (tokens === 0) throw new ConfigError(`'${name}' rows must not be empty`);
  const data = new Float32Array(rows * tokens);
  value.forEach((row: unknown[], b) => {
    if (row.length !== tokens)
      throw new ConfigError(`'${name}' row ${b} has ${row.length} values, row 0 has ${tokens}: every row needs T = ${tokens}`);
    row.forEach((v, t) => {
      data[b * tokens + t] = float32(v, `'${name}'[${b}][${t}]`);
    });
  });
  if (like && (rows !== like.rows || tokens !== like.tokens)) {
    throw new ConfigError(`'${name}' is ${rows} × ${tokens} but 'logp' is ${like.rows} × ${like.tokens}: they must have the same shape`);
  }
  return { rows, tokens, data };
}

function vector(value: unknown, name: string, length: number): Float32Array {
  if (!Array.isArray(value))
    throw new ConfigError(`'${name}' must be an array of ${length} numbers (one per row of 'logp'), got ${describe(value)}`);
  if (value.length !== length) throw new ConfigError(`'${name}' has ${value.length} values but 'logp' has B = ${length} rows`);
  return Float32Array.from(value, (v, i) => float32(v, `'${name}'[${i}]`));
}

/** Largest finite float32 (the losses compute in float32, as the frameworks do). */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** A finite number float32 can hold: beyond ±3.4e38 it would silently become ±Infinity. */
function float32(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConfigError(`${where} must be a finite number, got ${jsonValueText(v)}`);
  if (Math.abs(v) > FLOAT32_MAX)
    throw new ConfigError(`${where} is ${v}, beyond float32's range (±3.4e38), in which the loss is computed as in the frameworks`);
  return v;
}

// Bounded: a deeply nested or huge value is named by its kind, never serialised whole.
const describe = jsonValueText;

function numberSetting(s: Record<string, unknown>, key: string, fallback: number, check: (v: number) => boolean, rule: string): number {
  const v = s[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || !check(v))
    throw new ConfigError(`settings.${key} must be ${rule}, got ${jsonValueText(v)}`);
  if (Math.abs(v) > FLOAT32_MAX) throw new ConfigError(`settings.${key} is ${v}, beyond float32's range (±3.4e38)`);
  return v;
}

/** Validates a parsed JSON batch; defaults are TRL's (epsilon 0.2, epsilon_high = epsilon_low, beta 0, dapo, 256). */
export function parseLossBatch(json: unknown): LossBatch {
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new ConfigError(`the input must be one JSON object {logp, oldLogp, advantages, …}, got ${describe(json)}`);
  const o = json as Record<string, unknown>;
  unknownKeys(o, FIELDS, '');
  const s = (o.settings ?? {}) as Record<string, unknown>;
  if (typeof s !== 'object' || Array.isArray(s)) throw new ConfigError(`'settings' must be an object, got ${describe(o.settings)}`);
  unknownKeys(s, SETTINGS, 'settings.');
  const lossType = (s.lossType ?? TRL_DEFAULTS.lossType) as LossKind;
  if (!LOSS_KINDS.includes(lossType))
    throw new ConfigError(`settings.lossType must be one of ${LOSS_KINDS.join(', ')}, got ${jsonValueText(s.lossType)}`);

  if (o.logp === undefined) throw new ConfigError(`'logp' is missing: give the per-token log-probabilities as B × T numbers`);
  const logp = matrix(o.logp, 'logp');
  const shape = { rows: logp.rows, tokens: logp.tokens };
  const pairwise = lossType === 'pairwise';
  if (!pairwise && o.oldLogp === undefined)
    throw new ConfigError(
      `'oldLogp' is missing: the ${lossType} loss needs the sampling policy's log-probabilities (B × T = ${shape.rows} × ${shape.tokens}; use a ` +
        `copy of 'logp' for on-policy)`,
    );
  const oldLogp = o.oldLogp === undefined ? logp.data : matrix(o.oldLogp, 'oldLogp', shape).data;
  const mask = o.mask === undefined ? new Float32Array(shape.rows * shape.tokens).fill(1) : matrix(o.mask, 'mask', shape).data;
  mask.forEach((v, i) => {
    if (v !== 0 && v !== 1) throw new ConfigError(`'mask'[${Math.floor(i / shape.tokens)}][${i % shape.tokens}] must be 0 or 1, got ${v}`);
  });

  const epsilonLow = numberSetting(s, 'epsilonLow', TRL_DEFAULTS.epsilonLow, (v) => v >= 0 && v < 1, 'in [0, 1)');
  const settings = {
    lossType,
    epsilonLow,
    epsilonHigh: numberSetting(s, 'epsilonHigh', epsilonLow, (v) => v >= 0, '≥ 0'),
    beta: numberSetting(s, 'beta', TRL_DEFAULTS.beta, (v) => v >= 0, '≥ 0'),
    maxCompletionLength: numberSetting(
      s,
      'maxCompletionLength',
      TRL_DEFAULTS.maxCompletionLength,
      (v) => Number.isInteger(v) && v >= 1,
      'a whole number ≥ 1',
    ),
    groupSize: numberSetting(s, 'groupSize', shape.rows, (v) => Number.isInteger(v) && v >= 1, 'a whole number ≥ 1'),
  };
  if (shape.tokens > settings.maxCompletionLength) {
    throw new ConfigError(
      `'logp' has T = ${shape.tokens} tokens per row but settings.maxCompletionLength is ${settings.maxCompletionLength}: completions are at ` +
        `most that long (raise maxCompletionLength)`,
    );
  }
  let refLogp: Float32Array | null = null;
  if (o.refLogp !== undefined) refLogp = matrix(o.refLogp, 'refLogp', shape).data;
  else if (settings.beta !== 0 && !pairwise)
    throw new ConfigError(
      `settings.beta is ${settings.beta} but 'refLogp' is missing: the KL penalty needs the reference model's log-probabilities (B × T = ` +
        `${shape.rows} × ${shape.tokens}), or set beta to 0`,
    );

  let advantages: Float32Array | null = null;
  let rewards: Float32Array | null = null;
  if (pairwise) {
    if (o.rewards === undefined)
      throw new ConfigError(`'rewards' is missing: the pairwise loss ranks rows by reward (${shape.rows} numbers)`);
    if (o.advantages !== undefined) throw new ConfigError(`the pairwise loss takes 'rewards', not 'advantages'`);
    rewards = vector(o.rewards, 'rewards', shape.rows);
    if (shape.rows % settings.groupSize !== 0)
      throw new ConfigError(`settings.groupSize ${settings.groupSize} does not divide B = ${shape.rows} rows (groups are contiguous)`);
  } else {
    if (o.advantages === undefined)
      throw new ConfigError(
        `'advantages' is missing: the ${lossType} loss needs one advantage per row (${shape.rows} ` +
          `numbers)${o.rewards !== undefined ? "; 'rewards' is for lossType pairwise" : ''}`,
      );
    advantages = vector(o.advantages, 'advantages', shape.rows);
  }
  return { shape, logp: logp.data, oldLogp, refLogp, mask, advantages, rewards, settings };
}
