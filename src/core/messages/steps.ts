// What `grpo-sandbox steps` finds in a run, in English: one template per finding and note, over the
// numbers src/core/steps/findings.ts computes. The CLI prints them (the text report and --json);
// the page renders the same facts from its catalogues (src/ui/i18n/core-zh.ts for Chinese).
import type { FrameworkName } from '../steps/types.ts';

/** A number of a finding: whole numbers and numbers from 100 on without decimals, others to 4 significant digits. */
export const stepNumber = (x: number) => (Math.abs(x) >= 100 || Number.isInteger(x) ? x.toFixed(0) : x.toPrecision(4));

/** Why an update is not the size of the global token mean, where a framework's code makes it so. */
export type UpdateCause = 'trl-1.9.0-dapo' | 'ms-swift-dapo' | 'constant-length' | 'token-sum' | 'none';

/** Which formula a micro-batch's normaliser is (chosen by the framework's code: src/core/steps/frameworks.ts). */
export type NormaliserKind = NormaliserTerms['kind'];

/**
 * How each normaliser makes a completion's tokens weigh (the end of the per-completion finding), keyed by the
 * formula the framework's code uses, never by the loss's name: verl's token-mean is a per-micro-batch mean on its
 * legacy worker and a global token mean on its engine workers.
 */
export const LOSS_CAUSE_EN: Record<NormaliserKind, string> = {
  'completion-mean':
    'grpo averages each completion over its own tokens first, so a token weighs 1/(its completion’s length × B × GA × W): ' +
    'short completions’ tokens weigh more than long ones’.',
  'micro-tokens':
    'bnpo divides by the tokens of each rank’s own micro-batch, so a token in a micro-batch with fewer tokens weighs more: ' +
    'which completions share a micro-batch (the order across ranks and micro-steps) changes the update.',
  'constant-length': 'dr_grpo divides by the constant B × max_completion_length × GA, not by the tokens present.',
  'generation-rescaled':
    'dapo divides by a token count of a generation batch or window, which differs from this optimizer step’s own tokens ' +
    'when the two spans differ.',
  generation:
    'dapo divides by a token count of a generation batch or window, which differs from this optimizer step’s own tokens ' +
    'when the two spans differ.',
  'window-twice':
    'dapo divides by a token count of a generation batch or window, which differs from this optimizer step’s own tokens ' +
    'when the two spans differ.',
  window:
    'dapo divides by a token count of a generation batch or window, which differs from this optimizer step’s own tokens ' +
    'when the two spans differ.',
  'verl-tokens':
    'token-mean on verl’s legacy worker divides by the tokens of the micro-batch it sees, one rank’s micro-batch: ' +
    'a token in a micro-batch with fewer tokens weighs more.',
  'verl-sequences':
    'seq-mean-token-sum sums each sequence’s tokens and averages over sequences: every token of every sequence weighs the same, ' +
    'whatever the total.',
  'verl-sequence-mean': 'seq-mean-token-mean averages each sequence over its own tokens first: short sequences’ tokens weigh more.',
  'verl-length': 'seq-mean-token-sum-norm divides by a constant length, not by the tokens present.',
  'engine-tokens':
    'token-mean on verl’s engine workers divides by the mini-batch’s token count, all-reduced over the ranks: ' +
    'every token of the mini-batch weighs the same, whatever micro-batch or rank it lands on.',
  'engine-sequences':
    'seq-mean-token-sum sums each sequence’s tokens and averages over sequences: every token of every sequence weighs the same, ' +
    'whatever the total.',
  'engine-sequence-mean': 'seq-mean-token-mean averages each sequence over its own tokens first: short sequences’ tokens weigh more.',
  'engine-length': 'seq-mean-token-sum-norm divides by a constant length, not by the tokens present.',
  'sample-mean': 'the diffusion loss is a mean over each training batch, so every sample weighs 1/(B × GA × W).',
  'dance-sample-mean':
    'DanceGRPO averages each one-sample micro-batch and divides by GA × train_timesteps itself: every sample weighs 1/(GA × W).',
};

/** Where a report's completion lengths come from. */
export type LengthsSource =
  | { kind: 'diffusion' }
  | { kind: 'given'; source: string; count: number; repeated: boolean; verl: boolean }
  | { kind: 'seqlens'; measured: boolean }
  | { kind: 'seeded'; low: number; high: number; seed: number };

