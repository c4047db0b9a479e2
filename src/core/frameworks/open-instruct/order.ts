// open-instruct's prompt order (open_instruct/data_loader.py @ e6c3044): DataPreparationActor builds
// HFDataLoader(batch_size=1, seed, dp_rank=0, dp_world_size=1, automatic_reshuffle=True); epoch e is
// torch.randperm(D, generator=torch.Generator().manual_seed(seed + e)), and when it runs out the loader
// reshuffles to epoch e + 1 and goes on, so a step can straddle two epochs. The actor sends
// async_steps × P prompts ahead, then one new prompt per result it consumes; with results returning in
// the order sent, step t trains on the loader's pulls t·P … t·P + P − 1.
import { Mt19937, randperm } from '../../rng/index.ts';

export interface PromptPull {
  prompt: number;
  epoch: number;
}

/** The first `count` prompts the loader serves. */
export function promptStream(datasetSize: number, seed: number, count: number): PromptPull[] {
  const out: PromptPull[] = [];
  for (let epoch = 0; out.length < count; epoch++) {
    const perm = randperm(datasetSize, new Mt19937(seed + epoch));
    for (const prompt of perm) {
      if (out.length === count) break;
      out.push({ prompt, epoch });
    }
  }
  return out;
}
