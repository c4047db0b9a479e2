// The expanded batch: batch × k configurations with their latency alone and their structure.
import { configError, fact } from '../messages/index.ts';
import { INSERTION_POSITIONS, TIERS, TIER_CROPS, TOP_K, configReward, type ConfigActions } from '../env/controller.ts';
import { sampleActions } from './policy.ts';
import type { Configuration, ScheduleConfig } from './types.ts';

/** Rejects settings no scheme can run, with the rule and the numbers. */
export function validateScheduleConfig(c: ScheduleConfig): void {
  const whole = (name: string, v: number, min: number) => {
    if (!Number.isSafeInteger(v) || v < min) throw configError([fact('config.not-whole', { setting: name, min, got: v })]);
  };
  whole('ranks', c.ranks, 1);
  whole('batch', c.batch, 1);
  whole('k', c.k, 1);
  if (c.maxBatch !== null) whole('max-batch', c.maxBatch, 1);
  if (!(c.alpha >= 0 && c.alpha <= 1)) throw configError([fact('schedule.alpha', { got: c.alpha })]);
  if (c.latency.kind === 'constant' && !(c.latency.t > 0 && Number.isFinite(c.latency.t))) {
    throw configError([fact('schedule.config-time', { got: c.latency.t })]);
  }
  if (c.gatherCost !== null && !(c.gatherCost >= 0 && Number.isFinite(c.gatherCost))) {
    throw configError([fact('schedule.gather-cost', { got: c.gatherCost })]);
  }
  const total = c.batch * c.k;
  if (total > 100_000) throw configError([fact('schedule.too-many', { total, max: 100_000 }), fact('fix.smaller-batch-or-k')]);
}

/** The prefill latency of a configuration (src/core/env/controller.ts; it depends on the knobs only, not on the input). */
export function prefillLatencyMs(a: ConfigActions): number {
  return configReward(a, 0, 0).latencyMs;
}

/** A readable structure key: configurations with equal keys run the same blocks with the same shapes. */
export function structureOf(a: ConfigActions): string {
  const p = INSERTION_POSITIONS[a.insertion]!;
  return `${TIERS[a.tier]}(${TIER_CROPS[a.tier]} crops) p=${p} topK=${TOP_K[a.topK]} blocks=${p + a.knob3}`;
}

/** The configurations of the expanded batch in repeat_interleave order: sample 0's k copies, then sample 1's… */
export function buildWorkload(c: ScheduleConfig): Configuration[] {
  validateScheduleConfig(c);
  const actions = c.latency.kind === 'controller' ? sampleActions(c.latency.policy, c.batch, c.k, c.seed) : null;
  const out: Configuration[] = [];
  for (let sample = 0; sample < c.batch; sample++) {
    for (let copy = 0; copy < c.k; copy++) {
      const index = sample * c.k + copy;
      const id = `${sample + 1}-${copy + 1}`;
      if (actions) {
        const a = actions[index]!;
        out.push({ index, id, sample, copy, latency: prefillLatencyMs(a), structure: structureOf(a), actions: a });
      } else {
        // Under a constant latency every configuration is alike: one structure.
        out.push({ index, id, sample, copy, latency: (c.latency as { t: number }).t, structure: 'any' });
      }
    }
  }
  return out;
}