/** The lengths' source in English (`lengths` in --json, and the note). */
export function lengthsText(l: LengthsSource): string {
  switch (l.kind) {
    case 'diffusion':
      return 'one unit per sample (a diffusion loss is a per-sample mean at each timestep; the timesteps cancel)';
    case 'given':
      return (
        `${l.source}: ${l.count} length(s), used in completion order${l.repeated ? ', repeated' : ''}` +
        (l.verl ? " (the layout's _balance_batch used the seqlens; verl balances by prompt + response tokens)" : '')
      );
    case 'seqlens':
      return (
        `the verl sampler's seqlens (${l.measured ? 'measured, --seqlens' : 'synthetic, seeded'}), which _balance_batch balanced the ranks by, ` +
        'in dispatch order (verl balances by prompt + response tokens; give --lengths for the response tokens alone)'
      );
    case 'seeded':
      return `seeded: uniform in [${l.low}, ${l.high}] from MT19937(seed ${l.seed})`;
  }
}

/** A micro-batch's loss normaliser as a framework's code computes it: which formula, with its numbers (src/core/steps/frameworks.ts). */
export type NormaliserTerms =
  | { kind: 'completion-mean'; B: number; ga: number }
  | { kind: 'micro-tokens'; tokens: number; ga: number }
  | { kind: 'constant-length'; B: number; maxLength: number; ga: number }
  | { kind: 'generation-rescaled'; generationTokens: number; ranks: number; ga: number; spg: number }
  | { kind: 'generation'; generationTokens: number; ranks: number }
  | { kind: 'window-twice'; windowTokens: number; ranks: number; ga: number }
  | { kind: 'window'; windowTokens: number; ranks: number }
  | ({ kind: 'verl-tokens'; tokens: number } & VerlScale)
  | ({ kind: 'verl-sequences'; B: number } & VerlScale)
  | ({ kind: 'verl-sequence-mean'; B: number } & VerlScale)
  | ({ kind: 'verl-length'; maxLength: number } & VerlScale)
  | { kind: 'engine-tokens'; tokens: number; dp: number }
  | { kind: 'engine-sequences'; sequences: number; dp: number }
  | { kind: 'engine-sequence-mean'; sequences: number; dp: number }
  | { kind: 'engine-length'; maxLength: number }
  | { kind: 'sample-mean'; B: number; ga: number }
  | { kind: 'dance-sample-mean'; B: number; ga: number };

/**
 * verl's loss_scale_factor in dp_actor.update_policy: 1 / gradient_accumulation, or with use_dynamic_bsz the micro-batch's
 * samples / the normalised ppo_mini_batch_size (`dynamic`).
 */
export interface VerlScale {
  ga: number;
  dynamic?: { samples: number; mini: number };
}

/** verl's loss_scale_factor in words: "1/GA 2" or "samples 3 / ppo_mini_batch_size 8". */
export function verlScaleText(n: VerlScale): string {
  return n.dynamic ? `samples ${n.dynamic.samples} / ppo_mini_batch_size ${n.dynamic.mini}` : `1/GA ${n.ga}`;
}

/** A normaliser in English, as the CLI's table and `train`'s micro-step lines print it. */
export function normaliserText(n: NormaliserTerms): string {
  switch (n.kind) {
    case 'completion-mean':
      return `each completion's token mean / (B ${n.B} × GA ${n.ga})`;
    case 'micro-tokens':
      return `Σ tokens / (micro-batch tokens ${n.tokens} × GA ${n.ga})`;
    case 'constant-length':
      return `Σ tokens / (B ${n.B} × max_completion_length ${n.maxLength} × GA ${n.ga})`;
    case 'generation-rescaled':
      return `Σ tokens / (N_gen ${n.generationTokens} / W ${n.ranks} × GA ${n.ga} / spg ${n.spg})`;
    case 'generation':
      return `Σ tokens / (N_gen ${n.generationTokens} / W ${n.ranks})`;
    case 'window-twice':
      return `Σ tokens / (N_window ${n.windowTokens} / W ${n.ranks}) / GA ${n.ga} (Trainer's division, a second time)`;
    case 'window':
      return `Σ tokens / (N_window ${n.windowTokens} / W ${n.ranks})`;
    case 'verl-tokens':
      return `Σ tokens / micro-batch tokens ${n.tokens} × ${verlScaleText(n)}`;
    case 'verl-sequences':
      return `Σ tokens / micro-batch sequences ${n.B} × ${verlScaleText(n)}`;
    case 'verl-sequence-mean':
      return `each sequence's token mean / sequences ${n.B} × ${verlScaleText(n)}`;
    case 'verl-length':
      return `Σ tokens / response length ${n.maxLength} × ${verlScaleText(n)}`;
    case 'engine-tokens':
      return `Σ tokens / batch_num_tokens ${n.tokens} × dp ${n.dp}`;
    case 'engine-sequences':
      return `Σ tokens / global_batch_size ${n.sequences} × dp ${n.dp}`;
    case 'engine-sequence-mean':
      return `each sequence's token mean / global_batch_size ${n.sequences} × dp ${n.dp}`;
    case 'engine-length':
      return `Σ tokens / loss_scale_factor ${n.maxLength}`;
    case 'sample-mean':
      return `mean over the batch ${n.B} × 1/GA ${n.ga} (accelerate divides by GA × timesteps, per timestep)`;
    case 'dance-sample-mean':
      return `mean over the micro-batch ${n.B} / (GA ${n.ga} × train_timesteps), at each timestep`;
  }
}

