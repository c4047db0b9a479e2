// Which regrouping and advantage each sampler's framework uses (docs/frameworks.md), so a
// front end can start from what the real framework does and mark any other choice as a
// "what if" on that layout.
import type { RegroupMethod, SamplerName } from '../layout/types.ts';
import type { ScaleRewards } from './advantages.ts';

export interface FrameworkDefault {
  /** The framework the sampler reproduces, as people name it. */
  framework: string;
  regroup: RegroupMethod;
  /** TRL's scale_rewards default (used only with 'view'). */
  scale: ScaleRewards;
  /** What that framework does after sampling, in one clause. */
  does: string;
}

export const frameworkDefaults: Readonly<Record<SamplerName, FrameworkDefault>> = {
  'flow-grpo': {
    framework: 'flow_grpo',
    regroup: 'prompt-id',
    scale: 'group',
    does: 'gathers the epoch and groups by prompt with its PerPromptStatTracker',
  },
  'flow-grpo-lcm': {
    framework: 'flow_grpo',
    regroup: 'prompt-id',
    scale: 'group',
    does: 'gathers the epoch and groups by prompt with its PerPromptStatTracker',
  },
  trl: { framework: 'TRL', regroup: 'view', scale: 'group', does: 'gathers each generation batch and groups with rewards.view(-1, k)' },
  'dance-grpo': {
    framework: 'DanceGRPO',
    regroup: 'local',
    scale: 'group',
    does: 'keeps all k copies on one rank and normalises them there, without a gather',
  },
  contiguous: {
    framework: 'Flow-Factory (GroupContiguousSampler)',
    regroup: 'local',
    scale: 'group',
    does: 'keeps all k copies on one rank, so each rank can form its groups without a gather',
  },
  verl: {
    framework: 'verl',
    regroup: 'uid',
    scale: 'group',
    does: 'holds the whole batch on the driver, groups by the uid each prompt got before repeat (compute_grpo_outcome_advantage)',
  },
  'group-distributed': {
    framework: 'Flow-Factory (GroupDistributedSampler)',
    regroup: 'uid',
    scale: 'group',
    does:
      'spreads each prompt’s copies over ranks, so groups form after the gather (by draw here: the docs this sandbox follows do not record its ' +
      'exact grouping)',
  },
};
