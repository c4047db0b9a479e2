// The two scenarios of docs/dynamic-sampling.md (seed-002, seed-004),
// with reward draws scripted so their numbers come out exactly.
import type { RewardModel } from './rewards.ts';
import type { DynamicConfig } from './types.ts';

export interface DynamicPreset {
  description: string;
  /** How the reward draws were chosen, printed with the log. */
  draws: string;
  config: Partial<DynamicConfig>;
  rewards: Extract<RewardModel, { kind: 'script' }>;
  /** Device fix settings to run in turn (seed-004 shows the error, then the fix). */
  deviceFix: boolean[];
}

export const DYNAMIC_PRESETS: Record<string, DynamicPreset> = {
  'seed-002': {
    description:
      'seed-002: 4 ranks × 16, 3 resamples, pool 48 → 56 → 60 → 62 of 64; a naive slice leaves rank 3 with 14, and the next gather fails',
    draws:
      'k = 2 (8 prompts × 2 per rank): with whole groups kept, resample 3 can add 2 samples only if a group has 2 members ' +
      "(the document's 4 × 4 cannot reach 62). Mixed groups per rank: original 6,6,6,6 (48); resample 1 1,1,1,1 (+8); " +
      'resample 2 1,0,1,0 (+4); resample 3 0,0,1,0 (+2). A mixed group scores 1,0; the other groups tie at all 0 or all 1.',
    config: { ranks: 4, perRank: 16, k: 2, policy: 'naive', maxResampleTimes: 3 },
    rewards: {
      kind: 'script',
      valid: [
        [6, 6, 6, 6],
        [1, 1, 1, 1],
        [1, 0, 1, 0],
        [0, 0, 1, 0],
      ],
    },
    deviceFix: [true],
  },
  'seed-004': {
    description:
      'seed-004: 4 ranks × 16, pool 56/64, one resample to 64/64, slices [0:16] [16:32] [32:48] [48:64] of 2 groups each; ' +
      'stacking a slice fails with the device error until each tensor is moved with .to(device)',
    draws:
      'k = 8 (2 prompts × 8 per rank, so each slice holds the 2 groups the document names). Mixed groups per rank: original ' +
      '1,2,2,2 (56); resample 1 0,1,0,0 (+8 → 64). A mixed group scores 1,0,1,0,…; the others tie.',
    config: { ranks: 4, perRank: 16, k: 8, policy: 'fallback', maxResampleTimes: 3 },
    rewards: {
      kind: 'script',
      valid: [
        [1, 2, 2, 2],
        [0, 1, 0, 0],
      ],
    },
    deviceFix: [false, true],
  },
};

export const DYNAMIC_PRESET_NAMES = Object.keys(DYNAMIC_PRESETS);
