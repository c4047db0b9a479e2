// What a framework home declares about its advantages (src/core/frameworks/<name>/advantages.ts):
// its schemes, each with the framework version it reproduces and how that was checked, the
// regrouping and scale its sampler's framework uses, and the advantage that goes with a regrouping.
// The registries (schemes.ts, framework-defaults.ts, advantages.ts) are built from lists of these
// objects; a home imports this file and never a registry.
import type { AdvantageDef } from '../frameworks/types.ts';
import type { Gather, RegroupMethod, SamplerName } from '../layout/types.ts';

/** TRL's `scale_rewards`: std per group (default), over the whole batch, or no division (Dr. GRPO). */
export type ScaleRewards = 'group' | 'batch' | 'none';

export interface AdvantageInput {
  /** One reward per gathered sample, rank-major. */
  rewards: ArrayLike<number>;
  /** The prompt id of each gathered sample (verl's uid: one draw of a prompt per step). */
  promptIds: ArrayLike<number>;
  /** Group size (num_generations). */
  k: number;
  /** World size: dance normalises each rank's 1/ranks of the gathered batch on its own. */
  ranks: number;
}

/** How a scheme puts gathered positions into groups: by prompt id (flow_grpo's prompts, verl's uids), runs of k, or one group of all. */
export type Grouping = 'prompt' | 'runs' | 'all';

/** How one scheme normalises each group (scheme-groups.ts evaluates it; the kernel and slot-advantages.ts too). */
export interface SchemeRule {
  grouping: Grouping;
  /** numpy's population std (0) or torch's unbiased std (1). */
  ddof: 0 | 1;
  /** Whether the std is the whole batch's (one number) rather than each group's. */
  batchStd: boolean;
  eps: number;
  /** false: r − mean (Dr. GRPO and TRL's scale_rewards="none"). */
  divide: boolean;
  /** verl: a group of one keeps r (÷ float32(1 + 1e-6) when dividing) instead of r − r. */
  loneKeepsReward: boolean;
}

/** How the framework identifies a group, as `advantages --compare` reports it: a home's answer, or the whole batch as one. */
export type GroupIdentity = AdvantageDef['groupBy'] | 'batch';

/** One of the sandbox's own advantage schemes (`advantages --scheme NAME`, `train --advantage NAME`), declared in its framework's home. */
export interface SchemeDef<N extends string = string> {
  /** The CLI name. */
  scheme: N;
  /** One line for help texts. */
  about: string;
  /** The framework as people name it ('TRL async_grpo'), for `advantages --compare`. */
  framework: string;
  /** The version the scheme reproduces: a release or a short commit. */
  version: string;
  /** What the scheme was checked against: the fixture and whether the framework's code was exec'd or transcribed. */
  checkedBy: string;
  groupBy: GroupIdentity;
  rule: SchemeRule;
  /** Whether this is the framework's shipped default (`advantages --compare`'s default columns). */
  shippedDefault: boolean;
  /** The framework's refusal of this input beyond the common checks, in English, or null where it accepts it. */
  refusal(input: AdvantageInput): string | null;
  /** Advantages in gathered order (checked input). */
  compute(input: AdvantageInput): number[];
}

/** A scheme definition with its name's literal type kept (so the registry's union of names stays exact). */
export const schemeDef = <N extends string>(def: SchemeDef<N>): SchemeDef<N> => def;

/** Which regrouping and advantage a sampler's framework uses, so a front end can mark any other choice as a "what if". */
export interface FrameworkDefault {
  /** The framework the sampler reproduces, as people name it. */
  framework: string;
  regroup: RegroupMethod;
  /** TRL's scale_rewards default (used only with 'view'). */
  scale: ScaleRewards;
  /** What that framework does after sampling, in one clause. */
  does: string;
}

/** A sampler's FrameworkDefault, keyed by the sampler it belongs to. */
export interface SamplerDefault<S extends SamplerName = SamplerName> extends FrameworkDefault {
  sampler: S;
}

/** The advantage that goes with a regrouping of src/core/layout/regroup.ts: the framework that regroups so, computing it. */
export interface RegroupAdvantage<M extends RegroupMethod = RegroupMethod> {
  regroup: M;
  /** Throws a RangeError when the regrouping cannot apply (e.g. view(-1, k) of a count that is not a multiple of k). */
  compute(gather: Gather, rewards: ArrayLike<number>, k: number, scale: ScaleRewards): number[];
}
