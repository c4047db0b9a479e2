// Named schedule settings. seed-001 (docs/scenarios.md): batch 4, group 5, 4 GPUs, one
// configuration takes T; α = 0 makes the seed's arithmetic exact (20T serially, 5T per rank).
import type { ScheduleConfig } from './types.ts';

export const schedulePresets: Record<string, { description: string; config: ScheduleConfig }> = {
  'seed-001': {
    description:
      'seed-001: batch 4 × group 5 = 20 configurations on 4 GPUs, each configuration T; today the loop runs them one by one on GPU 0 (20T), ' +
      'each GPU running its own sample gives 5T.',
    config: {
      ranks: 4,
      batch: 4,
      k: 5,
      latency: { kind: 'constant', t: 1, unit: 'T' },
      alpha: 0,
      maxBatch: null,
      gatherCost: null,
      seed: 0,
    },
  },
};

export const schedulePresetNames = Object.keys(schedulePresets);
