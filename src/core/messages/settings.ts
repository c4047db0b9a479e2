// The clauses of the settings' ConfigErrors in English: a setting's text that its row refuses
// (src/core/setting.ts), and the rules of the features that read the tables (train, schedule,
// dynamic, steps), the samplers' "does not use" and verl's seqlens, and the seed. A template names
// a setting through `w.flag(key)` (`--key` on the CLI; the page's own name for it on the page).
// Refused text is a parameter as the CLI quotes it ('abc', cut at 40 characters, controls escaped).
import { budgetNeeds, type OverBudget } from '../budget.ts';
import { CLI_WORDS, type Words } from './errors.ts';

const orList = (values: readonly string[]) => values.join(' or ');

/** Why a sampler does not read a layout setting (SamplerSpec.ignores), one clause each. */
export const IGNORES_EN = {
  'ignores.trl-only': (_: Record<string, never>, w: Words = CLI_WORDS) => `steps-per-generation is TRL’s (use ${w.flag('sampler')} trl)`,
  'ignores.loader': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `the loader between sampler and loop is modelled for flow_grpo’s scripts (use ${w.flag('sampler')} flow-grpo or flow-grpo-lcm)`,
  'ignores.dance-batches': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `a DanceGRPO pass is the whole DataLoader (len = per-rank prompts // train_batch_size); ${w.flag('epochs')} counts passes`,
  'ignores.dance-iterations': () => 'DanceGRPO trains each sample once (no num_iterations / inner epochs)',
  'ignores.trl-batches': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `TRL derives it: an epoch is every full generation batch RepeatSampler cuts from the dataset (change ${w.flag('dataset-size')})`,
  'ignores.verl-batches': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `verl runs every full batch of the epoch: len(dataset) // data.train_batch_size steps (change ${w.flag('dataset-size')})`,
  'ignores.verl-loader': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    "verl's loader is torchdata's StatefulDataLoader with no prefetch or accelerate prepare; " +
    `its own knob is ${w.flag('dataloader-num-workers')} (data.dataloader_num_workers)`,
  'ignores.verl-ga': () => 'verl accumulates ppo_mini_batch_size / ppo_micro_batch_size_per_gpu micro-batches (use those)',
};

/** What the fused WebGPU training step does not run (src/train/config.ts: fusedStepGap). */
export const FUSED_GAPS_EN = {
  'fused.dynamic': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('dynamic-sampling')} (its resampling loop runs on the CPU)`,
  'fused.micro-steps': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `micro-steps (${w.flag('gradient-accumulation-steps')}, ${w.flag('num-iterations')}, ${w.flag('steps-per-generation')})`,
  'fused.home-normaliser': (p: { framework: string }, w: Words = CLI_WORDS) =>
    `${w.flag('framework')} ${p.framework}'s normaliser (the fused step's loss weighs its tokens as its own loss type does)`,
  'fused.pairwise-ranks': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('loss')} pairwise on more than one rank (its groups are gathered across ranks inside the loss)`,
  'fused.pairwise-sampler': (p: { sampler: string; step: number; k: number }, w: Words = CLI_WORDS) =>
    `${w.flag('loss')} pairwise with ${w.flag('sampler')} ${p.sampler}, whose step ${p.step} does not give each prompt's ${p.k} samples side by side ` +
    '(the fused pairwise loss ranks contiguous groups)',
};

/** A setting the fused WebGPU step does not run, as a fact. */
export type FusedGap = {
  [K in keyof typeof FUSED_GAPS_EN]: { id: K; params: Parameters<(typeof FUSED_GAPS_EN)[K]>[0] };
}[keyof typeof FUSED_GAPS_EN];

/** A reason a sampler gives for not reading a setting. */
export type IgnoreReason = keyof typeof IGNORES_EN;

