// The clauses of the core's ConfigErrors in English: the rule with its numbers, then the fixes
// that pass every rule. A message is its clauses joined by "; " (src/core/messages/index.ts).
// Templates that name a flag or quote a bad value say it through `w` (the CLI's words by default;
// the page's English passes its own: a setting's label, an empty box in words).

/** How a message names a setting's flag and quotes a value it refused. */
export interface Words {
  /** `--batches-per-epoch` on the CLI. */
  flag(name: string): string;
  /** "got NaN" on the CLI. */
  got(value: number | string): string;
}

export const CLI_WORDS: Words = { flag: (name) => `--${name}`, got: (value) => `got ${value}` };

/** A framework pinned as its code before a commit: "flow_grpo (DistributedKRepeatSampler before commit 74db691)". */
export const pinnedName = (p: { framework: string; code: string; beforeCommit: string }) =>
  `${p.framework} (${p.code} before commit ${p.beforeCommit})`;

/** Who cuts rewards into rows of k for an advantage (a key the catalogues name in their own words). */
export type RowsMaker = 'trl-view' | 'dance-local';

/** The row makers in English, as the CLI names them. */
export const ROWS_EN: Record<RowsMaker, string> = { 'trl-view': 'TRL view(-1, G)', 'dance-local': 'DanceGRPO local groups' };

const list = (values: readonly number[], more: boolean) => `${values.join(', ')}${more ? ', …' : ''}`;

