// The samplers' layout notes in English: one template per note, over the numbers the sampler
// computes (src/core/samplers/*: spec.notes returns these facts). The CLI prints them; the page
// renders the same facts from its catalogues (src/ui/i18n/core-zh.ts for Chinese).

/** Yes or no, as the loader parentheses say whether accelerator.prepare wraps the loader. */
const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** The loader settings as one parenthesis: "(num_workers=1, prefetch_factor=2, accelerator.prepare: yes)". */
const loader = (p: { workers: number; prefetch: number; prepared: boolean }) =>
  `(num_workers=${p.workers}, prefetch_factor=${p.prefetch}, accelerator.prepare: ${yesNo(p.prepared)})`;

export const NOTES_EN = {
  // verl (src/core/frameworks/verl/sampler.ts)
  'note.verl.step': (p: { prompts: number; k: number; samples: number; chunk: number }) =>
    `One step = data.train_batch_size=${p.prompts} prompts × rollout.n=${p.k} = ${p.samples} samples; the driver holds them all and ` +
    `hands rank r the r-th contiguous chunk of ${p.chunk}.`,
  'note.verl.seed': (p: { seed: number; workers: number | null; datasetSize: number; defaultSeed: number }) =>
    `RandomSampler's generator is seeded once (data.seed=${p.seed}); ` +
    (p.workers !== null
      ? `with dataloader_num_workers=${p.workers}, torchdata's StatefulDataLoader builds each epoch's sampler ` +
        `iterator twice, so epoch e uses randperm number 2e+1 and the even ones are drawn and thrown away (0 workers: randperm e). `
      : `epoch e uses the next randperm(${p.datasetSize}) from it. `) +
    `data.seed null leaves torch.Generator() at its default seed ${p.defaultSeed}, so every such run draws the same order.`,
  'note.verl.drop-last': (p: { dropped: number }) =>
    `drop_last: ${p.dropped} prompt(s) at the end of each epoch's permutation are never drawn.`,
  'note.verl.balanced': (p: { k: number }) =>
    `balance_batch=true: _balance_batch reorders each step by token workload (24576·len + len²), so the ${p.k} copies of a prompt ` +
    `scatter across ranks by length; advantages still group by uid on the driver, but mini-batches mix prompts.`,
  'note.verl.prefix-grouper': (p: { k: number; groups: number }) =>
    `use_prefix_grouper: _balance_batch balances whole uid groups (get_group_balanced_partitions): the ${p.k} copies of each prompt ` +
    `stay on one rank, ${p.groups} group(s) per rank, in generation order (no short-long-short reorder).`,
  'note.verl.keep-minibatch': (p: { slice: number; slices: number; perRank: number }) =>
    `keep_minibatch: _balance_batch balances each of the ${p.slices} slice(s) of ppo_mini_batch_size=${p.slice} samples (verl slices ` +
    `the sample list with the prompt count as written) over the ranks on its own, ${p.perRank} per rank per slice, then orders each ` +
    `rank short-long-short; RayPPOTrainer.fit never passes keep_minibatch=True.`,
  'note.verl.unbalanced': (p: { k: number; perRank: number; straddle: boolean }) =>
    `balance_batch=false: samples stay in generation order, so each prompt's ${p.k} copies are consecutive` +
    (p.straddle ? `; ${p.perRank} per rank is not a multiple of k, so some groups straddle two ranks.` : ` and on one rank.`),
  'note.verl.ulysses': (p: { ranks: number; sp: number; gpus: number; chunk: number }) =>
    `ulysses_sequence_parallel_size=${p.sp}: each of the ${p.ranks} ranks is a data-parallel group of ${p.sp} GPUs (${p.gpus} in all, ` +
    `mesh (dp, sp)); dispatch cuts the step into ${p.ranks} chunks and every GPU of a group gets the same ${p.chunk} samples, ` +
    `each sequence's tokens split among them.`,
  'note.verl.measured-seqlens': (p: { count: number }) => `Token counts: the ${p.count} measured ones given, in generation order.`,
  'note.verl.synthetic-seqlens': (p: { low: number; high: number }) =>
    `Token counts are synthetic (torch.randint(${p.low}, ${p.high}) per sample from a generator seeded ` +
    `with --seed); give measured ones with --seqlens FILE.`,
  // contiguous and dance-grpo (src/core/samplers/contiguous.ts, dance-grpo.ts)
  'note.local-groups': () =>
    `All k copies of a prompt sit on one rank (repeat_interleave); advantages are computed locally, the gather only serves logging.`,
  'note.dance-grpo.local-groups': () =>
    `All k copies of a prompt sit on one rank (repeat_interleave); advantages are computed per group on the rank (unbiased std + 1e-8), the ` +
    `gather only logs rewards.`,
  'note.padded': (p: { from: number; to: number; per: 'epoch' | 'pass' }) =>
    `DistributedSampler pads the permutation from ${p.from} to ${p.to} by repeating its first ${p.to - p.from} ` +
    `index(es), so those prompts are drawn twice per ${p.per}.`,
  'note.contiguous.unused': (p: { unused: number; taken: number; batches: number }) =>
    `Each rank leaves its last ${p.unused} prompt(s) of each epoch unused: the loop takes ${p.taken} of the epoch's ` +
    `${p.batches} batches, then calls set_epoch(epoch + 1).`,
  'note.contiguous.dropped': (p: { dropped: number }) =>
    `Each rank drops its last ${p.dropped} prompt(s) per epoch (an incomplete batch, drop_last=True).`,
  'note.dance-grpo.one-order': (p: { passes: number; steps: number }) =>
    `DanceGRPO calls sampler.set_epoch(0) once and loops "while True: for batch in loader", so every pass over the data repeats pass 0's order: ` +
    `the same prompts meet the same ranks in the same order in all ${p.passes} pass(es) (here an "epoch" is one pass of ` +
    `${p.steps} step(s)).`,
  'note.dance-grpo.dropped': (p: { dropped: number }) =>
    `Each rank drops its last ${p.dropped} prompt(s) per pass (drop_last=True), the same ones every pass.`,
  // flow-grpo and flow-grpo-lcm (src/core/frameworks/flow-grpo/sampler.ts)
  'note.flow-grpo.reseeded': (p: { batches: number }) =>
    `Before batch i of epoch e the training loop calls set_epoch(e × ${p.batches} + i), so the generator is reseeded with seed + ` +
    `that number and every batch is an independent draw: a prompt can come up in two batches of one epoch.`,
  'note.flow-grpo.sd3-fast': (p: { script: string; commit: string }) =>
    `--framework flow_grpo-sd3-fast-${p.commit}: the loop of flow_grpo's ${p.script} at ${p.commit}, which calls set_epoch before each ` +
    `batch and then builds a new iter(train_dataloader), never passed to accelerator.prepare; its DataLoader's one worker starts after ` +
    `set_epoch, so each batch is its own draw (laid out as 0 workers, unprepared), with the seed 42 the script writes into its sampler.`,
  'note.flow-grpo.look-ahead': (p: { batches: number; workers: number; prefetch: number; prepared: boolean; ahead: number }) =>
    `The loop calls set_epoch(e × ${p.batches} + i) before each batch, but the loader ${loader(p)} made one iterator before ` +
    `the loop and draws ${p.ahead} index batch(es) before the set_epoch call meant for them: steps 0–${p.ahead} all receive set_epoch(0)'s ` +
    `batch and step t ≥ ${p.ahead} the batch set_epoch(t − ${p.ahead}) seeds, so PerPromptStatTracker sees groups of 2k or more copies of a ` +
    `prompt. --num-workers 0 --accelerate-prepare 0 shows the idealised loop.`,
  'note.flow-grpo-lcm.epoch': (p: { m: number; k: number; batches: number; stepSamples: number }) =>
    `One permutation per epoch (generator seeded seed + epoch): m=${p.m} prompts × k=${p.k} = ${p.m * p.k} samples, cut into ` +
    `${p.batches} batches of ranks×batch=${p.stepSamples}; a group may straddle two batches, but each prompt ` +
    `appears k times per epoch.`,
  'note.flow-grpo-lcm.new-iterator': (p: { workers: number; prefetch: number; prepared: boolean }) =>
    `As train_sd3.py (74db691) runs it: set_epoch(epoch), then a new iterator over the loader ${loader(p)} each ` +
    `epoch, so whatever the workers prefetch comes from this epoch's pass and is dropped with the iterator: the layout is the sampler's own.`,
  'note.flow-grpo-lcm.shards': (p: { ranks: number; batches: number }) =>
    `With accelerator.prepare (not what the script does), BatchSamplerShard takes ${p.ranks} of the sampler's batches per step and ` +
    `keeps the rank's: rank r gets its slice of window (step × ${p.ranks} + r) mod ${p.batches}, so the ranks ` +
    `of one step hold slices of different windows.`,
  'note.flow-grpo-lcm.repeats-pass-0': () =>
    `With accelerator.prepare (not what the script does), DataLoaderShard calls set_epoch(0) on the sampler whenever a new ` +
    `iterator starts, so every epoch repeats pass 0.`,
  // group-distributed (src/core/frameworks/flow-factory/sampler.ts)
  'note.group-distributed.same-ids': (p: { copies: number }) =>
    `Every rank receives the same prompt ids in the same order, ${p.copies} copies each; the ranks' generators differ, so the ` +
    `completions differ. One permutation per epoch (seed + epoch).`,
  // trl (src/core/frameworks/trl/sampler.ts)
  'note.trl.step': (p: { samples: number; prompts: number; k: number; block: number }) =>
    `One step here is one generation batch: ${p.samples} samples = ${p.prompts} prompts × k=${p.k}; process p takes the ` +
    `p-th contiguous block of ${p.block}.`,
  'note.trl.seed': (p: { dropped: number }) =>
    `RepeatSampler's generator is seeded once per run: epoch e continues the stream of epoch e−1; an incomplete last chunk of the permutation ` +
    `is dropped (${p.dropped} prompt(s) per epoch never drawn).`,
  'note.trl.no-reuse': () =>
    `num_iterations × steps_per_generation = 1: TRL generates from every batch its dataloader yields, none is reused.`,
  'note.trl.reuse': (p: { times: number; iterations: number; stepsPerGeneration: number }) =>
    `TRL's dataloader yields each generation batch ${p.times} times (num_iterations=${p.iterations} × ` +
    `steps_per_generation=${p.stepsPerGeneration}); it generates from the first and only loads the other ${p.times - 1} (the ` +
    `buffered completions are reused), so those repeats are not extra steps here.`,
  'note.trl.micro-batches': (p: { block: number; stepsPerGeneration: number; batch: number; accumulation: number }) =>
    `Each rank's block of ${p.block} is used as ${p.stepsPerGeneration} micro-batches of batch=${p.batch} (one per micro-step); ` +
    `every gradient_accumulation_steps=${p.accumulation} micro-steps make one optimizer step (see the step counts).`,
  'note.trl.framework': (p: { framework: string; version: string; pinnedTo: string }) =>
    `--framework ${p.framework}: the batch settings are read as ${p.version} reads them (${p.pinnedTo}); the prompts are laid out by ` +
    `TRL's RepeatSampler and accelerate's per-process blocks, as for TRL 1.x.`,
  'note.unsloth.rewrite': (p: { from: number; to: number; ga: number; ranks: number; k: number; notice: string }) =>
    `Unsloth rewrote the batch: gradient_accumulation_steps ${p.ga} × WORLD_SIZE ${p.ranks} × per_device_train_batch_size ${p.from} is not ` +
    `a multiple of num_generations=${p.k}, so UnslothGRPOConfig printed "${p.notice}" and set per_device_train_batch_size from ${p.from} ` +
    `to ${p.to} before TRL read it; this layout is the rewritten run's (WORLD_SIZE is ranks, as torchrun and accelerate launch set it; a ` +
    `plain python run reads 1).`,
  'note.ms-swift.sequence-parallel': (p: { sp: number; repeat: number; ga: number; slices: number }) =>
    `sequence_parallel_size=${p.sp}: ms-swift's own RepeatSampler yields each generation batch num_iterations × steps_per_generation × ` +
    `${p.sp} = ${p.repeat} times and gradient_accumulation_steps becomes ${p.ga} × ${p.sp} = ${p.ga * p.sp}; each process loads the ` +
    `block shown, and each micro-step trains one of the ${p.slices} slices of the buffered generation (grpo_trainer.py _prepare_inputs, read, not run).`,
  'note.trl.straddle': (p: { block: number; k: number }) =>
    `The per-process block (${p.block}) is not a multiple of k=${p.k}: some groups straddle two ranks.`,
};