/** Why TRL trains off-policy in a run, in English: each cause that holds (the off-policy finding's parenthesis). */
function trlOffPolicyCauses(p: { numIterations: number; spg: number; ga: number }): string[] {
  const causes: string[] = [];
  if (p.numIterations > 1) causes.push(`num_iterations ${p.numIterations} trains each generation batch ${p.numIterations} times`);
  if (p.spg > p.ga) causes.push(`a generation batch spans steps_per_generation ${p.spg} micro-steps, more than one window of GA ${p.ga}`);
  return causes.length ? causes : ['a generation batch is trained after an optimizer step'];
}

/** One completion a finding names. */
export interface NamedCompletion {
  completion: number;
  tokens: number;
  rank: number;
}

/** A short accumulation window that still steps. */
export interface ShortWindow {
  index: number;
  microSteps: number;
  updateScale: number;
}

/** The off-policy finding's numbers; each framework's schedule names its own sentence (StepSchedule.facts). */
export interface OffPolicyParams {
  off: number;
  total: number;
  lag: number;
  microStep: number;
  policy: number;
  train: number;
  numIterations: number;
  spg: number;
  ga: number;
}

/** The never-applied finding's numbers. */
export interface NeverAppliedParams {
  microSteps: number;
  ga: number;
}

const offPolicyHead = (p: OffPolicyParams) =>
  `Off-policy: ${p.off} of ${p.total} micro-steps train on completions generated by an older policy (up to ${p.lag} optimizer ` +
  `step(s) old; first: micro-step ${p.microStep}, generated by policy ${p.policy}, trained at ${p.train}). ` +
  `There the ratio π/π_old is no longer 1 and clipping can act`;

/** The sentences a framework's schedule explains a run with, by kind (src/core/frameworks/<home>/steps-schedule.ts names its own). */
export type OffPolicyFact = Extract<keyof typeof STEPS_EN, `steps.off-policy.${string}`>;
export type ShuffleFact = Extract<keyof typeof STEPS_EN, `steps.note.shuffle.${string}`>;
export type NeverAppliedFact = Extract<keyof typeof STEPS_EN, `steps.never-applied.${string}`>;