export const ERRORS_EN = {
  // Every layout (src/core/samplers/rules.ts: checkCommon, checkSize, withFixes)
  'config.not-bool': (p: { setting: string; got: string }) => `${p.setting} must be true or false, got ${p.got}`,
  'config.not-whole': (p: { setting: string; min: number; got: number }, w: Words = CLI_WORDS) =>
    `${p.setting} must be a whole number ≥ ${p.min}, ${w.got(p.got)}`,
  'config.above-limit': (p: { setting: string; value: number; max: number }) =>
    `${p.setting}=${p.value} is above the sandbox's limit of ${p.max}`,
  'config.seed-unsafe': (p: { got: number | string }, w: Words = CLI_WORDS) =>
    `seed must be a whole number within ±(2^53−1), ${w.got(p.got)}`,
  'config.seed-low-bits': () => 'PyTorch uses only its low 32 bits',
  'config.step-too-big': (p: { what: string; samples: number; max: number }) =>
    `one step holds ${p.what}=${p.samples} samples, above the sandbox's limit of ${p.max}`,
  'config.layout-too-big': (p: { samples: number; max: number }) =>
    `this layout has ${p.samples} samples, above the sandbox's limit of ${p.max}`,
  'config.too-many-draws': (p: { draws: number; datasetSize: number; max: number }) =>
    `this layout needs ${p.draws} generator draws (a randperm of dataset-size=${p.datasetSize} per reseed), above the limit of ${p.max}`,
  // The samplers' rules (src/core/samplers/*.ts: validate)
  'flow-grpo.k-divide': (p: { k: number; total: number }) => `k=${p.k} must divide ranks×batch=${p.total}`,
  'flow-grpo.batch-short': (p: { m: number; datasetSize: number; fix: boolean }) =>
    `each batch needs m=ranks×batch/k=${p.m} distinct prompts but dataset-size=${p.datasetSize}${p.fix ? `; use dataset-size ≥ ${p.m}` : ''} ` +
    `(flow_grpo does not check: randperm(${p.datasetSize})[:${p.m}] returns only ${p.datasetSize} prompts and the last ranks get ` +
    `short or empty batches)`,
  'flow-grpo-lcm.epoch-short': (p: { m: number; stepSamples: number; datasetSize: number; fix: boolean }) =>
    `an epoch needs m=${p.m} distinct prompts (m·k a multiple of ranks×batch=${p.stepSamples}) but ` +
    `dataset-size=${p.datasetSize}${p.fix ? `; use dataset-size ≥ ${p.m}` : ''} ` +
    `(flow_grpo does not check: randperm(${p.datasetSize})[:${p.m}] returns only ${p.datasetSize} prompts and the epoch's last ` +
    `batches come out short or empty)`,
  'contiguous.k-divide-batch': (p: { k: number; batch: number }) =>
    `k=${p.k} must divide batch=${p.batch} (each rank takes batch/k prompts per step and repeats each k times)`,
  'contiguous.dataset-short': (p: { datasetSize: number; ranks: number; perRank: number; perStep: number }) =>
    `dataset-size=${p.datasetSize} gives each of ranks=${p.ranks} only ${p.perRank} prompt(s), fewer than one step's batch/k=${p.perStep}`,
  'contiguous.batches-over': (p: { batchesPerEpoch: number; ranks: number; perRank: number; most: number; perStep: number }) =>
    `batches-per-epoch=${p.batchesPerEpoch} is more than an epoch holds: each of ranks=${p.ranks} gets ` +
    `${p.perRank} prompt(s) per epoch, ${p.most} full batch(es) of batch/k=${p.perStep}`,
  'dance-grpo.batch-k': (p: { batch: number; k: number }) =>
    `batch=${p.batch} must be train_batch_size prompts × k=${p.k} (DanceGRPO repeat_interleaves each prompt num_generations times)`,
  'dance-grpo.dataset-short': (p: { datasetSize: number; ranks: number; perRank: number; trainBatch: number }) =>
    `dataset-size=${p.datasetSize} gives each of ranks=${p.ranks} ${p.perRank} prompt(s), fewer than train_batch_size=${p.trainBatch}: ` +
    `the drop_last DataLoader is empty and DanceGRPO's "while True: for batch in loader" spins forever without a word`,
  'group-distributed.k-multiple': (p: { k: number; ranks: number }) =>
    `k=${p.k} must be a multiple of ranks=${p.ranks} (each rank holds k/ranks copies of every prompt)`,
  'group-distributed.k-divide': (p: { k: number; total: number }) =>
    `k=${p.k} must divide ranks×batch=${p.total} (each step must hold whole groups)`,
  'group-distributed.epoch-short': (p: { batchesPerEpoch: number; m: number; datasetSize: number }) =>
    `an epoch of batches-per-epoch=${p.batchesPerEpoch} needs ${p.m} distinct prompts but dataset-size=${p.datasetSize}`,
  'trl.k-at-least-2': (p: { k: number }) =>
    `k (num_generations) = ${p.k} must be at least 2: TRL's GRPO needs 2 or more completions per prompt`,
  'trl.k-divide-generation': (p: { k: number; ranks: number; batch: number; stepsPerGeneration: number; generation: number }) =>
    `k=${p.k} (num_generations) must divide the generation batch ` +
    `ranks×batch×steps-per-generation=${p.ranks}×${p.batch}×${p.stepsPerGeneration}=${p.generation}`,
  'trl.dataset-short': (p: { prompts: number; generation: number; k: number; datasetSize: number }) =>
    `a generation batch needs ${p.prompts} distinct prompts (generation batch ${p.generation} / k=${p.k}) but dataset-size=${p.datasetSize}: ` +
    `RepeatSampler would drop the only, incomplete chunk`,
  'verl.samples-not-prompts': (p: { ranks: number; batch: number; samples: number; k: number }) =>
    `ranks×batch=${p.ranks}×${p.batch}=${p.samples} samples per step must be data.train_batch_size prompts × rollout.n=${p.k} ` +
    `(verl repeats every prompt n times)`,
  'verl.dataset-short': (p: { datasetSize: number; trainBatch: number }) =>
    `dataset-size=${p.datasetSize} is smaller than data.train_batch_size=${p.trainBatch}: the drop_last dataloader is empty`,
  'verl.mini-above': (p: { mini: number; trainBatch: number }) =>
    `ppo-mini-batch-size=${p.mini} prompts is above data.train_batch_size=${p.trainBatch}`,
  'verl.mini-empty': (p: { mini: number; k: number; ranks: number }) =>
    `ppo-mini-batch-size=${p.mini} prompts × n=${p.k} // ranks=${p.ranks} leaves no sample per rank`,
  'verl.micro-divide': (p: { micro: number; mini: number; k: number; ranks: number; normalised: number }) =>
    `ppo-micro-batch-size-per-gpu=${p.micro} must divide the per-rank mini-batch ${p.mini}×${p.k}//${p.ranks}=${p.normalised}`,
  'verl.ulysses-gpus': (p: { ranks: number; batch: number; samples: number; sp: number; gpus: number }) =>
    `ranks×batch=${p.ranks}×${p.batch}=${p.samples} samples per step must split over the ${p.gpus} GPUs of ranks=${p.ranks} ` +
    `data-parallel groups × ulysses-sequence-parallel-size=${p.sp} (validate_config checks this without use_dynamic_bsz)`,
  'flow-grpo.fast-fixed': (p: { flag: string; given: number; fixed: number }) =>
    `${p.flag}=${p.given} is not what flow_grpo's train_sd3_fast.py runs: its loop lays out as ${p.flag}=${p.fixed} whatever its ` +
    `config says (leave ${p.flag} out, or use another --framework)`,
  'verl.prefix-grouper-groups': (p: { groups: number; ranks: number }) =>
    `use_prefix_grouper keeps each prompt's copies on one rank, so data.train_batch_size=${p.groups} prompts must split over ranks=${p.ranks}`,
  'verl.keep-minibatch-slice': (p: { slice: number; ranks: number }) =>
    `keep_minibatch balances each slice of ppo_mini_batch_size=${p.slice} samples over the ranks on its own, so it must be a multiple ` +
    `of ranks=${p.ranks}`,
  'verl.keep-minibatch-partial': (p: { samples: number; slice: number }) =>
    `keep_minibatch: the step's ${p.samples} samples are not a whole number of slices of ppo_mini_batch_size=${p.slice}; verl's ` +
    `reorder index then leaves the last ${p.samples % p.slice} out of the batch, which the sandbox does not lay out`,
  'flow-grpo-lcm.batches-step': (p: { k: number; gcd: number; step: number; stepSamples: number; given: number; effective: number }) =>
    `--sampler flow-grpo-lcm cuts an epoch into a multiple of k/gcd(k, ranks×batch)=${p.k}/${p.gcd}` +
    `=${p.step} batches (m·k must fill whole batches of ranks×batch=${p.stepSamples}), so batches-per-epoch=` +
    `${p.given} would become ${p.effective}`,
  'trl.both-given': () => 'give --generation-batch-size or --steps-per-generation, not both (one is derived from the other)',
  'trl.generation-batch-multiple': (p: { generationBatchSize: number; global: number }) =>
    `generation-batch-size=${p.generationBatchSize} must be a multiple of ranks×batch=${p.global}`,
  'trl.generation-batch-equal': (p: { generationBatchSize: number; expected: number }) =>
    `generation-batch-size=${p.generationBatchSize} must equal ranks×batch×steps-per-generation=${p.expected} when both are given`,
  'trl-018.generation-batch-straddles': (p: { generationBatchSize: number; batch: number; global: number; stepsPerGeneration: number }) =>
    `generation-batch-size=${p.generationBatchSize} is a multiple of batch=${p.batch} but not of ranks×batch=${p.global}: TRL 0.18.2 ` +
    `accepts it (its check \`generation_batch_size % per_device_train_batch_size * num_processes\` reads as (${p.generationBatchSize} % ` +
    `${p.batch}) × processes), sets steps_per_generation = ${p.generationBatchSize} // ${p.global} = ${p.stepsPerGeneration}, and its ` +
    `RepeatSampler's chunks of ${p.generationBatchSize} samples then straddle its dataloader's batches, which the sandbox does not lay out`,
  'trl.sp-ms-swift-only': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('sequence-parallel-size')} is ms-swift's sequence_parallel_size: give ${w.flag('framework')} ms-swift-3602360`,
  'trl.sp-divide': (p: { sp: number; ranks: number }) =>
    `sequence-parallel-size=${p.sp} must divide ranks=${p.ranks} (ms-swift runs each sequence on ${p.sp} processes)`,
  // A framework's own error text, quoted (src/core/samplers/framework-errors.ts)
  'framework.raises': (p: { framework: string; says: string }) => `${p.framework} raises: ${p.says}`,
  'framework.pinned-raises': (p: { framework: string; code: string; beforeCommit: string; says: string }) =>
    `${pinnedName(p)} raises: ${p.says}`,
  // The fixes
  'fix.valid-k': (p: { values: number[]; more: boolean }) => `valid k here: ${list(p.values, p.more)}`,
  'fix.valid-ranks': (p: { values: number[]; more: boolean }) => `valid ranks here: ${list(p.values, p.more)}`,
  'fix.valid-here': (p: { values: number[] }) => `valid here: ${p.values.join(', ')}`,
  'fix.batches': (p: { batches: number[]; times: number | null }) =>
    p.batches.map((b) => (p.times === null ? `batch=${b}` : `batch=${b} (→${b * p.times})`)).join(' or '),
  'fix.dataset-size': (p: { min: number }) => `use dataset-size ≥ ${p.min}`,
  'fix.batches-per-epoch': (p: { value: number }) => `batches-per-epoch=${p.value}`,
  'fix.batches-per-epoch-or-dataset': (p: { most: number | null; need: number | null }) =>
    `use ${[p.most === null ? '' : `batches-per-epoch ≤ ${p.most}`, p.need === null ? '' : `dataset-size ≥ ${p.need}`].filter(Boolean).join(' or ')}`,
  'fix.mini-at-most': (p: { most: number }) => `use at most ${p.most} (0 = all of it)`,
  'fix.at-least': (p: { least: number }) => `use ≥ ${p.least}`,
  'fix.flag-values': (p: { flag: string; values: number[] }, w: Words = CLI_WORDS) =>
    `use ${p.values.map((v) => `${w.flag(p.flag)} ${v}`).join(' or ')}`,
  'fix.steps-per-generation': (p: { values: number[]; followsGa: boolean }, w: Words = CLI_WORDS) =>
    `use ${p.values.map((v) => `${w.flag('steps-per-generation')} ${v}`).join(' or ')}` +
    (p.followsGa
      ? ` (or ${p.values.map((v) => `${w.flag('gradient-accumulation-steps')} ${v}`).join(' or ')}, which it follows when not given)`
      : ''),
  'fix.sampler': (p: { sampler: string }, w: Words = CLI_WORDS) => `use ${w.flag('sampler')} ${p.sampler}`,
  'fix.try': (p: { fixes: string[] }) => `try ${p.fixes.join(' or ')}`,
  'fix.lower-ranks-or-batch': (_: Record<string, never>, w: Words = CLI_WORDS) => `lower ${w.flag('ranks')} or ${w.flag('batch')}`,
  'fix.none-change-several': () => 'no single setting fixes it, change several',
  'fix.none-lower-several': () => 'no single setting fixes it, lower several',
  // Advantages that cannot be computed for a regrouping (src/core/grpo/advantages.ts; a RangeError carrying its fact)
  'advantages.rows': (p: { rows: RowsMaker; count: number; size: number }) =>
    `${ROWS_EN[p.rows]}: ${p.count} rewards cannot be viewed as rows of ${p.size}; the count must be a multiple of the group size`,
  'advantages.slice-back': (p: { count: number; ranks: number }) =>
    `slice back: ${p.count} gathered values do not split evenly over ${p.ranks} ranks`,
  // The schedule's settings (src/core/schedule/workload.ts)
  'schedule.alpha': (p: { got: number }, w: Words = CLI_WORDS) =>
    `alpha must be in [0, 1] (0: batching saves nothing, 1: a batch costs one), ${w.got(p.got)}`,
  'schedule.config-time': (p: { got: number }, w: Words = CLI_WORDS) =>
    `the configuration time T must be a positive number, ${w.got(p.got)}`,
  'schedule.gather-cost': (p: { got: number }, w: Words = CLI_WORDS) => `gather-cost must be a non-negative number, ${w.got(p.got)}`,
  'schedule.too-many': (p: { total: number; max: number }) => `batch × k = ${p.total} configurations is more than the simulator's ${p.max}`,
  'fix.smaller-batch-or-k': () => 'use a smaller batch or k',
};
