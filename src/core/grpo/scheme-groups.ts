// Every advantage scheme of schemes.ts as one parametrised rule, for a kernel that computes the
// advantages where the rewards are (shaders/schemeAdvantage.wgsl): the gathered rows split into
// groups, and each row's advantage is (r − its group's mean) / (std + eps), the std with ddof 0 or
// 1 over the group or over the whole batch, or r − mean when the scheme does not divide; verl's
// lone sample keeps r (÷ float32(1 + 1e-6) when dividing). schemeGroups says which groups and which
// settings; advantagesOfGroups evaluates the rule on the CPU, so a test can hold it to schemeAdvantages.
import { ADVANTAGE_SCHEMES, checkAdvantageInput, type AdvantageInput, type AdvantageScheme } from './schemes.ts';

/** How one scheme normalises, over groups of gathered positions. */
export interface SchemeGroups {
  /** Gathered positions of each group; every position in exactly one group. */
  groups: number[][];
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

/** Positions bucketed by key, buckets in order of first appearance (flow_grpo's prompts, verl's uids). */
function byKey(keys: ArrayLike<number>): number[][] {
  const buckets = new Map<number, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const b = buckets.get(keys[i]!);
    if (b) b.push(i);
    else buckets.set(keys[i]!, [i]);
  }
  return [...buckets.values()];
}

/** Consecutive runs of `size` positions (TRL's view(-1, k); DanceGRPO's runs of k, each rank holding a multiple of k). */
function runsOf(n: number, size: number): number[][] {
  const out: number[][] = [];
  for (let at = 0; at < n; at += size) out.push(Array.from({ length: size }, (_, j) => at + j));
  return out;
}

/** How a scheme puts gathered positions into groups: by prompt id (flow_grpo's prompts, verl's uids), runs of k, or one group of all. */
export type Grouping = 'prompt' | 'runs' | 'all';

/** A scheme's rule without its groups: how it groups, and how it normalises each group. */
export type SchemeRule = Omit<SchemeGroups, 'groups'> & { grouping: Grouping };

/** The rule of each scheme (the one table schemeGroups and slotAdvantages read). */
export function schemeRule(scheme: AdvantageScheme): SchemeRule {
  return SCHEME_RULES[scheme];
}

const SCHEME_RULES = Object.fromEntries(ADVANTAGE_SCHEMES.map((s) => [s, Object.freeze(ruleOf(s))])) as Record<AdvantageScheme, SchemeRule>;

function ruleOf(scheme: AdvantageScheme): SchemeRule {
  const base = { loneKeepsReward: false, divide: true, batchStd: false };
  switch (scheme) {
    case 'flow-grpo':
      return { ...base, grouping: 'prompt', ddof: 0, batchStd: true, eps: 1e-4 };
    case 'flow-grpo-prompt-std':
      return { ...base, grouping: 'prompt', ddof: 0, eps: 1e-4 };
    case 'trl-group':
      return { ...base, grouping: 'runs', ddof: 1, eps: 1e-4 };
    case 'trl-batch':
      return { ...base, grouping: 'runs', ddof: 1, batchStd: true, eps: 1e-4 };
    case 'trl-none':
      return { ...base, grouping: 'runs', ddof: 1, eps: 1e-4, divide: false };
    case 'trl-async':
      return { ...base, grouping: 'prompt', ddof: 0, eps: 1e-8 };
    case 'verl':
      return { ...base, grouping: 'prompt', ddof: 1, eps: 1e-6, loneKeepsReward: true };
    case 'verl-no-std':
      return { ...base, grouping: 'prompt', ddof: 1, eps: 1e-6, divide: false, loneKeepsReward: true };
    case 'dance':
      return { ...base, grouping: 'runs', ddof: 1, eps: 1e-8 };
    case 'dance-nogroup':
      return { ...base, grouping: 'all', ddof: 1, eps: 1e-8 };
  }
}

/** The groups and settings of `scheme` for this gathered batch (checked as schemeAdvantages checks it). */
export function schemeGroups(scheme: AdvantageScheme, input: AdvantageInput): SchemeGroups {
  checkAdvantageInput(scheme, input);
  const n = input.rewards.length;
  const { grouping, ...rule } = schemeRule(scheme);
  const groups =
    grouping === 'prompt' ? byKey(input.promptIds) : grouping === 'runs' ? runsOf(n, input.k) : [Array.from({ length: n }, (_, i) => i)];
  return { ...rule, groups };
}

/** Groups as the kernel reads them: members (positions, group after group) and starts (groups + 1 offsets into members). */
export function packedGroups(groups: readonly number[][]): { members: Uint32Array; starts: Uint32Array } {
  const starts = new Uint32Array(groups.length + 1);
  groups.forEach((g, i) => {
    starts[i + 1] = starts[i]! + g.length;
  });
  return { members: Uint32Array.from(groups.flat()), starts };
}

/** verl's lone-sample divisor (advantages.ts): float32(1 + 1e-6). */
export const LONE_DIVISOR = Math.fround(1 + 1e-6);

/** The rule of SchemeGroups on the CPU in float64, the mean shifted by the group's first member (as advantages.ts and the kernel do). */
export function advantagesOfGroups(rewards: ArrayLike<number>, s: SchemeGroups): number[] {
  const meanStd = (g: readonly number[]) => {
    const first = rewards[g[0]!]!;
    let sum = 0;
    for (const i of g) sum += rewards[i]! - first;
    const mean = first + sum / g.length;
    let sq = 0;
    for (const i of g) sq += (rewards[i]! - mean) ** 2;
    return { mean, std: Math.sqrt(sq / (g.length - s.ddof)) };
  };
  const batch = s.batchStd ? meanStd(Array.from({ length: rewards.length }, (_, i) => i)).std : 0;
  const out = new Array<number>(rewards.length).fill(Number.NaN);
  for (const g of s.groups) {
    const { mean, std } = meanStd(g);
    const divisor = s.divide ? (s.batchStd ? batch : std) + s.eps : 1;
    for (const i of g) {
      if (g.length === 1 && s.loneKeepsReward) out[i] = s.divide ? rewards[i]! / LONE_DIVISOR : rewards[i]!;
      else out[i] = (rewards[i]! - mean) / divisor;
    }
  }
  return out;
}
