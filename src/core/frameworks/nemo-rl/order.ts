// The order in which NeMo RL's dataloader yields prompts (algorithms/grpo.py setup @ 7ea279a):
// set_seed(grpo.seed) runs torch.manual_seed, then StatefulDataLoader(batch_size=num_prompts_per_step,
// shuffle=data.shuffle, drop_last=True, num_workers=data.num_workers) is built with no generator, so
// torchdata's RandomSampler seeds its own generator from the global generator's first int64 draw
// (random64 mod 2^63). Nothing between set_seed and the loader draws from torch's global generator
// (Logger, CheckpointManager and config checks only). Each epoch is a fresh iterator: one randperm
// without workers; with workers torchdata makes the sampler iterator twice and the first permutation
// is thrown away (epoch e uses permutation 2e+1).
import { Mt19937, randperm } from '../../rng/index.ts';

/** The seed torchdata's RandomSampler gives its generator: torch.empty((), dtype=int64).random_() after manual_seed(seed). */
export function samplerSeed(seed: number): bigint {
  return new Mt19937(seed).random64() % (1n << 63n);
}

/** Each epoch's prompt ids, batch by batch (drop_last: the short last batch is dropped). */
export function epochBatches(
  datasetSize: number,
  prompts: number,
  shuffle: boolean,
  workers: number,
  seed: number,
  epochs: number,
): number[][][] {
  const batches = Math.floor(datasetSize / prompts);
  const gen = shuffle ? new Mt19937(samplerSeed(seed)) : null;
  const out: number[][][] = [];
  for (let e = 0; e < epochs; e++) {
    let order: number[];
    if (gen) {
      if (workers > 0) randperm(datasetSize, gen);
      order = Array.from(randperm(datasetSize, gen));
    } else order = Array.from({ length: datasetSize }, (_, i) => i);
    out.push(Array.from({ length: batches }, (_, b) => order.slice(b * prompts, (b + 1) * prompts)));
  }
  return out;
}
