// Every framework's advantages side by side: one batch of rewards and prompt ids in, each scheme's
// advantages out (the sandbox's own schemes of schemes.ts, then every framework home's schemes as
// the registry holds them), with the framework and the version it reproduces, how it finds a group,
// what it would flag, and a few summary numbers. Each column is the scheme's own function, called
// as `advantages --scheme` calls it; nothing is recomputed here.
import { ConfigError } from '../errors.ts';
import { FRAMEWORK_HOMES, homeAdvantageSchemes } from '../frameworks/index.ts';
import type { GroupIdentity } from './scheme-types.ts';
import { ADVANTAGE_SCHEMES, type AdvantageScheme, type MixedGroup, mixedGroups, schemeAdvantages, schemeDefOf } from './schemes.ts';

/** How a scheme finds the samples it normalises together: a framework home's answer, or the whole batch as one. */
export type Grouping = GroupIdentity;

/** One batch to compare: a reward and a prompt id per completion, in gathered order, and the group size. */
export interface CompareInput {
  rewards: readonly number[];
  promptIds: readonly number[];
  k: number;
}

/** What a framework would flag on this batch. */
export type CompareWarning =
  /** A position-grouped scheme's group that holds more than one prompt id (the sandbox's own schemes). */
  | { kind: 'mixed'; groups: MixedGroup[] }
  /** A framework home's own warning, in English as the home says it (slime's whole-batch fallback, …). */
  | { kind: 'framework'; text: string };

/** Summary numbers of one column. */
export interface ColumnSummary {
  /** The advantage of the completion with the highest reward (the first, on a tie); null where it is NaN. */
  best: number | null;
  /** The advantage of the completion with the lowest reward (the first, on a tie). */
  worst: number | null;
  /** How many advantages are within ZERO of 0: completions that push the policy nowhere. */
  zero: number;
  /** How many are NaN (null). */
  nan: number;
}

/** One scheme's column. */
export interface SchemeColumn {
  scheme: string;
  /** The framework's name as its users write it ('TRL', 'THUDM slime'). */
  framework: string;
  /** The version the scheme reproduces: a release or a short commit. */
  version: string;
  grouping: Grouping;
  /** The scheme's one-line description (the same as `advantages --help`). */
  about: string;
  /** Advantages in input order (null for NaN), or null when the framework refuses this batch. */
  advantages: (number | null)[] | null;
  /** The framework's refusal, in English (a ConfigError's message), or null. */
  refused: string | null;
  warnings: CompareWarning[];
  summary: ColumnSummary | null;
}

export interface Comparison {
  /** Index of the completion with the highest reward, and of the one with the lowest (the first, on a tie). */
  best: number;
  worst: number;
  columns: SchemeColumn[];
}

/** |A| below this counts as zero in the summary (a flat group's mean can round in its last bit). */
export const ZERO = 1e-6;

/** Every scheme name: the sandbox's own first, then each framework home's, as the registry holds them now. */
export function comparedSchemes(): string[] {
  return [...ADVANTAGE_SCHEMES, ...homeAdvantageSchemes().map((h) => h.def.scheme)];
}

/** Each framework's shipped default scheme: the sandbox's five (TRL's async trainer has its own), then each home's first (its default, types.ts says). */
export function defaultSchemes(): string[] {
  return [
    ...ADVANTAGE_SCHEMES.filter((s) => schemeDefOf(s).shippedDefault),
    ...FRAMEWORK_HOMES.filter((h) => h.advantages.length > 0).map((h) => h.advantages[0]!.scheme),
  ];
}

/** The first index of the extreme reward (`sign` 1: highest, −1: lowest). */
function extreme(rewards: readonly number[], sign: 1 | -1): number {
  let at = 0;
  for (let i = 1; i < rewards.length; i++) if (sign * rewards[i]! > sign * rewards[at]!) at = i;
  return at;
}

function summary(advantages: readonly (number | null)[], best: number, worst: number): ColumnSummary {
  return {
    best: advantages[best] ?? null,
    worst: advantages[worst] ?? null,
    zero: advantages.filter((a) => a !== null && Math.abs(a) < ZERO).length,
    nan: advantages.filter((a) => a === null).length,
  };
}

/** A column whose framework refuses the batch. */
const refusedColumn = (head: Omit<SchemeColumn, 'advantages' | 'refused' | 'warnings' | 'summary'>, err: unknown): SchemeColumn => {
  if (!(err instanceof ConfigError)) throw err;
  return { ...head, advantages: null, refused: err.message, warnings: [], summary: null };
};

/**
 * Every scheme's advantages for one batch (`schemes`: these, in this order; default all of
 * comparedSchemes()). A scheme whose framework refuses the batch gets a column with its refusal; a
 * malformed batch (no rewards, a prompt id per reward missing, k below 1) or an unknown scheme is a ConfigError.
 */
export function compareAdvantages(input: CompareInput, schemes: readonly string[] = comparedSchemes()): Comparison {
  const { rewards, promptIds, k } = input;
  if (rewards.length === 0) throw new ConfigError('rewards is empty; give one reward per completion');
  if (promptIds.length !== rewards.length)
    throw new ConfigError(`promptIds has ${promptIds.length} entries but rewards has ${rewards.length}; give one prompt id per reward`);
  // Every scheme groups in runs of k or checks against it; k = 0 would leave a run that never ends.
  if (!Number.isInteger(k) || k < 1) throw new ConfigError(`k must be a whole number ≥ 1, got ${k}`);
  const homes = homeAdvantageSchemes();
  const known = comparedSchemes();
  const unknown = schemes.filter((s) => !known.includes(s));
  if (unknown.length) throw new ConfigError(`unknown scheme ${unknown.map((s) => `'${s}'`).join(', ')}; use some of ${known.join(', ')}`);
  const best = extreme(rewards, 1);
  const worst = extreme(rewards, -1);
  const columns = schemes.map((scheme): SchemeColumn => {
    const own = homes.find((h) => h.def.scheme === scheme);
    if (own) {
      const head = {
        scheme,
        framework: own.home.title,
        version: own.home.pinned.commit.slice(0, 7),
        grouping: own.def.groupBy,
        about: own.def.about,
      };
      try {
        const out = own.def.compute({ rewards, promptIds, k });
        const warnings = out.warnings.map((text): CompareWarning => ({ kind: 'framework', text }));
        return { ...head, advantages: out.advantages, refused: null, warnings, summary: summary(out.advantages, best, worst) };
      } catch (err) {
        return refusedColumn(head, err);
      }
    }
    const sandbox = scheme as AdvantageScheme;
    const { framework, version, groupBy: grouping, about } = schemeDefOf(sandbox);
    const head = { scheme, framework, version, grouping, about };
    // One rank: DanceGRPO's per-rank normalisation is then its runs of k over the whole batch.
    const given = { rewards, promptIds, k, ranks: 1 };
    try {
      const advantages = schemeAdvantages(sandbox, given).map((a) => (Number.isNaN(a) ? null : a));
      const mixed = mixedGroups(sandbox, given);
      const warnings: CompareWarning[] = mixed.length ? [{ kind: 'mixed', groups: mixed }] : [];
      return { ...head, advantages, refused: null, warnings, summary: summary(advantages, best, worst) };
    } catch (err) {
      return refusedColumn(head, err);
    }
  });
  return { best, worst, columns };
}