export const STEPS_EN = {
  /** `high` null: every step's update has the size `low`. */
  'steps.update-size': (p: {
    framework: string;
    loss: string;
    low: number;
    high: number | null;
    cause: UpdateCause;
    ga: number;
    spg: number;
    maxLength: number;
  }) => {
    const same = p.high === null;
    const cause =
      p.cause === 'trl-1.9.0-dapo'
        ? ` It divides every micro-step by the generation batch's tokens (N_gen / W) while ${p.ga} micro-steps ` +
          `accumulate and a generation batch spans steps_per_generation ${p.spg}: the update is scaled by about GA / spg = ` +
          `${stepNumber(p.ga / p.spg)} (TRL #5619; PR #6024 added the rescale that 1.13.0 has).`
        : p.cause === 'ms-swift-dapo'
          ? " It divides by the window's tokens and transformers' Trainer divides by current_gradient_accumulation_steps again, " +
            'so the update is 1/GA of the token mean (ms-swift #10117, fixed by PR #10116).'
          : p.cause === 'constant-length'
            ? ' A constant length in the denominator makes the update proportional to the tokens actually present ' +
              `(mean length / ${p.maxLength}).`
            : p.cause === 'token-sum'
              ? ' Sums over tokens divided by sequences make the update grow with the completions’ length.'
              : '';
    return (
      `Update size: under ${p.framework} ${p.loss} the optimizer step's Σ weight × tokens is ` +
      `${p.high === null ? stepNumber(p.low) : `${stepNumber(p.low)} to ${stepNumber(p.high)}`} where the global token ` +
      `mean over the step gives 1, so the effective learning rate is multiplied by ${same ? 'that factor' : 'those factors'}.${cause}`
    );
  },
  'steps.per-completion': (p: {
    normaliser: NormaliserKind;
    low: number;
    high: number;
    heaviest: NamedCompletion;
    lightest: NamedCompletion;
  }) =>
    `Per completion: the weight of a completion's tokens ranges from ${stepNumber(p.low)} to ${stepNumber(p.high)} × the global token mean's ` +
    `(${stepNumber(p.high / p.low)}× apart; e.g. completion ${p.heaviest.completion}, ${p.heaviest.tokens} tokens on rank ${p.heaviest.rank}, against ` +
    `completion ${p.lightest.completion}, ${p.lightest.tokens} tokens on rank ${p.lightest.rank}). ${LOSS_CAUSE_EN[p.normaliser]}`,
  'steps.per-completion-same': (p: { normaliser: NormaliserKind; ratio: number }) =>
    `Per completion: every token of a step weighs the same (${stepNumber(p.ratio)} × the global token mean's). ${LOSS_CAUSE_EN[p.normaliser]}`,
  'steps.short-windows': (p: { count: number; ga: number; windows: ShortWindow[] }) =>
    `Short windows: ${p.count} optimizer step(s) (${p.windows
      .map((s) => `step ${s.index}: ${s.microSteps} of ${p.ga} micro-steps, update ${stepNumber(s.updateScale)}`)
      .join('; ')}) accumulate fewer than gradient_accumulation_steps micro-steps at the end of an epoch and still step the optimizer.`,
  'steps.off-policy.trl': (p: OffPolicyParams) => `${offPolicyHead(p)} (here ${trlOffPolicyCauses(p).join(', and ')}: TRL #3662).`,
  'steps.off-policy.flow-grpo': (p: OffPolicyParams) =>
    `${offPolicyHead(p)} (inner epochs ${p.numIterations}, or an epoch cut into several optimizer steps: flow_grpo #138).`,
  'steps.off-policy.dance-grpo': (p: OffPolicyParams) =>
    `${offPolicyHead(p)} (DanceGRPO steps the optimizer every gradient_accumulation_steps ${p.ga} samples of a training step, ` +
    "so the step's later samples train a policy that has moved since it sampled them).",
  'steps.off-policy.verl': (p: OffPolicyParams) => `${offPolicyHead(p)} (ppo_epochs ${p.numIterations}, or several mini-batches per step).`,
  'steps.on-policy': () =>
    'On-policy: every micro-step trains on completions generated by the policy it updates (the ratio is 1 at every token).',
  'steps.never-applied.flow-grpo': (p: NeverAppliedParams) =>
    `Never applied: the last ${p.microSteps} micro-step(s) accumulate gradients but the run ends before gradient_accumulation_steps ` +
    `${p.ga} is reached, so the optimizer never steps on them (accelerate's counter carries across epochs).`,
  'steps.never-applied.dance-grpo': (p: NeverAppliedParams) =>
    `Never applied: the last ${p.microSteps} sample(s) of a training step (fewer than gradient_accumulation_steps ${p.ga}) ` +
    "accumulate gradients that the next train_one_step's optimizer.zero_grad() discards, so the optimizer never steps on them.",
  /** A micro-batch's normaliser (the page's tooltip on each block). */
  'steps.normaliser': (p: NormaliserTerms) => normaliserText(p),
  /** The code a framework version was read from (the page's line above the figure). */
  'steps.pinned': (p: { name: FrameworkName; pinnedTo: string }) => p.pinnedTo,
  'steps.note.framework': (p: { name: FrameworkName; pinnedTo: string; checkedBy: string }) =>
    `Framework: ${p.name}, pinned to ${p.pinnedTo}. Checked by: ${p.checkedBy}.`,
  'steps.note.lengths': (p: LengthsSource) => `Lengths: ${lengthsText(p)}.`,
  'steps.note.shuffle.trl': () =>
    'TRL shuffles each rank’s generation batch (shuffle_sequence_dict: torch.randperm on the global generator, whose state depends on the ' +
    'model and the sampling) before cutting it into micro-batches; that draw is not reproducible from the seed, so rows keep the block’s order. ' +
    'Only bnpo’s weights depend on it.',
  'steps.note.shuffle.flow-grpo': () =>
    'flow_grpo reshuffles each rank’s epoch of samples per inner epoch (torch.randperm on the device generator); rows keep the block’s order.',
  'steps.note.shuffle.dance-grpo': () =>
    'DanceGRPO trains each rank’s samples in order, one per micro-step (train_one_step shuffles only the timesteps of each sample).',
  'steps.note.shuffle.verl': () => 'verl splits each rank’s block in order (update_policy: data.split, no shuffle).',
};
