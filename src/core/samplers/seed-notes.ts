// The seeding sentences every sampler's `seedNotes` is built from: which generator seed produced a
// layout step, in the framework's own words (`grpo-sandbox layout` prints them in each step's heading).
import type { Layout } from '../layout/types.ts';

/** "0–3,6" for ascending rank indices. */
export function rangesText(ranks: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ranks.length; ) {
    let j = i;
    while (j + 1 < ranks.length && ranks[j + 1] === ranks[j]! + 1) j++;
    parts.push(j > i ? `${ranks[i]}–${ranks[j]}` : String(ranks[i]));
    i = j + 1;
  }
  return parts.join(',');
}

/** A torch generator reseeded with manual_seed(seed + epoch) when each epoch starts (set_epoch's DistributedSampler). */
export function epochSeedNotes(layout: Layout): (stepIndex: number) => string {
  return (stepIndex) => {
    const step = layout.steps[stepIndex]!;
    return step.step === 0 ? `; manual_seed(${layout.config.seed} + ${step.epoch}) for epoch ${step.epoch}` : '';
  };
}
