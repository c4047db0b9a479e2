// The loader between flow_grpo's sampler and its training loop, as the published scripts build
// it: torch's DataLoader (its workers draw num_workers × prefetch_factor index batches ahead),
// optionally accelerate's prepare (DataLoaderShard looks one batch ahead; with several processes
// BatchSamplerShard takes every W-th batch the sampler yields, starting at the rank), and the
// loop's set_epoch calls. A sampler pass reads its epoch when it starts, so a batch drawn ahead
// of its set_epoch call comes from an earlier pass. This module only says which draw each
// next() returns; the sampler turns draws into prompt ids. Checked against flow_grpo's own class
// under real torch and accelerate (test/fixtures/golden-flow-grpo-loader.json).

/** The loop and loader of one published script. */
export interface LoaderModel {
  /** DataLoader num_workers (0: the loop's process draws each index batch when next() asks). */
  numWorkers: number;
  /** DataLoader prefetch_factor: index batches each worker keeps in flight (unused with 0 workers). */
  prefetchFactor: number;
  /** Whether the train DataLoader went through accelerator.prepare. */
  acceleratePrepare: boolean;
  ranks: number;
  /**
   * 'once': one iterator made before the loop, set_epoch(epoch × N + i) before each next()
   * (flow_grpo's train_sd3.py at ac4c86e); 'epoch': set_epoch(epoch) and a new iterator each
   * epoch (train_sd3.py at 74db691, the lcm sampler).
   */
  loop: 'once' | 'epoch';
  /** Batches one sampler pass yields before it reads its epoch again (1: the scatter sampler; N: the lcm one). */
  passLength: number;
  epochs: number;
  batchesPerEpoch: number;
}

/** One batch a sampler yields: the epoch value its pass was seeded with (seed + epoch) and its place in the pass. */
export interface Draw {
  epoch: number;
  pos: number;
}

/** Index batches drawn before the step that receives them, in the 'once' loop: workers × prefetch, plus accelerate's one. */
export function lookAhead(m: Pick<LoaderModel, 'numWorkers' | 'prefetchFactor' | 'acceleratePrepare'>): number {
  return (m.numWorkers > 0 ? m.numWorkers * m.prefetchFactor : 0) + (m.acceleratePrepare ? 1 : 0);
}

/** received[s][r]: the draw rank r's next() returns at step s (epoch-major), for every rank. */
export function receivedDraws(m: LoaderModel): Draw[][] {
  const W = m.ranks;
  // accelerate wraps the batch sampler in BatchSamplerShard only with more than one process.
  const shard = m.acceleratePrepare && W > 1;
  const prefetch = m.numWorkers > 0 ? m.numWorkers * m.prefetchFactor : 0;
  // The sampler's epoch attribute (set_epoch), the same on every rank.
  let epoch = 0;

  // iter(loader): a fresh sampler generator behind a fresh DataLoader iterator.
  const newIterator = (): (() => Draw[]) => {
    let pos = 0;
    let passEpoch = 0;
    const draw = (): Draw => {
      if (pos % m.passLength === 0) passEpoch = epoch;
      return { epoch: passEpoch, pos: pos++ % m.passLength };
    };
    // One index batch of the DataLoader: BatchSamplerShard draws W batches and keeps the rank's.
    const indexBatch = (): Draw[] => Array.from({ length: shard ? W : 1 }, draw);
    const base = (): (() => Draw[]) => {
      if (prefetch === 0) return indexBatch;
      // The multiprocessing iterator puts prefetch index batches when it is made, then one per batch returned.
      const queue = Array.from({ length: prefetch }, indexBatch);
      return () => {
        const head = queue.shift()!;
        queue.push(indexBatch());
        return head;
      };
    };
    if (!m.acceleratePrepare) return base();
    // DataLoaderShard.__iter__ is a generator: nothing happens before the first next(). Then it calls
    // set_epoch(self.iteration) (0: an endless sampler never finishes an iteration) on its batch
    // sampler, which is flow_grpo's sampler itself with one process, makes the base iterator and
    // keeps one batch ahead.
    let inner: (() => Draw[]) | null = null;
    let current: Draw[] = [];
    return () => {
      if (!inner) {
        if (!shard) epoch = 0;
        inner = base();
        current = inner();
      }
      const out = current;
      current = inner();
      return out;
    };
  };

  const perRank = (batch: Draw[]): Draw[] => Array.from({ length: W }, (_, r) => batch[shard ? r : 0]!);
  const out: Draw[][] = [];
  if (m.loop === 'once') {
    const next = newIterator();
    for (let t = 0; t < m.epochs * m.batchesPerEpoch; t++) {
      epoch = t;
      out.push(perRank(next()));
    }
  } else {
    for (let e = 0; e < m.epochs; e++) {
      epoch = e;
      const next = newIterator();
      for (let i = 0; i < m.batchesPerEpoch; i++) out.push(perRank(next()));
    }
  }
  return out;
}

/** The reason samplers other than flow_grpo's refuse the loader settings (SamplerSpec.ignores). */
const notModelled = 'ignores.loader';
export const loaderSettingsIgnored = {
  numWorkers: notModelled,
  prefetchFactor: notModelled,
  acceleratePrepare: notModelled,
} as const;
