// Every advantage scheme of schemes.ts as one parametrised rule, for a kernel that computes the
// advantages where the rewards are (shaders/schemeAdvantage.wgsl): the gathered rows split into
// groups, and each row's advantage is (r − its group's mean) / (std + eps), the std with ddof 0 or
// 1 over the group or over the whole batch, or r − mean when the scheme does not divide; verl's
// lone sample keeps r (÷ float32(1 + 1e-6) when dividing). schemeGroups says which groups and which
// settings; advantagesOfGroups evaluates the rule on the CPU, so a test can hold it to schemeAdvantages.
import { ConfigError } from '../errors.ts';
import {
  ADVANTAGE_SCHEMES,
  checkAdvantageInput,
  isSandboxScheme,
  schemeDefOf,
  type AdvantageInput,
  type AdvantageScheme,
  type TrainScheme,
} from './schemes.ts';
import type { SchemeRule as Rule } from './scheme-types.ts';

export type { Grouping } from './scheme-types.ts';

/** How one scheme normalises, over groups of gathered positions. */
export type SchemeGroups = Omit<Rule, 'grouping'> & {
  /** Gathered positions of each group; every position in exactly one group. */
  groups: number[][];
};

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

/** A scheme's rule without its groups: how it groups, and how it normalises each group (declared in the scheme's home). */
export type SchemeRule = Rule;

/** The rule of each scheme (the one table schemeGroups and slotAdvantages read). */
export function schemeRule(scheme: AdvantageScheme): SchemeRule {
  return SCHEME_RULES[scheme];
}

const SCHEME_RULES = Object.fromEntries(ADVANTAGE_SCHEMES.map((s) => [s, Object.freeze({ ...schemeDefOf(s).rule })])) as Record<
  AdvantageScheme,
  SchemeRule
>;

/** The groups and settings of `scheme` for this gathered batch (checked as schemeAdvantages checks it). */
export function schemeGroups(scheme: TrainScheme, input: AdvantageInput): SchemeGroups {
  checkAdvantageInput(scheme, input);
  if (!isSandboxScheme(scheme))
    throw new ConfigError(
      `--advantage ${scheme} is a framework home's scheme without a group rule for the device's kernel; train it on the CPU or on 2+ ranks`,
    );
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
