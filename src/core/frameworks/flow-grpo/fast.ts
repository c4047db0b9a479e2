// flow_grpo's scripts/train_sd3_fast.py at 74db691, by name (`--framework flow_grpo-sd3-fast-74db691`):
// the per-batch-reseeded DistributedKRepeatSampler (its own copy in the script, seed=42 written into
// the call), a DataLoader(batch_sampler=…, num_workers=1) that is never passed to accelerator.prepare,
// and a sampling loop that calls train_sampler.set_epoch(epoch × num_batches_per_epoch + i) and then
// builds a new iter(train_dataloader) for each batch. A fresh iterator's worker starts after set_epoch, so
// every batch is the draw of its own epoch value: the loader's num_workers=1 lays out as 0 workers,
// unprepared (src/core/samplers/loader.ts), the idealised per-batch layout. Read via the stored file
// (yifan123/flow_grpo scripts/train_sd3_fast.py @ 74db691), not run: a diffusion run does not fit here.
import type { LayoutConfig } from '../../layout/types.ts';

export const FLOW_GRPO_FAST = {
  name: 'flow_grpo-sd3-fast-74db691',
  script: 'scripts/train_sd3_fast.py',
  commit: '74db691',
  /** What the script fixes, whatever its config says: the loader as laid out, and the sampler's seed. */
  fixed: { numWorkers: 0, acceleratePrepare: 0, seed: 42 } satisfies Partial<LayoutConfig>,
} as const;
