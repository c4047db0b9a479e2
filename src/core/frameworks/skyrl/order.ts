// SkyRL's prompt order: skyrl/train/utils/trainer_utils.py build_dataloader @ a956457 builds
// StatefulDataLoader(shuffle=True, drop_last=True, generator=torch.Generator().manual_seed(trainer.seed),
// num_workers, persistent_workers). The loader's generator is also its RandomSampler's, so one generator
// feeds both the sampler's permutation and the loader iterator's base seed (an int64 = one random64 draw),
// and with workers the iterator also draws one permutation it never uses. Per epoch, in draw order
// (measured against the real loader, scripts/golden/skyrl_layout.py):
//   no workers:                         permutation (used), base seed
//   workers (fresh each epoch):         base seed, permutation (discarded), permutation (used)
//   persistent workers, after epoch 0:  permutation (used)
import { Mt19937, randperm } from '../../rng/index.ts';

export interface SkyrlOrderOptions {
  seed: number;
  datasetSize: number;
  /** Resolved data.dataloader.num_workers (None is 8). */
  workers: number;
  persistentWorkers: boolean;
}

/** The epochs' prompt permutations, one generator for the whole run. */
export class SkyrlPromptOrder {
  private readonly gen: Mt19937;
  private epoch = 0;

  constructor(private readonly opts: SkyrlOrderOptions) {
    this.gen = new Mt19937(opts.seed);
  }

  /** The next epoch's order of dataset indices (call once per epoch, in order). */
  nextEpoch(): Int32Array {
    const { datasetSize: n, workers, persistentWorkers } = this.opts;
    const first = this.epoch++ === 0;
    if (workers === 0) {
      const perm = randperm(n, this.gen);
      this.gen.random64();
      return perm;
    }
    if (first || !persistentWorkers) {
      this.gen.random64();
      randperm(n, this.gen);
    }
    return randperm(n, this.gen);
  }
}

/** Steps per epoch: len(StatefulDataLoader) with drop_last=True. */
export function stepsPerEpoch(datasetSize: number, trainBatchSize: number): number {
  return Math.floor(datasetSize / trainBatchSize);
}
