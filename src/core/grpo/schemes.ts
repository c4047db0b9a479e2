// One entry point for the advantage schemes the CLI (`grpo-sandbox advantages`) and the training
// loop (src/train) share: gathered rewards and prompt ids in, advantages in gathered order out,
// computed as each framework does (advantages.ts). Checks the inputs first and names what is wrong.
import { ConfigError } from '../errors.ts';
import {
  danceGrpoAdvantages,
  danceGrpoBatchAdvantages,
  flowGrpoAdvantages,
  trlAdvantages,
  trlAsyncAdvantages,
  verlAdvantages,
} from './advantages.ts';

export const ADVANTAGE_SCHEMES = [
  'flow-grpo',
  'flow-grpo-prompt-std',
  'trl-group',
  'trl-batch',
  'trl-none',
  'trl-async',
  'verl',
  'verl-no-std',
  'dance',
  'dance-nogroup',
] as const;
export type AdvantageScheme = (typeof ADVANTAGE_SCHEMES)[number];

/** One line per scheme, for help texts. */
export const SCHEME_ABOUT: Record<AdvantageScheme, string> = {
  'flow-grpo':
    'PerPromptStatTracker, global_std=True (the shipped configs): group by prompt id, mean per prompt, numpy std (ddof 0) of ALL rewards, eps 1e-4',
  'flow-grpo-prompt-std': 'PerPromptStatTracker, global_std=False (the class default): mean and numpy std (ddof 0) per prompt id, eps 1e-4',
  'trl-group': 'TRL scale_rewards="group": rows of view(-1, k), unbiased std per row, eps 1e-4',
  'trl-batch': 'TRL scale_rewards="batch": rows of view(-1, k) for the mean, unbiased std of the whole batch, eps 1e-4',
  'trl-none': 'TRL scale_rewards="none" (Dr. GRPO): r − row mean, no division',
  'trl-async': "TRL 1.13.0 async_grpo (AsyncRolloutWorker._score_group): each prompt's group object alone, numpy std (ddof 0), eps 1e-8",
  verl:
    'verl GRPO (norm_adv_by_std_in_grpo=True, the default): group by uid (one per draw of a prompt in the step), unbiased std, eps 1e-6; ' +
    'a lone sample gets mean 0, std 1',
  'verl-no-std': 'verl GRPO with norm_adv_by_std_in_grpo=False (Dr. GRPO): r − uid group mean, no division; a lone sample keeps r',
  dance:
    'DanceGRPO --use_group (its shipped scripts): each rank normalises its own consecutive groups of k, unbiased std, eps 1e-8, no gather',
  'dance-nogroup':
    'DanceGRPO without --use_group: (r − mean) / (unbiased std + 1e-8) over ALL gathered rewards (its run samples each prompt once)',
};

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

/** TRL's GRPOTrainer schemes: rewards.view(-1, k) (the async trainer's groups are objects, not positions). */
const TRL_VIEW: ReadonlySet<AdvantageScheme> = new Set(['trl-group', 'trl-batch', 'trl-none']);

/** Checks that `scheme` can group this input; a ConfigError naming the field otherwise. */
export function checkAdvantageInput(scheme: AdvantageScheme, input: AdvantageInput): void {
  const n = input.rewards.length;
  if (!ADVANTAGE_SCHEMES.includes(scheme))
    throw new ConfigError(`unknown advantage scheme '${scheme}'; use one of ${ADVANTAGE_SCHEMES.join(', ')}`);
  if (n === 0) throw new ConfigError('rewards is empty; give one reward per gathered sample');
  if (input.promptIds.length !== n)
    throw new ConfigError(`promptIds has ${input.promptIds.length} entries but rewards has ${n}; give one prompt id per reward`);
  if (!Number.isInteger(input.k) || input.k < 1) throw new ConfigError(`k must be a whole number ≥ 1, got ${input.k}`);
  if (!Number.isInteger(input.ranks) || input.ranks < 1) throw new ConfigError(`ranks must be a whole number ≥ 1, got ${input.ranks}`);
  if (TRL_VIEW.has(scheme) && n % input.k !== 0)
    throw new ConfigError(`TRL views the ${n} rewards as rows of k=${input.k}; give a multiple of k rewards or another --k`);
  if (scheme === 'dance') {
    if (n % input.ranks !== 0)
      throw new ConfigError(`dance splits the ${n} rewards over ranks=${input.ranks}; give a multiple of ranks rewards`);
    if ((n / input.ranks) % input.k !== 0)
      throw new ConfigError(`dance groups each rank's ${n / input.ranks} rewards in runs of k=${input.k}; each rank needs a multiple of k`);
  }
}

/** Advantages in gathered order, as `scheme` computes them. */
export function schemeAdvantages(scheme: AdvantageScheme, input: AdvantageInput): number[] {
  checkAdvantageInput(scheme, input);
  const { rewards, promptIds, k, ranks } = input;
  switch (scheme) {
    case 'flow-grpo':
      return flowGrpoAdvantages(rewards, promptIds, true);
    case 'flow-grpo-prompt-std':
      return flowGrpoAdvantages(rewards, promptIds, false);
    case 'trl-group':
      return trlAdvantages(rewards, k, 'group');
    case 'trl-batch':
      return trlAdvantages(rewards, k, 'batch');
    case 'trl-none':
      return trlAdvantages(rewards, k, 'none');
    case 'trl-async':
      return trlAsyncAdvantages(rewards, promptIds);
    case 'verl':
      return verlAdvantages(rewards, promptIds, true);
    case 'verl-no-std':
      return verlAdvantages(rewards, promptIds, false);
    case 'dance-nogroup':
      return danceGrpoBatchAdvantages(rewards);
    case 'dance': {
      const per = rewards.length / ranks;
      const out: number[] = [];
      for (let r = 0; r < ranks; r++) out.push(...danceGrpoAdvantages(Array.from(rewards).slice(r * per, (r + 1) * per), k));
      return out;
    }
  }
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
export function groupsByPosition(scheme: AdvantageScheme): boolean {
  return TRL_VIEW.has(scheme) || scheme === 'dance';
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
