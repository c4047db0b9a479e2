// The synchronous loop the asynchronous ones are measured against: step t dispatches prompts t·B … t·B + B − 1 when
// step t − 1 has finished (its weight update included), generates all their completions with version t on the same
// slots (first free slot first, completions in prompt order), and trains once the last one is done. Written
// separately from simulate() so that "zero staleness reproduces it" is a check, not a tautology.
import { PromptLengths } from './lengths.ts';
import type { AsyncWorkload, TrainedStep } from './types.ts';

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

export function synchronousLoop(w: AsyncWorkload): TrainedStep[] {
  const lengths = new PromptLengths(w.lengths, w.k, w.seed);
  const slots = w.genWorkers * w.concurrency;
  const steps: TrainedStep[] = [];
  let clock = 0;
  for (let t = 0; t < w.steps; t++) {
    const freeAt = new Array<number>(slots).fill(clock);
    const samples: TrainedStep['samples'] = [];
    const ends: number[] = [];
    let tokens = 0;
    let busy = 0;
    for (let p = t * w.trainBatchSize; p < (t + 1) * w.trainBatchSize; p++) {
      const difficulty = lengths.difficulty(p);
      lengths.lengths(p).forEach((length, index) => {
        // The earliest free slot, the lowest-numbered among equals.
        let slot = 0;
        for (let s = 1; s < slots; s++) if (freeAt[s]! < freeAt[slot]!) slot = s;
        const end = freeAt[slot]! + length / w.tokensPerSecond;
        busy += end - freeAt[slot]!;
        freeAt[slot] = end;
        ends.push(end);
        tokens += length;
        samples.push({ prompt: p, group: p, index, length, version: t, lag: 0, wait: 0, ...(difficulty === null ? {} : { difficulty }) });
      });
    }
    const ready = Math.max(...ends);
    samples.forEach((s, i) => {
      s.wait = round6(ready - ends[i]!);
    });
    const duration = w.stepTime ?? tokens / w.trainTokensPerSecond!;
    const end = ready + duration;
    steps.push({
      step: t,
      version: t,
      start: round6(ready),
      end: round6(end),
      trainerIdle: round6(ready - clock),
      generatorIdle: round6(slots * (end - clock) - busy),
      byVersion: { [t]: samples.length },
      samples,
    });
    clock = end;
  }
  return steps;
}
