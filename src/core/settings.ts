// The layout settings, each described ONCE (as TensorFlow Playground's single props table): the
// config field, the CLI flag, the URL key, the label and hint, and what values it allows. The CLI
// flags and `--help` (src/cli/layout-flags.ts), the explorer's URL state (src/ui/url-state.ts)
// and its config panel (src/ui/config-panel.ts) are generated from this table. Adding a setting is one entry
// here, its field in LayoutConfig (src/core/layout/types.ts), its URL key in LayoutParam (the compiler then asks
// for its Chinese label and hint) and, in each sampler that does not read it, an `ignores` reason
// (docs/architecture.md, "Add a setting").
// What values are *valid together* is the samplers' business (validateConfig); this table only
// states each setting's own range, which the CLI checks while parsing and checkCommon
// (src/core/samplers/rules.ts) checks for every caller.
// The other features' tables (train, schedule, dynamic) use the general Setting of src/core/setting.ts,
// whose one key is flag, URL key and attribute alike; the layout's rows keep a separate short URL
// key (`param`: batches, dataset, spg, iters, ga) because explorer links and tours already use them.
import type { LayoutConfig } from './layout/types.ts';

/**
 * Every setting's URL key (the table's `param`): a table keyed by it (the catalogues' labels and hints)
 * must name every setting, so a setting added without its words does not compile.
 */
export type LayoutParam =
  | 'sampler'
  | 'ranks'
  | 'batch'
  | 'k'
  | 'batches'
  | 'epochs'
  | 'dataset'
  | 'seed'
  | 'spg'
  | 'iters'
  | 'ga'
  | 'workers'
  | 'prefetch'
  | 'prepare'
  | 'balance'
  | 'mini'
  | 'micro'
  | 'dlworkers'
  | 'prefix'
  | 'keepmini'
  | 'dynbsz'
  | 'maxtok'
  | 'ulysses';

/** How a setting's value is read: one of the sampler names, a whole number in [min, max], or true/false. */
export type SettingKind = 'sampler' | 'int' | 'bool';

export interface LayoutSetting {
  field: keyof LayoutConfig;
  /** CLI flag without the leading `--`: the field in kebab-case (batchesPerEpoch → batches-per-epoch). */
  flag: string;
  /** Placeholder for the value in `--help` (W, B, K …). */
  metavar: string;
  /** URL query key (short, readable in a link; `<key>_hide=true` hides its control). */
  param: LayoutParam;
  /** Label of the control in the config panel. */
  label: string;
  /** What the setting is, with the frameworks' names for it (`--help`, the panel's hint). */
  hint: string;
  kind: SettingKind;
  /** Smallest and largest allowed value (kind 'int'); the samplers check combinations. */
  min: number;
  max: number;
}

type Entry = Omit<LayoutSetting, 'flag' | 'kind' | 'min' | 'max'> & Partial<Pick<LayoutSetting, 'kind' | 'min' | 'max'>>;