export const SETTINGS_EN = {
  ...IGNORES_EN,
  ...FUSED_GAPS_EN,
  // What a training run tells while it starts (src/train/run.ts: onNotice), and the WebGPU backend it could not start
  'run.webgpu-unavailable': (p: { reason: string }) => `WebGPU unavailable (${p.reason}); training on the CPU instead`,
  'run.fused-unsupported': (p: { gap: FusedGap }, w: Words = CLI_WORDS) =>
    `the fused WebGPU step does not run ${(FUSED_GAPS_EN[p.gap.id] as (q: object, w: Words) => string)(p.gap.params, w)}: ` +
    'each rank runs every op as its own GPU submission and readback (slower)',
  'run.webgpu-failed': (p: { reason: string }, w: Words = CLI_WORDS) =>
    `${w.flag('backend')} webgpu: ${p.reason}; use ${w.flag('backend')} cpu (or auto to fall back)`,
  // A setting's text against its row (src/core/setting.ts)
  'setting.not-whole': (p: { key: string; got: string }, w: Words = CLI_WORDS) => `${w.flag(p.key)} must be a whole number, got ${p.got}`,
  'setting.between': (p: { key: string; min: number; max: number; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be between ${p.min} and ${p.max}, got ${p.got}`,
  'setting.not-number': (p: { key: string; got: string }, w: Words = CLI_WORDS) => `${w.flag(p.key)} must be a number, got ${p.got}`,
  'setting.positive': (p: { key: string; got: string }, w: Words = CLI_WORDS) => `${w.flag(p.key)} must be a positive number, got ${p.got}`,
  'setting.at-least': (p: { key: string; min: number; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be a number ≥ ${p.min}, got ${p.got}`,
  'setting.at-most': (p: { key: string; max: number; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be a number ≤ ${p.max}, got ${p.got}`,
  'setting.not-choice': (p: { key: string; choices: string[]; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be one of ${p.choices.join(', ')}, got ${p.got}`,
  'setting.not-switch': (p: { key: string; got: string }, w: Words = CLI_WORDS) => `${w.flag(p.key)} must be on or off, got ${p.got}`,
  'setting.not-probability': (p: { key: string; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be a probability from 0 to 1, got ${p.got}`,
  'setting.not-interval': (p: { key: string; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be MIN,MAX with MIN < MAX (e.g. 0,1), got ${p.got}`,
  'setting.unknown-item': (p: { key: string; item: string; got: string; choices: string[] }, w: Words = CLI_WORDS) =>
    `unknown ${p.item} ${p.got} in ${w.flag(p.key)}; ${p.key}: ${p.choices.join(', ')}`,
  // Training's rules (src/train/settings.ts, src/train/config.ts)
  'train.unknown-preset': (p: { got: string; presets: string[] }, w: Words = CLI_WORDS) =>
    `unknown ${w.flag('preset')} ${p.got}; presets: ${p.presets.join(', ')}`,
  'train.dynamic-only': (p: { key: string; policies: string[] }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} only applies with ${w.flag('dynamic-sampling')} POLICY (one of ${p.policies.join(', ')})`,
  'train.one-of': (p: { key: string; choices: string[]; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be one of ${p.choices.join(', ')}, got '${p.got}'`,
  'train.either': (p: { key: string; choices: string[]; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be ${orList(p.choices)}, got '${p.got}'`,
  'train.k-at-least-2': (p: { k: number }, w: Words = CLI_WORDS) =>
    `${w.flag('k')} must be at least 2: a group of one sample has no relative advantage, got ${p.k}`,
  'train.epsilon-low': (p: { got: number }, w: Words = CLI_WORDS) => `${w.flag('epsilon-low')} must be in [0, 1), got ${p.got}`,
  'train.non-negative': (p: { key: string; got: number }, w: Words = CLI_WORDS) => `${w.flag(p.key)} must be ≥ 0, got ${p.got}`,
  'train.lr': (p: { got: number }, w: Words = CLI_WORDS) => `${w.flag('lr')} must be in (0, 1], got ${p.got}`,
  'train.dance-batch': (p: { batch: number; k: number }, w: Words = CLI_WORDS) =>
    `${w.flag('advantage')} dance groups each rank's ${p.batch} samples in runs of k=${p.k}; use a ${w.flag('batch')} that is a multiple of ${p.k}`,
  'train.whole-at-least': (p: { key: string; min: number; got: number }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} must be a whole number ≥ ${p.min}, got ${p.got}`,
  'train.framework': (p: { frameworks: string[]; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag('framework')} must be one of ${p.frameworks.join(', ')} (their loss types are train's), got '${p.got}'`,
  'train.framework-loss': (p: { framework: string; losses: string[]; got: string }, w: Words = CLI_WORDS) =>
    `${w.flag('loss')} ${p.got} is not ${p.framework}'s: it trains ${p.losses.join(', ')} (or pairwise, which has no normaliser); ` +
    `give one of them, or leave ${w.flag('loss')} out for its default`,
  'train.sequence-ratio': (p: { framework: string; loss: string; losses: string[] }, w: Words = CLI_WORDS) =>
    `${w.flag('loss')} ${p.loss} is ${p.framework}'s loss with one importance ratio per sequence (GSPO's); train's loss op takes one ` +
    `per token: use ${p.losses.join(', ')} (\`grpo-sandbox steps --framework ${p.framework}\` shows ${p.loss}'s weights)`,
  'train.home-plain': (p: { framework: string; key: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} does not go with ${w.flag('framework')} ${p.framework}: its own settings cut its optimizer steps, and train ` +
    `applies its normaliser to one optimizer step of the whole global batch; leave ${w.flag(p.key)} out`,
  'train.home-refuses': (p: { framework: string; samples: number; k: number; why: string; losses: string[] }, w: Words = CLI_WORDS) =>
    `${w.flag('framework')} ${p.framework} does not take a step of ${p.samples} completions (k=${p.k}) as one optimizer step: ${p.why} ` +
    `(its settings in train are its one-step batch's: change ${w.flag('ranks')}, ${w.flag('batch')} or ${w.flag('k')}, or give another ` +
    `${w.flag('loss')} of ${p.losses.join(', ')})`,
  'train.steps-per-generation-trl': (p: { sampler: string }, w: Words = CLI_WORDS) =>
    `${w.flag('steps-per-generation')} is TRL's: the ${p.sampler} sampler generates one batch per layout step; use ${w.flag('sampler')} trl, or leave it out`,
  'train.async-bound-alone': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('max-staleness')} goes with ${w.flag('async')} FRAMEWORK (the staleness rule it bounds)`,
  'train.async-setting-alone': (p: { key: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} is a setting of the asynchronous simulation: it goes with ${w.flag('async')} FRAMEWORK`,
  'train.async-not-its-setting': (p: { framework: string; key: string; owners: string[]; reads: string[] }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} is not ${p.framework}'s setting (it is ${p.owners.join(', ')}'s); ${p.framework} reads ` +
    `${p.reads.map((f) => `${w.flag(f)}, `).join('')}and the workload's settings`,
  'train.async-not-modelled': (
    p: { framework: string; why: 'backend' | 'micro-steps' | 'dynamic-sampling' | 'no-bound' },
    w: Words = CLI_WORDS,
  ) =>
    `${w.flag('async')} ${p.framework}: ` +
    {
      backend: `trains on ${w.flag('backend')} cpu only (the fused WebGPU step keeps no older versions to sample with)`,
      'micro-steps': `not modelled with micro-steps (${w.flag('gradient-accumulation-steps')}, ${w.flag('num-iterations')}, ${w.flag('steps-per-generation')})`,
      'dynamic-sampling': `not modelled with ${w.flag('dynamic-sampling')} (its resamples are not in the simulation)`,
      'no-bound': `has no staleness bound to set (no version control), so ${w.flag('max-staleness')} does not apply`,
    }[p.why],
  'train.async-groups': (p: { framework: string; samples: number; k: number }, w: Words = CLI_WORDS) =>
    `${w.flag('async')} ${p.framework}: each step must hold whole groups: ${w.flag('ranks')} × ${w.flag('batch')} (${p.samples}) ` +
    `is not a multiple of ${w.flag('k')} ${p.k}`,
  'train.micro-pairwise': (p: { key: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} needs a per-token GRPO loss: ${w.flag('loss')} pairwise ranks whole groups; use ${w.flag('loss')} dapo (or grpo, bnpo, dr_grpo)`,
  'train.micro-dynamic': (p: { key: string }, w: Words = CLI_WORDS) =>
    `${w.flag(p.key)} and ${w.flag('dynamic-sampling')} do not combine here (dynamic sampling runs one generation per update); leave one out`,
  'train.stream-batch': (p: { batch: number; k: number }, w: Words = CLI_WORDS) =>
    `${w.flag('dynamic-sampling')} stream replaces whole prompts in each rank's ${p.batch} slots; use a ${w.flag('batch')} that is a multiple of k=${p.k}`,
  'train.stream-split': (p: { sampler: string; prompt: number; at: number; rank: number }, w: Words = CLI_WORDS) =>
    `${w.flag('dynamic-sampling')} stream needs every group on one rank, but the ${p.sampler} sampler puts prompt ${p.prompt} ` +
    `on ranks ${p.at} and ${p.rank}; use ${w.flag('sampler')} trl or contiguous`,
  'train.dynamic-pairwise': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('loss')} pairwise needs each prompt exactly k times per step; ` +
    `with ${w.flag('dynamic-sampling')} use ${w.flag('loss')} dapo (or grpo, bnpo, dr_grpo)`,
  'train.dance-rebalance': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('advantage')} dance normalises each rank's runs of k, but rebalance's slices need not be multiples of k; ` +
    `use ${w.flag('advantage')} verl or flow-grpo`,
  'train.over-budget': (
    p: { samples: number; dynamic: boolean; draws: number; dModel: number; hidden: number; webgpu: boolean } & OverBudget,
    w: Words = CLI_WORDS,
  ) =>
    `one training step of ranks × batch = ${p.samples} samples` +
    (p.dynamic ? ` drawn up to ${p.draws} times` : p.draws > 1 ? ` × ${p.draws} micro-batches` : '') +
    ` (dModel ${p.dModel}, hidden ${p.hidden}, CPU estimate) would need ${budgetNeeds(p)}; lower ${w.flag('batch')} or ${w.flag('ranks')}` +
    (p.dynamic
      ? ` (or ${w.flag('max-resample-times')})`
      : p.draws > 1
        ? ` (or ${w.flag('gradient-accumulation-steps')}, ${w.flag('steps-per-generation')})`
        : '') +
    (p.webgpu ? '' : `, or use ${w.flag('backend')} webgpu`),
  // The schedule's and the dynamic step's rules (src/core/schedule/settings.ts, src/core/dynamic/*.ts)
  'schedule.unknown-preset': (p: { got: string; presets: string[] }) =>
    `unknown preset ${p.got}; schedule presets: ${p.presets.join(', ')}`,
  'schedule.policy-constant': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('policy')} draws configurations for ${w.flag('latency')} controller; drop ${w.flag('latency')} constant or ${w.flag('policy')}`,
  'schedule.config-time-controller': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('config-time')} sets the constant model's T; the controller model takes each configuration's prefill latency instead`,
  'dynamic.preset-fixes': (p: { preset: string; none: string }, w: Words = CLI_WORDS) =>
    `${w.flag('preset')} ${p.preset} fixes ${w.flag('ranks')}, ${w.flag('per-rank')}, ${w.flag('k')} and the reward draws; ` +
    `leave them out or use ${w.flag('preset')} ${p.none}`,
  'dynamic.step-too-big': (p: { max: number; ranks: number; perRank: number }, w: Words = CLI_WORDS) =>
    `${w.flag('ranks')} × ${w.flag('per-rank')} must be at most ${p.max} samples per step, got ${p.ranks} × ${p.perRank} = ${p.ranks * p.perRank}`,
  'dynamic.policy': (p: { policies: string[]; got: string }) => `policy must be one of ${p.policies.join(', ')}, got '${p.got}'`,
  'dynamic.per-rank-k': (p: { perRank: number; k: number; lower: number; higher: number }, w: Words = CLI_WORDS) =>
    `per-rank batch ${p.perRank} must be a multiple of k = ${p.k} (each rank generates whole groups); try ${w.flag('per-rank')} ${p.lower} or ${p.higher}`,
  'dynamic.range': (p: { min: number; max: number }) => `range must be min < max, got (${p.min}, ${p.max})`,
  // A layout setting the sampler does not read; an unknown sampler; verl's measured seqlens (src/core/samplers)
  'sampler.does-not-use': (p: { sampler: string; flag: string; reason: IgnoreReason }, w: Words = CLI_WORDS) =>
    `${w.flag('sampler')} ${p.sampler} does not use ${w.flag(p.flag)}: ${IGNORES_EN[p.reason]({} as never, w)}; leave it out`,
  'sampler.only-readers': (p: { sampler: string; flag: string; readers: string[] }, w: Words = CLI_WORDS) =>
    `${w.flag('sampler')} ${p.sampler} does not use ${w.flag(p.flag)}: only ${p.readers.join(', ')} read(s) it; ` +
    `leave it out or use ${w.flag('sampler')} ${p.readers[0]}`,
  'sampler.unknown': (p: { got: string; samplers: string[] }) => `unknown sampler '${p.got}'; samplers: ${p.samplers.join(', ')}`,
  'verl.seqlen-bad': (p: { index: number; got: number; max: number }) =>
    `seqlens[${p.index}]=${p.got} must be a whole token count in 1 … ${p.max}`,
  'verl.seqlens-short': (p: { given: number; need: number; epochs: number; steps: number; samples: number }, w: Words = CLI_WORDS) =>
    `the seqlens give ${p.given} token counts but this layout has ${p.need} samples (${p.epochs} epoch(s) × ${p.steps} ` +
    `step(s) × ${p.samples}); give more, or lower ${w.flag('epochs')} or ${w.flag('dataset-size')}`,
  // The steps report's framework, loss and batching (src/core/steps/build.ts)
  'steps.sampler-not-modelled': (p: { sampler: string }, w: Words = CLI_WORDS) =>
    `steps does not model ${w.flag('sampler')} ${p.sampler}'s loss normalisation (not transcribed); samplers: trl, flow-grpo, flow-grpo-lcm, contiguous, ` +
    `group-distributed (and verl's)`,
  'steps.unknown-framework': (p: { got: string; frameworks: string[] }, w: Words = CLI_WORDS) =>
    `unknown ${w.flag('framework')} '${p.got}'; frameworks: ${p.frameworks.join(', ')}`,
  'steps.framework-sampler': (p: { framework: string; sampler: string; fits: string[] }, w: Words = CLI_WORDS) =>
    `${w.flag('framework')} ${p.framework} does not train ${w.flag('sampler')} ${p.sampler}'s layout; for ${p.sampler}: ${p.fits.join(', ') || 'none'}`,
  'steps.loss': (p: { got: string; framework: string; losses: string[] }, w: Words = CLI_WORDS) =>
    `${w.flag('loss')} ${p.got} is not one of ${p.framework}'s: ${p.losses.join(', ')}`,
  'steps.micro-not-verl': (p: { framework: string }, w: Words = CLI_WORDS) =>
    `${w.flag('micro-batch')} is verl's ppo_micro_batch_size_per_gpu; ${p.framework}'s micro-batch is ${w.flag('batch')} (leave it out)`,
  'steps.micro-conflict': (p: { given: number; micro: number; leftOut: boolean }, w: Words = CLI_WORDS) =>
    `${w.flag('micro-batch')} ${p.given} conflicts with verl's ppo_micro_batch_size_per_gpu ${p.micro} (${w.flag('ppo-micro-batch-size-per-gpu')}` +
    `${p.leftOut ? ' left out: the per-rank mini-batch' : ''}); with ${w.flag('sampler')} verl give ${w.flag('ppo-micro-batch-size-per-gpu')} only`,
  'steps.mini-split': (p: { block: number; given: number | null; ga: number; fits: number[] }, w: Words = CLI_WORDS) =>
    `verl splits each rank's ${p.block} samples per step into mini-batches of micro-batch × GA = ${p.given ?? `${p.block}/${p.ga}`} × ${p.ga} samples, ` +
    `which must divide ${p.block}` +
    (p.fits.length
      ? `; ${w.flag('micro-batch')} ${p.fits.join(' or ')}`
      : `; no micro-batch fits GA ${p.ga}: use a ${w.flag('gradient-accumulation-steps')} dividing ${p.block}`),
  'steps.max-length': (p: { max: number; longest: number }, w: Words = CLI_WORDS) =>
    `${w.flag('max-completion-length')} ${p.max} is below the longest of the verl sampler's seqlens (${p.longest}), which the ` +
    `loss counts as completion tokens; use ${w.flag('max-completion-length')} ${p.longest} or more, or give ${w.flag('lengths')}`,
  'steps.no-tokens': (p: { framework: string }, w: Words = CLI_WORDS) =>
    `${p.framework}'s loss is a per-sample mean (no tokens): leave ${w.flag('lengths')} out`,
  'lengths.not-json': (p: { source: string }, w: Words = CLI_WORDS) =>
    `${w.flag('lengths')} ${p.source}: not a JSON array of whole numbers (or numbers separated by spaces)`,
  'lengths.not-array': (p: { source: string }, w: Words = CLI_WORDS) => `${w.flag('lengths')} ${p.source}: not a JSON array`,
  'lengths.none': (p: { source: string }, w: Words = CLI_WORDS) =>
    `${w.flag('lengths')} ${p.source}: no lengths; give one whole number per completion`,
  'lengths.entry': (p: { source: string; index: number; got: string; max: number }, w: Words = CLI_WORDS) =>
    `${w.flag('lengths')} ${p.source}: entry ${p.index} is ${p.got}; each length must be a whole number in [0, ${p.max}] ` +
    `(${w.flag('max-completion-length')} ${p.max}; raise it or shorten the entry)`,
  // The seed (src/core/rng/seed.ts)
  'seed.not-safe': (p: { got: number }) => `seed must be a whole number within ±(2^53−1) (or a bigint), got ${p.got}`,
  'seed.outside-torch': (p: { seed: string; low32: string }) =>
    `seed ${p.seed} is outside PyTorch's range [-2^63, 2^64); seeds s and s+2^32 give the same stream, so use ${p.low32}`,
};
