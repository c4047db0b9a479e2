// AReaL's prompt order, areal/utils/dataloader.py create_dataloader @ 4aef98d: each data-parallel loader is a
// torchdata StatefulDataLoader(batch_size = train_dataset.batch_size // world_size, drop_last) over a torch
// DistributedSampler(dataset, world_size, rank, shuffle, drop_last=True) built without a seed (so seed 0), and
// areal/utils/data.py cycle_dataloader calls sampler.set_epoch(e) before pass e. The rollout side consumes the cycled
// stream item by item and a training step takes the next batch_size trajectories (prepare_batch), so the sandbox
// (completions in submission order) cuts each rank's flattened stream into chunks of its loader's batch size.
import { distributedSamplerAllRanks } from '../../samplers/distributed-sampler.ts';

/** DistributedSampler(drop_last=True).num_samples: each rank's share, the remainder dropped. */
export function samplerShare(datasetSize: number, ranks: number): number {
  return datasetSize % ranks !== 0 ? Math.ceil((datasetSize - ranks) / ranks) : Math.ceil(datasetSize / ranks);
}

/** The indices each rank's DistributedSampler(shuffle, seed=0, drop_last=True) yields after set_epoch(epoch). */
export function samplerEpoch(datasetSize: number, ranks: number, shuffle: boolean, epoch: number): number[][] {
  const share = samplerShare(datasetSize, ranks);
  if (!shuffle) return Array.from({ length: ranks }, (_, r) => Array.from({ length: share }, (_, i) => r + i * ranks));
  // Truncating the padded split gives indices[:total_size][rank::ranks]: padding only ever follows the kept part.
  return distributedSamplerAllRanks(datasetSize, ranks, 0, epoch).map((xs) => xs.slice(0, share));
}

/** len(StatefulDataLoader): batches per pass. */
export function loaderLength(share: number, batch: number, dropLast: boolean): number {
  return dropLast ? Math.floor(share / batch) : Math.ceil(share / batch);
}

/**
 * The prompts rank `rank` generates in each of `steps` training steps: its cycled loader stream (pass e after
 * set_epoch(e); a dropped last batch is skipped), cut into chunks of `batch`.
 */
export function rankChunks(
  datasetSize: number,
  ranks: number,
  shuffle: boolean,
  batch: number,
  dropLast: boolean,
  steps: number,
): number[][][] {
  const share = samplerShare(datasetSize, ranks);
  const perPass = dropLast ? Math.floor(share / batch) * batch : share;
  const streams: number[][] = Array.from({ length: ranks }, () => []);
  for (let epoch = 0; streams[0]!.length < steps * batch; epoch++) {
    const pass = samplerEpoch(datasetSize, ranks, shuffle, epoch);
    pass.forEach((xs, r) => streams[r]!.push(...xs.slice(0, perPass)));
  }
  return streams.map((stream) => Array.from({ length: steps }, (_, s) => stream.slice(s * batch, (s + 1) * batch)));
}
