// One entry point for the advantage schemes the CLI (`grpo-sandbox advantages`) and the training
// loop (src/train) share: gathered rewards and prompt ids in, advantages in gathered order out,
// computed as each framework does. Each scheme is declared in its framework's home
// (src/core/frameworks/<name>/advantages.ts); this registry reads them from the sampler homes' list.
// Checks the inputs first and names what is wrong.
import { ConfigError } from '../errors.ts';
import { SAMPLER_HOMES, type SamplerHome } from '../frameworks/sampler-homes.ts';
import { type AdvantageDef, homeAdvantageSchemes } from '../frameworks/index.ts';
import type { AdvantageInput, SchemeDef } from './scheme-types.ts';

export type { AdvantageInput } from './scheme-types.ts';

/** Every home's schemes, in the homes' order (help texts list them so), each with its name's literal type. */
const SCHEMES = SAMPLER_HOMES.flatMap<SamplerHome['schemes'][number]>((home) => home.schemes);

export type AdvantageScheme = (typeof SCHEMES)[number]['scheme'];
export const ADVANTAGE_SCHEMES: readonly AdvantageScheme[] = SCHEMES.map((s) => s.scheme);

/**
 * A scheme the training step computes: one of the sandbox's own (AdvantageScheme, with a group rule the
 * kernel and slot-advantages.ts evaluate), or a framework home's AdvantageDef (computed over the whole batch).
 */
export type TrainScheme = AdvantageScheme | (string & {});

/** Every scheme `train --advantage` takes: the sandbox's, then each framework home's. */
export const TRAIN_SCHEMES: readonly TrainScheme[] = [...ADVANTAGE_SCHEMES, ...homeAdvantageSchemes().map((h) => h.def.scheme)];

/** Whether `scheme` is one of the sandbox's own (it has a SchemeDef and a group rule). */
export const isSandboxScheme = (scheme: string): scheme is AdvantageScheme => (ADVANTAGE_SCHEMES as readonly string[]).includes(scheme);

/** The framework home's scheme named `scheme`, if it is one. */
export function homeSchemeDef(scheme: string): AdvantageDef | undefined {
  return homeAdvantageSchemes().find((h) => h.def.scheme === scheme)?.def;
}

/**
 * Whether the scheme's advantages are centred within each of its groups, so their mean over the batch is 0 by
 * construction: the sandbox's schemes except verl's (a lone sample keeps its reward); a home's scheme is not
 * claimed to be (clips, biases and leave-one-out baselines need not centre).
 */
export function centresEachGroup(scheme: TrainScheme): boolean {
  return isSandboxScheme(scheme) && !schemeDefOf(scheme).rule.loneKeepsReward;
}

/** The definition of `scheme` (its home's SchemeDef). */
export function schemeDefOf(scheme: AdvantageScheme): SchemeDef<AdvantageScheme> {
  return SCHEMES.find((s) => s.scheme === scheme)!;
}

/** One line per scheme, for help texts. */
export const SCHEME_ABOUT = Object.fromEntries(SCHEMES.map((s) => [s.scheme, s.about])) as Record<AdvantageScheme, string>;

/**
 * Checks that `scheme` can group this input; a ConfigError naming the field otherwise. A home's scheme
 * gets the common checks here and refuses the rest itself when it computes.
 */
export function checkAdvantageInput(scheme: TrainScheme, input: AdvantageInput): void {
  const n = input.rewards.length;
  const home = !isSandboxScheme(scheme) && homeSchemeDef(scheme) !== undefined;
  if (!home && !isSandboxScheme(scheme))
    throw new ConfigError(`unknown advantage scheme '${scheme}'; use one of ${ADVANTAGE_SCHEMES.join(', ')}`);
  if (n === 0) throw new ConfigError('rewards is empty; give one reward per gathered sample');
  if (input.promptIds.length !== n)
    throw new ConfigError(`promptIds has ${input.promptIds.length} entries but rewards has ${n}; give one prompt id per reward`);
  if (!Number.isInteger(input.k) || input.k < 1) throw new ConfigError(`k must be a whole number ≥ 1, got ${input.k}`);
  if (!Number.isInteger(input.ranks) || input.ranks < 1) throw new ConfigError(`ranks must be a whole number ≥ 1, got ${input.ranks}`);
  if (home) return;
  const refused = schemeDefOf(scheme as AdvantageScheme).refusal(input);
  if (refused !== null) throw new ConfigError(refused);
}

/**
 * Advantages in gathered order, as `scheme` computes them (NaN where a home's scheme gives null). A home's
 * warnings (slime's one-group fallback) are not returned here: `advantages --scheme` prints them.
 */
export function schemeAdvantages(scheme: TrainScheme, input: AdvantageInput): number[] {
  checkAdvantageInput(scheme, input);
  if (isSandboxScheme(scheme)) return schemeDefOf(scheme).compute(input);
  const { advantages } = homeSchemeDef(scheme)!.compute({
    rewards: Array.from(input.rewards),
    promptIds: Array.from(input.promptIds),
    k: input.k,
  });
  return advantages.map((a) => a ?? Number.NaN);
}

/** A group of a row-based scheme that holds more than one prompt id (`layout`'s MIXED flag). */
export interface MixedGroup {
  /** The group's index: row of view(-1, k) (TRL), or the same run of k in rank-major order (DanceGRPO). */
  group: number;
  /** Gathered positions [first, last]. */
  positions: [number, number];
  /** The prompt id at each position of the group. */
  promptIds: number[];
}

/**
 * The schemes that group by position (TRL's view(-1, k), DanceGRPO's runs of k per rank) rather than by
 * prompt id or uid: only they can put different prompts in one group.
 */
export function groupsByPosition(scheme: TrainScheme): boolean {
  return SCHEMES.find((s) => s.scheme === scheme)?.rule.grouping === 'runs';
}

/**
 * The groups of a position-based scheme that mix prompt ids, in order (checked input); [] for schemes
 * that group by id. Each rank's runs of k in DanceGRPO are rows of k of the gathered order, since each
 * rank holds a multiple of k.
 */
export function mixedGroups(scheme: AdvantageScheme, input: AdvantageInput): MixedGroup[] {
  checkAdvantageInput(scheme, input);
  if (!groupsByPosition(scheme)) return [];
  const out: MixedGroup[] = [];
  for (let start = 0, group = 0; start < input.promptIds.length; start += input.k, group++) {
    const ids = Array.from(input.promptIds).slice(start, start + input.k);
    if (new Set(ids).size > 1) out.push({ group, positions: [start, start + input.k - 1], promptIds: ids });
  }
  return out;
}
