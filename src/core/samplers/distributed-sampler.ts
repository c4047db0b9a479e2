// torch.utils.data.DistributedSampler(shuffle=True, seed, drop_last=False) after set_epoch(epoch).
import { Mt19937, randperm } from '../rng/index.ts';

/**
 * The indices rank `rank` of `ranks` iterates in epoch `epoch`: randperm(datasetSize) from a
 * generator seeded seed + epoch, padded by repeating from the front up to a multiple of `ranks`,
 * then every `ranks`-th index starting at `rank`. Length ceil(datasetSize / ranks).
 */
export function distributedSamplerIndices(datasetSize: number, ranks: number, rank: number, seed: number, epoch: number): number[] {
  return distributedSamplerAllRanks(datasetSize, ranks, seed, epoch)[rank]!;
}

/**
 * The same for every rank at once, from one permutation (each rank's own sampler computes the
 * same one; computing it once per rank made the layout grow with ranks × dataset-size).
 */
export function distributedSamplerAllRanks(datasetSize: number, ranks: number, seed: number, epoch: number): number[][] {
  const order = Array.from(randperm(datasetSize, new Mt19937(BigInt(seed) + BigInt(epoch))));
  const totalSize = Math.ceil(datasetSize / ranks) * ranks;
  // PyTorch: indices += (indices * ceil(padding / len))[:padding], i.e. cycle from the front.
  for (let i = datasetSize; i < totalSize; i++) order.push(order[i % datasetSize]!);
  const perRank: number[][] = Array.from({ length: ranks }, () => []);
  for (let i = 0; i < totalSize; i++) perRank[i % ranks]!.push(order[i]!);
  return perRank;
}