// One entry per setting, in display order; an int from 1 up unless it says otherwise.
// Which samplers read a setting is each sampler's `ignores` (src/core/samplers/*.ts), not this table.
const ENTRIES: Entry[] = [
  {
    field: 'sampler',
    metavar: 'NAME',
    param: 'sampler',
    label: 'sampler',
    hint: 'whose sampling scheme lays out the prompts',
    kind: 'sampler',
  },
  { field: 'ranks', metavar: 'W', param: 'ranks', label: 'ranks (W)', hint: 'data-parallel world size' },
  {
    field: 'batch',
    metavar: 'B',
    param: 'batch',
    label: 'per-rank batch (B)',
    hint: 'samples (completions) per rank per step (TRL: per_device_train_batch_size)',
  },
  { field: 'k', metavar: 'K', param: 'k', label: 'copies per prompt (k)', hint: 'group size (flow_grpo: k, TRL: num_generations)' },
  {
    field: 'batchesPerEpoch',
    metavar: 'N',
    param: 'batches',
    label: 'batches per epoch',
    hint:
      'steps per epoch (flow-grpo, group-distributed, contiguous: at most an epoch’s full batches; ' +
      'flow-grpo-lcm: a multiple of k/gcd(k, ranks×batch), the CLI refuses another; trl and dance-grpo derive it and refuse it)',
  },
  {
    field: 'epochs',
    metavar: 'E',
    param: 'epochs',
    label: 'epochs',
    hint: 'epochs (dance-grpo: passes over its DataLoader, all in pass 0’s order)',
  },
  {
    field: 'datasetSize',
    metavar: 'D',
    param: 'dataset',
    label: 'dataset size',
    hint: 'prompts in the dataset (ids 0 … D−1)',
    // The sandbox's cap (LIMITS.maxDatasetSize reads it from here): a randperm of 10^7 ids takes
    // about 0.2 s and 40 MB, and every sampler draws one per epoch (or per batch).
    max: 10_000_000,
  },
  {
    field: 'seed',
    metavar: 'S',
    param: 'seed',
    label: 'seed',
    hint: 'PyTorch generator seed (low 32 bits used)',
    min: -Number.MAX_SAFE_INTEGER,
  },
  {
    field: 'stepsPerGeneration',
    metavar: 'S',
    param: 'spg',
    label: 'steps per generation',
    hint: 'TRL steps_per_generation; defaults to --gradient-accumulation-steps, as in TRL',
  },
  {
    field: 'numIterations',
    metavar: 'MU',
    param: 'iters',
    label: 'iterations (μ)',
    hint: 'TRL num_iterations / flow_grpo num_inner_epochs / verl actor.ppo_epochs (step counts)',
  },
  {
    field: 'gradientAccumulationSteps',
    metavar: 'GA',
    param: 'ga',
    label: 'grad. accumulation',
    hint: 'gradient_accumulation_steps: micro-steps (DanceGRPO: samples) per optimizer step (step counts)',
  },
  {
    field: 'numWorkers',
    metavar: 'N',
    param: 'workers',
    label: 'loader workers',
    hint:
      'flow_grpo: DataLoader num_workers between the sampler and the loop (its scripts: 1); the workers draw index batches ' +
      'ahead of set_epoch; 0 = the loop reads the sampler itself',
    min: 0,
    max: 64,
  },
  {
    field: 'prefetchFactor',
    metavar: 'P',
    param: 'prefetch',
    label: 'prefetch factor',
    hint: 'flow_grpo: DataLoader prefetch_factor, index batches each worker draws ahead (torch’s default 2; unused with --num-workers 0)',
    max: 64,
  },
  {
    field: 'acceleratePrepare',
    metavar: '0|1',
    param: 'prepare',
    label: 'accelerate prepare',
    hint:
      'flow_grpo: 1 = the train DataLoader goes through accelerator.prepare (one batch looked ahead; with several ranks ' +
      'BatchSamplerShard keeps every W-th batch), as train_sd3.py at ac4c86e; 0 = not prepared (the lcm script, 74db691)',
    min: 0,
    max: 1,
  },
  {
    field: 'balanceBatch',
    metavar: 'BOOL',
    param: 'balance',
    label: 'balance batch',
    hint: 'verl trainer.balance_batch: reorder each step by token workload across ranks (true|false, verl’s default true)',
    kind: 'bool',
    min: 0,
    max: 1,
  },
  {
    field: 'ppoMiniBatchSize',
    metavar: 'M',
    param: 'mini',
    label: 'PPO mini-batch (prompts)',
    hint: 'verl actor.ppo_mini_batch_size in prompts; 0 = data.train_batch_size (step counts)',
    min: 0,
  },
  {
    field: 'ppoMicroBatchSizePerGpu',
    metavar: 'U',
    param: 'micro',
    label: 'PPO micro-batch per GPU',
    hint: 'verl actor.ppo_micro_batch_size_per_gpu in samples; 0 = the whole per-rank mini-batch (step counts)',
    min: 0,
  },
  {
    field: 'dataloaderNumWorkers',
    metavar: 'N',
    param: 'dlworkers',
    label: 'dataloader workers',
    hint:
      'verl data.dataloader_num_workers (verl’s default 8); with any worker, torchdata’s StatefulDataLoader draws two ' +
      'permutations per epoch and uses the second',
    min: 0,
    max: 1024,
  },
  {
    field: 'usePrefixGrouper',
    metavar: 'BOOL',
    param: 'prefix',
    label: 'prefix grouper',
    hint:
      'verl actor.use_prefix_grouper: _balance_batch keeps every copy of a prompt (its uid) on one rank, balancing whole groups ' +
      '(true|false, verl’s default false; needs train_batch_size prompts to split over the ranks)',
    kind: 'bool',
    min: 0,
    max: 1,
  },
  {
    field: 'keepMinibatch',
    metavar: 'BOOL',
    param: 'keepmini',
    label: 'keep mini-batches',
    hint:
      'verl _balance_batch(keep_minibatch=True): balance each slice of ppo_mini_batch_size samples on its own (true|false; ' +
      'RayPPOTrainer.fit at b178a3c never passes it, so false is what verl runs)',
    kind: 'bool',
    min: 0,
    max: 1,
  },
  {
    field: 'useDynamicBsz',
    metavar: 'BOOL',
    param: 'dynbsz',
    label: 'dynamic batch size',
    hint:
      'verl actor.use_dynamic_bsz: each rank’s mini-batch is cut by tokens (rearrange_micro_batches, Karmarkar–Karp) instead of ' +
      'ppo_micro_batch_size_per_gpu samples (true|false, verl’s default false)',
    kind: 'bool',
    min: 0,
    max: 1,
  },
  {
    field: 'ppoMaxTokenLenPerGpu',
    metavar: 'T',
    param: 'maxtok',
    label: 'PPO max tokens per GPU',
    hint: 'verl actor.ppo_max_token_len_per_gpu: the token budget of one micro-batch under use_dynamic_bsz (verl’s default 16384)',
    max: 1 << 30,
  },
  {
    field: 'ulyssesSequenceParallelSize',
    metavar: 'S',
    param: 'ulysses',
    label: 'Ulysses SP size',
    hint:
      'verl actor.ulysses_sequence_parallel_size: GPUs that share each sequence; ranks stays the data-parallel size (ranks × S GPUs), ' +
      'and use_dynamic_bsz cuts micro-batches at ppo_max_token_len_per_gpu × S tokens (verl’s default 1)',
    max: 1024,
  },
];

/** Every layout setting, in display order. */
export const LAYOUT_SETTINGS: readonly LayoutSetting[] = ENTRIES.map((e) => ({
  kind: 'int',
  min: 1,
  max: Number.MAX_SAFE_INTEGER,
  ...e,
  flag: flagName(e.field),
}));

/** Flag spelling of a config field (`datasetSize` → `dataset-size`), also for fields' names in messages. */
export function flagName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The setting of a config field. */
export function settingOf(field: keyof LayoutConfig): LayoutSetting {
  const s = LAYOUT_SETTINGS.find((x) => x.field === field);
  if (!s) throw new Error(`no layout setting for field '${field}' (add it to LAYOUT_SETTINGS in src/core/settings.ts)`);
  return s;
}

/** "k = 4, batches-per-epoch = 2" for a suggested change of fields (settings by their flag names). */
export function suggestionText(suggestion: Record<string, unknown>): string {
  return Object.entries(suggestion)
    .map(([key, v]) => `${LAYOUT_SETTINGS.find((s) => s.field === key)?.flag ?? key} = ${String(v)}`)
    .join(', ');
}
