// torch.utils.data.DistributedSampler(shuffle=True, seed, drop_last=False) after set_epoch(epoch).
import { Mt19937, randperm } from '../rng/index.ts';

/**
 * The indices rank `rank` of `ranks` iterates in epoch `epoch`: randperm(datasetSize) from a
 * generator seeded seed + epoch, padded by repeating from the front up to a multiple of `ranks`,
 * then every `ranks`-th index starting at `rank`. Length ceil(datasetSize / ranks).
 */
export function distributedSamplerIndices(datasetSize: number, ranks: number, rank: number, seed: number, epoch: number): number[] {
  const order = Array.from(randperm(datasetSize, new Mt19937(BigInt(seed) + BigInt(epoch))));
  const totalSize = Math.ceil(datasetSize / ranks) * ranks;
  // PyTorch: indices += (indices * ceil(padding / len))[:padding], i.e. cycle from the front.
  for (let i = datasetSize; i < totalSize; i++) order.push(order[i % datasetSize]!);
  const mine: number[] = [];
  for (let i = rank; i < totalSize; i += ranks) mine.push(order[i]!);
  return mine;
}
