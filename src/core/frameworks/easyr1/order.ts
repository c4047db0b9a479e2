// EasyR1's prompt order (b44b311): verl/trainer/data_loader.py create_dataloader builds
// RandomSampler(dataset, generator=torch.Generator().manual_seed(data.seed)) — or SequentialSampler when
// data.shuffle is false — inside torchdata's StatefulDataLoader(batch_size, num_workers=8, drop_last=True).
// torch's RandomSampler draws randperm(n) for the epoch and, once that is yielded, a trailing
// randperm(n)[:0] that is empty but still consumes the generator, so epoch e reads permutation 2e of the
// generator whatever the number of workers. verl/trainer/ray_trainer.py _make_batch_data pulls loader
// batches (restarting the loader on StopIteration, mid-step if need be) until it holds
// rollout_batch_size prompts, and keeps the first rollout_batch_size × n samples.
import { Mt19937, randperm } from '../../rng/index.ts';

/** One loader batch: its epoch (the iterator it came from) and prompt ids. */
export interface LoaderBatch {
  epoch: number;
  prompts: number[];
}

/** The loader's batches in order, epoch after epoch, as _make_batch_data's `next(self.data_iterator)` sees them. */
export class PromptLoader {
  private readonly gen: Mt19937;
  private epoch = -1;
  private order: number[] = [];
  private next = 0;

  constructor(
    private readonly datasetSize: number,
    private readonly batchSize: number,
    private readonly shuffle: boolean,
    seed: number,
  ) {
    this.gen = new Mt19937(seed);
  }

  /** len(train_dataloader): full batches per epoch (drop_last=True). */
  get batchesPerEpoch(): number {
    return Math.floor(this.datasetSize / this.batchSize);
  }

  take(): LoaderBatch {
    if (this.epoch < 0 || this.next >= this.batchesPerEpoch) this.startEpoch();
    const start = this.next * this.batchSize;
    this.next++;
    return { epoch: this.epoch, prompts: this.order.slice(start, start + this.batchSize) };
  }

  private startEpoch(): void {
    this.epoch++;
    this.next = 0;
    if (!this.shuffle) {
      this.order = Array.from({ length: this.datasetSize }, (_, i) => i);
      return;
    }
    this.order = Array.from(randperm(this.datasetSize, this.gen));
    // RandomSampler.__iter__'s trailing randperm(n)[:n % n]: empty, drawn all the same.
    randperm(this.datasetSize, this.gen);
  }
}
