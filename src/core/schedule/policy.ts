// Policies of the seed-003 controller as probability tables per head, and the draws of
// configurations from them. Stage 2 sees the insertion position stage 1 chose, so top-K and
// knob 3 have one table per insertion position; knob 3's table is masked to the options that
// keep 12…16 blocks active (knob3Valid) and renormalised, as the controller's masked softmax does.
import { ConfigError } from '../errors.ts';
import { INSERTION_POSITIONS, KNOB3_WIDTH, TIERS, TOP_K, knob3Valid, type ConfigActions } from '../env/controller.ts';
import { Mt19937, rand } from '../rng/index.ts';

/** One input's action distribution: tier and insertion, then top-K and knob 3 given the insertion. */
export interface HeadTables {
  tier: number[];
  insertion: number[];
  /** [insertion][topK option] */
  topK: number[][];
  /** [insertion][n further blocks 0…15], zero where knob3Valid is false. */
  knob3: number[][];
}

/** A policy: one table shared by every sample, or one per sample (a trained controller reads its input). */
export interface ControllerPolicy {
  /** What it is, for reports and JSON: `uniform`, a file name. */
  name: string;
  /** The policy in a sentence ("drawn from …"); default: `the <name> policy`. */
  description?: string;
  tables: HeadTables[];
}

const P = INSERTION_POSITIONS.length;

/** Every valid configuration equally likely per head (knob 3: uniform over the valid five). */
export function uniformPolicy(): ControllerPolicy {
  const flat = (n: number) => Array.from({ length: n }, () => 1 / n);
  const knob3 = INSERTION_POSITIONS.map((p) => normalise(Array.from({ length: KNOB3_WIDTH }, (_, n) => (knob3Valid(p, n) ? 1 : 0))));
  return {
    name: 'uniform',
    tables: [{ tier: flat(TIERS.length), insertion: flat(P), topK: INSERTION_POSITIONS.map(() => flat(TOP_K.length)), knob3 }],
  };
}

function normalise(xs: number[]): number[] {
  const sum = xs.reduce((a, b) => a + b, 0);
  return xs.map((x) => x / sum);
}

/** A non-negative, finite vector of `width` numbers with a positive sum, normalised; `what` names it in errors. */
function probabilities(value: unknown, width: number, what: string): number[] {
  if (!Array.isArray(value) || value.length !== width) {
    throw new ConfigError(`${what} must be an array of ${width} probabilities, got ${short(value)}`);
  }
  for (const x of value) {
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0)
      throw new ConfigError(`${what} must hold non-negative numbers, got ${short(x)}`);
  }
  const sum = (value as number[]).reduce((a, b) => a + b, 0);
  if (!(sum > 0)) throw new ConfigError(`${what} sums to 0; give at least one option a positive probability`);
  // Weights near 1e308 sum to Infinity, and x / Infinity would silently make every probability 0.
  if (!Number.isFinite(sum)) throw new ConfigError(`${what} sums beyond the largest number (1.8e308); scale its weights down`);
  return normalise(value as number[]);
}

function short(value: unknown): string {
  // A deeply nested array overflows JSON.stringify's stack; a long one is named by its length.
  if (Array.isArray(value) && value.some((x) => typeof x === 'object' && x !== null)) return `an array of ${value.length}`;
  if (Array.isArray(value) && value.length > 40) return `an array of ${value.length}`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** A stage-2 head: one table for every insertion position, or one per position ([5][width]). */
function perInsertion(value: unknown, width: number, what: string): number[][] {
  if (Array.isArray(value) && value.length === P && value.every(Array.isArray)) {
    return value.map((row, i) => probabilities(row, width, `${what}[${i}]`));
  }
  const row = probabilities(value, width, what);
  return INSERTION_POSITIONS.map(() => row);
}

/**
 * Reads per-head probability tables as a user writes them in JSON:
 *   {"tier": [3], "insertion": [5], "topK": [5] or [5][5], "knob3": [16] or [5][16]}
 * (unnormalised weights are fine). Knob 3 is masked per insertion position; an insertion
 * position the policy can choose but whose knob-3 options are all masked is an error.
 */
export function parseHeadTables(json: unknown, source: string): HeadTables {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ConfigError(`${source}: expected an object {tier, insertion, topK, knob3} of probability tables`);
  }
  const o = json as Record<string, unknown>;
  for (const key of ['tier', 'insertion', 'topK', 'knob3']) {
    if (!(key in o)) throw new ConfigError(`${source}: missing "${key}" (a policy has tier [3], insertion [5], topK [5], knob3 [16])`);
  }
  const tier = probabilities(o.tier, TIERS.length, `${source}: tier`);
  const insertion = probabilities(o.insertion, P, `${source}: insertion`);
  const topK = perInsertion(o.topK, TOP_K.length, `${source}: topK`);
  const raw3 = perInsertion(o.knob3, KNOB3_WIDTH, `${source}: knob3`);
  const knob3 = raw3.map((row, i) => {
    const p = INSERTION_POSITIONS[i]!;
    const masked = row.map((x, n) => (knob3Valid(p, n) ? x : 0));
    const sum = masked.reduce((a, b) => a + b, 0);
    if (sum > 0) return normalise(masked);
    if (insertion[i]! > 0) {
      const valid = Array.from({ length: KNOB3_WIDTH }, (_, n) => n).filter((n) => knob3Valid(p, n));
      throw new ConfigError(
        `${source}: knob3 gives no weight to the options valid after block ${p} (n = ${valid.join(', ')}), but insertion ${p} has probability ` +
          `${insertion[i]!.toFixed(3)}`,
      );
    }
    return masked;
  });
  return { tier, insertion, topK, knob3 };
}

/** Inverse-CDF draw of one option; `u` in [0, 1). Falls back to the last positive option on rounding. */
function categorical(probs: number[], u: number): number {
  let acc = 0;
  let last = 0;
  for (let i = 0; i < probs.length; i++) {
    if (probs[i]! <= 0) continue;
    acc += probs[i]!;
    last = i;
    if (u < acc) return i;
  }
  return last;
}

/**
 * Draws `k` configurations for each of `samples` inputs, sample-major (repeat_interleave order),
 * from PyTorch's CPU generator seeded with `seed`: four float64 uniforms per configuration, one
 * per head in the order tier, insertion, top-K, knob 3.
 */
export function sampleActions(policy: ControllerPolicy, samples: number, k: number, seed: number): ConfigActions[] {
  if (policy.tables.length !== 1 && policy.tables.length !== samples) {
    throw new ConfigError(`policy ${policy.name} has tables for ${policy.tables.length} samples, but the batch has ${samples}`);
  }
  const gen = new Mt19937(seed);
  const out: ConfigActions[] = [];
  for (let s = 0; s < samples; s++) {
    const t = policy.tables[policy.tables.length === 1 ? 0 : s]!;
    for (let j = 0; j < k; j++) {
      const u = rand(gen, 4, 'float64');
      const insertion = categorical(t.insertion, u[1]!);
      out.push({
        tier: categorical(t.tier, u[0]!),
        insertion,
        topK: categorical(t.topK[insertion]!, u[2]!),
        knob3: categorical(t.knob3[insertion]!, u[3]!),
      });
    }
  }
  return out;
}
