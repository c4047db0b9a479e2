// What a training run is configured by, its defaults (the `npm run train` demo), the presets,
// and the checks that turn a bad setting into one ConfigError line.
import { DEFAULT_DIMS, SEED_DIMS, type ControllerDims } from '../core/env/controller.ts';
import { BANK_SIZE, REWARD_MODES, type RewardMode } from '../core/env/task.ts';
import { BUDGET, overBudgetAmounts, trainStepEstimate } from '../core/budget.ts';
import { ConfigError } from '../core/errors.ts';
import { schemes as flowGrpoSchemes } from '../core/frameworks/flow-grpo/advantages.ts';
import { flowGrpo } from '../core/frameworks/flow-grpo/sampler.ts';
import { configError, fact, type FusedGap, say } from '../core/messages/index.ts';
import { centresEachGroup, isSandboxScheme, TRAIN_SCHEMES, type TrainScheme } from '../core/grpo/schemes.ts';
import type { LayoutConfig, SamplerName } from '../core/layout/types.ts';
import { readsSetting, samplerNames, validateConfig } from '../core/samplers/index.ts';
import { LOSS_KINDS, type LossKind } from '../core/grpo/loss.ts';
import { POLICIES, type FilterMetric, type Policy } from '../core/dynamic/types.ts';
import type { Layout } from '../core/layout/types.ts';
import { buildLayout } from '../core/samplers/index.ts';
import { FRAMEWORK_NAMES, FRAMEWORKS, type FrameworkName } from '../core/steps/index.ts';
import { type FrameworkHome, TRAINED_HOMES } from '../core/frameworks/index.ts';
import { homeTokenWeight, trainableHome } from './home-normaliser.ts';
import { FRAMEWORK_NAMES as ASYNC_FRAMEWORKS, ruleDef } from '../core/async/index.ts';
import { ASYNC_RULE_KEYS, ASYNC_WORKLOAD_KEYS, asyncKeyApplies, asyncRuleValuesOf, asyncWorkloadOf, ruleOwners } from './async-settings.ts';

/** The simulation's keys a run may give (async-settings.ts). */
const ASYNC_KEYS: readonly string[] = [...ASYNC_WORKLOAD_KEYS, ...ASYNC_RULE_KEYS];

export type BackendChoice = 'auto' | 'webgpu' | 'cpu';
export const BACKENDS: readonly BackendChoice[] = ['auto', 'webgpu', 'cpu'];
export { LOSS_KINDS };

export interface TrainConfig {
  /** W: simulated ranks (on min(W, cores) worker threads by default). */
  ranks: number;
  /** Samples (configurations) per rank per step. */
  batch: number;
  /** Configurations per prompt (group size, num_generations). */
  k: number;
  /** Which framework's sampler gives each rank its prompt ids. */
  sampler: SamplerName;
  advantage: TrainScheme;
  /** The loss: one of the loss op's (LOSS_KINDS), or a normaliser of the framework version (its `losses`, e.g. verl's token-mean). */
  loss: string;
  epsilonLow: number;
  epsilonHigh: number;
  /** KL coefficient against the initial policy (TRL's beta; 0 = no reference model). */
  beta: number;
  lr: number;
  steps: number;
  reward: RewardMode;
  seed: number;
  backend: BackendChoice;
  dims: ControllerDims;
  /** Prompts in the bank (the sampler's dataset size). */
  bankSize: number;
  /** Global gradient-norm clip (≤ 0: none). */
  maxGradNorm: number;
  /** Compare a checksum of every rank's parameters every this many steps. */
  checksumEvery: number;
  /** Dynamic sampling's shortage policy (src/core/dynamic), or null: train on every batch as drawn. */
  dynamicSampling: Policy | null;
  /** Resamples after the original batch (ms-swift's max_resample_times; verl's max_num_gen_batches − 1). */
  maxResampleTimes: number;
  /** What decides that a group is flat: its rewards, or its correctness bits (sparse reward). */
  filterMetric: FilterMetric;
  /** Micro-steps whose gradients add up before each optimizer step (gradient_accumulation_steps). */
  gradientAccumulationSteps: number;
  /** Optimisation passes over each generation batch (TRL's num_iterations): later passes train on an older policy's samples. */
  numIterations: number;
  /** TRL's steps_per_generation with --sampler trl (micro-batches per generation batch); 0: = gradientAccumulationSteps, TRL's default. */
  stepsPerGeneration: number;
  /** The framework version (src/core/steps) whose micro-batching and loss normaliser the micro-steps apply. */
  framework: string;
  /** `train --async`: the framework whose staleness rule (src/core/async) decides which version generated each row; null: synchronous. */
  async: string | null;
  /** The rule's bound (the async command's --max-staleness); null: the framework's shipped default. */
  maxStaleness: number | null;
  /**
   * The simulation's other settings as given, by the async command's flag (async-settings.ts): its workload keys
   * (--gen-workers, --step-time, …) and the rule's own keys (--sampler-policy, …); absent: the async command's default.
   */
  asyncSettings: Record<string, string>;
}

export const FILTER_METRICS: readonly FilterMetric[] = ['reward', 'accuracy'];

/** flow_grpo's sampler and its shipped advantages (its home's): the demo's and seed-000's. */
const FLOW_GRPO = { sampler: flowGrpo.name, advantage: flowGrpoSchemes.find((s) => s.shippedDefault)!.scheme };

/** The demo `npm run train` runs: 8 ranks, flow_grpo's sampler and advantages, TRL's DAPO loss. */
export const DEFAULT_TRAIN: TrainConfig = {
  ranks: 8,
  batch: 32,
  k: 8,
  ...FLOW_GRPO,
  loss: 'dapo',
  epsilonLow: 0.2,
  epsilonHigh: 0.2,
  beta: 0,
  lr: 0.01,
  steps: 120,
  reward: 'dense',
  seed: 0,
  backend: 'cpu',
  dims: DEFAULT_DIMS,
  bankSize: BANK_SIZE,
  maxGradNorm: 1,
  checksumEvery: 10,
  dynamicSampling: null,
  maxResampleTimes: 3,
  filterMetric: 'reward',
  gradientAccumulationSteps: 1,
  numIterations: 1,
  stepsPerGeneration: 0,
  framework: 'trl-1.13.0',
  async: null,
  maxStaleness: null,
  asyncSettings: {},
};

export interface TrainPreset {
  description: string;
  config: Partial<TrainConfig>;
}

/** The scenarios of docs/scenarios.md this command can train. */
export const TRAIN_PRESETS: Record<string, TrainPreset> = {
  'seed-000': {
    description: "flow_grpo's layout: 8 ranks × 2 samples, k=4 (4 prompts per step), flow_grpo's per-prompt advantages",
    config: { ranks: 8, batch: 2, k: 4, ...FLOW_GRPO, steps: 300, lr: 0.01 },
  },
  'seed-003': {
    description: 'the seed controller: dModel 2048, hidden 256, one input × 5 configurations per step on one rank, pairwise loss',
    config: {
      ranks: 1,
      batch: 5,
      k: 5,
      sampler: 'contiguous',
      advantage: 'trl-group',
      loss: 'pairwise',
      dims: SEED_DIMS,
      steps: 200,
      lr: 1e-3,
    },
  },
};

/** TRL's steps_per_generation for a run: the given value, else gradient_accumulation_steps (TRL's default); 1 for the other samplers. */
export function stepsPerGenerationOf(c: TrainConfig): number {
  if (!readsSetting(c.sampler, 'stepsPerGeneration')) return 1;
  return c.stepsPerGeneration || c.gradientAccumulationSteps;
}

/** The sampler's layout configuration for a run: the bank is the dataset, epochs enough for every step. */
export function layoutConfigOf(c: TrainConfig, epochs = 1): LayoutConfig {
  return {
    sampler: c.sampler,
    ranks: c.ranks,
    batch: c.batch,
    k: c.k,
    batchesPerEpoch: 1,
    epochs,
    datasetSize: c.bankSize,
    seed: c.seed,
    stepsPerGeneration: stepsPerGenerationOf(c),
    numIterations: c.numIterations,
    gradientAccumulationSteps: c.gradientAccumulationSteps,
    // The sandbox's trainer reads the sampler's batches itself, with no DataLoader in between (flow_grpo's idealised loop).
    numWorkers: 0,
    prefetchFactor: 2,
    acceleratePrepare: 0,
  };
}

/**
 * The sampler's layout with at least `steps` steps (whole epochs). Epoch e's batches do not
 * depend on how many epochs are built, so a longer layout extends a shorter one.
 */
export function layoutCovering(c: TrainConfig, steps: number): Layout {
  const perEpoch = buildLayout(layoutConfigOf(c, 1)).steps.length;
  const epochs = Math.max(1, Math.ceil(steps / perEpoch));
  try {
    return buildLayout(layoutConfigOf(c, epochs));
  } catch (err) {
    if (err instanceof ConfigError) {
      // The layout's own hint names layout flags (epochs, dataset-size) that train does not have;
      // name the largest --steps whose layout the validator accepts instead (a bounded bisection).
      let lo = 0;
      let hi = epochs;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (validateConfig(layoutConfigOf(c, mid))) hi = mid;
        else lo = mid;
      }
      const reason = err.message.replace(/; try [^;]*$/, '');
      throw new ConfigError(
        lo > 0
          ? `--steps ${c.steps} needs ${epochs} epochs of the ${c.sampler} sampler's layout: ${reason}; use --steps ${lo * perEpoch} or fewer`
          : `--steps ${c.steps} needs ${epochs} epochs of the ${c.sampler} sampler's layout: ${err.message}`,
      );
    }
    throw err;
  }
}

/** How a parsed JSON value reads in a message: its kind, never the value itself (it may be huge). */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The fields whose default is null, and what they hold otherwise. */
const NULLABLE: Record<string, 'string' | 'number'> = { dynamicSampling: 'string', async: 'string', maxStaleness: 'number' };

const whole = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;

/**
 * A run's config.json (parsed JSON) as a TrainConfig: fields an older run lacks take the defaults,
 * anything else is refused with one ConfigError line (the callers name the file). Spreading the JSON
 * over the defaults unchecked ran the default run for `[]` or `null`, and `"dims": null` crashed.
 */
export function trainConfigFromJson(json: unknown): TrainConfig {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ConfigError(`it holds ${jsonKind(json)}, not an object`);
  const o = json as Record<string, unknown>;
  for (const [key, value] of Object.entries(o)) {
    if (!Object.hasOwn(DEFAULT_TRAIN, key))
      throw new ConfigError(
        `'${key.length > 40 ? `${key.slice(0, 40)}…` : key}' is not a setting this grpo-sandbox knows (a run of another version?)`,
      );
    const want = DEFAULT_TRAIN[key as keyof TrainConfig];
    const nullable = NULLABLE[key];
    const ok = nullable ? value === null || typeof value === nullable : typeof value === typeof want && value !== null;
    if (!ok) throw new ConfigError(`'${key}' must be ${nullable ? `a ${nullable} or null` : jsonKind(want)}, got ${jsonKind(value)}`);
  }
  if (o.dims !== undefined) {
    const d = o.dims as Record<string, unknown>;
    const keys = Object.keys(d);
    if (Array.isArray(d) || keys.length !== 2 || !whole(d.dModel, 1, 1 << 16) || !whole(d.hidden, 1, 1 << 16))
      throw new ConfigError("'dims' must be {dModel, hidden}, each a whole number from 1 to 65536");
  }
  if (o.steps !== undefined && !whole(o.steps, 1, 1_000_000))
    throw new ConfigError(`'steps' must be a whole number from 1 to 1000000, got ${o.steps}`);
  if (o.checksumEvery !== undefined && !whole(o.checksumEvery, 1, Number.MAX_SAFE_INTEGER))
    throw new ConfigError(`'checksumEvery' must be a whole number ≥ 1, got ${o.checksumEvery}`);
  if (o.asyncSettings !== undefined) {
    const a = o.asyncSettings as Record<string, unknown>;
    const bad = Object.entries(a).find(([key, v]) => !ASYNC_KEYS.includes(key) || typeof v !== 'string');
    if (Array.isArray(a) || bad)
      throw new ConfigError(`'asyncSettings' must map the simulation's settings (${ASYNC_KEYS.join(', ')}) to their text`);
  }
  if (o.maxGradNorm !== undefined && !Number.isFinite(o.maxGradNorm))
    throw new ConfigError(`'maxGradNorm' must be a finite number, got ${o.maxGradNorm}`);
  return { ...DEFAULT_TRAIN, ...(o as Partial<TrainConfig>) };
}

const positive = (v: number) => Number.isFinite(v) && v > 0;

/** Checks a configuration; throws a ConfigError naming the flag and a valid value. */
export function checkTrainConfig(c: TrainConfig): void {
  if (!REWARD_MODES.includes(c.reward))
    throw configError([fact('train.either', { key: 'reward', choices: [...REWARD_MODES], got: String(c.reward) })]);
  if (!BACKENDS.includes(c.backend))
    throw configError([fact('train.one-of', { key: 'backend', choices: [...BACKENDS], got: String(c.backend) })]);
  if (!TRAIN_LOSSES.includes(c.loss))
    throw configError([fact('train.one-of', { key: 'loss', choices: [...TRAIN_LOSSES], got: String(c.loss) })]);
  if (!TRAIN_SCHEMES.includes(c.advantage))
    throw configError([fact('train.one-of', { key: 'advantage', choices: [...TRAIN_SCHEMES], got: String(c.advantage) })]);
  // One rank on the device computes the advantages in its kernel, from the sandbox's schemes' group rules.
  if (c.backend === 'webgpu' && c.ranks === 1 && !isSandboxScheme(c.advantage))
    throw new ConfigError(
      `--advantage ${c.advantage} is a framework home's scheme, which the device's kernel cannot compute: use --backend cpu or --ranks 2 or more`,
    );
  if (!samplerNames.includes(c.sampler))
    throw configError([fact('train.one-of', { key: 'sampler', choices: [...samplerNames], got: String(c.sampler) })]);
  if (c.k < 2) throw configError([fact('train.k-at-least-2', { k: c.k })]);
  if (!(c.epsilonLow >= 0 && c.epsilonLow < 1)) throw configError([fact('train.epsilon-low', { got: c.epsilonLow })]);
  if (!(c.epsilonHigh >= 0 && Number.isFinite(c.epsilonHigh)))
    throw configError([fact('train.non-negative', { key: 'epsilon-high', got: c.epsilonHigh })]);
  if (!(c.beta >= 0 && Number.isFinite(c.beta))) throw configError([fact('train.non-negative', { key: 'beta', got: c.beta })]);
  if (!positive(c.lr) || c.lr > 1) throw configError([fact('train.lr', { got: c.lr })]);
  if (c.advantage === 'dance' && c.batch % c.k !== 0) throw configError([fact('train.dance-batch', { batch: c.batch, k: c.k })]);
  checkDynamicSampling(c);
  checkMicroSteps(c);
  checkAsync(c);
  const err = validateConfig(layoutConfigOf(c));
  // The page says the layout's clauses; the CLI's English adds which of its flags set the layout.
  if (err) throw new ConfigError(`${err.message} (flags --ranks --batch --k --sampler)`, [], err.clauses);
}

/**
 * The framework versions train can apply: every step spec whose normaliser weighs completion tokens (the diffusion
 * trainers' weigh whole samples over timesteps, which the controller does not have).
 */
export const MICRO_FRAMEWORKS: readonly string[] = FRAMEWORK_NAMES.filter((n) => FRAMEWORKS[n]!.unit === 'token');

/**
 * The versions whose loss types are the loss op's own (grpo, bnpo, dr_grpo, dapo, TRL 1.x's and ms-swift's): a plain
 * step with one micro-batch per rank is their optimizer step. The others' normalisers always run through the micro-steps.
 */
const OP_FRAMEWORKS: readonly string[] = MICRO_FRAMEWORKS.filter((n) =>
  LOSS_KINDS.every((l) => l === 'pairwise' || FRAMEWORKS[n]!.losses.includes(l)),
);

/** The framework homes train applies (those with a trainer model): their normaliser in plain steps (home-normaliser.ts). */
export const HOME_FRAMEWORKS: readonly string[] = TRAINED_HOMES.map((h) => h.name);

/** Every `--framework` value: the step specs' token-weighing versions, then the framework homes. */
export const TRAIN_FRAMEWORKS: readonly string[] = [...MICRO_FRAMEWORKS, ...HOME_FRAMEWORKS];

/** The loss modes `framework` trains in train (a home's per-sequence-ratio modes left out: the loss op's ratio is per token). */
export function frameworkLosses(framework: string): readonly string[] {
  if (MICRO_FRAMEWORKS.includes(framework)) return FRAMEWORKS[framework as FrameworkName]!.losses;
  const trainer = trainableHome(framework)?.trainer;
  return trainer ? trainer.losses.filter((l) => !trainer.sequenceRatio.includes(l)) : [];
}

/** The loss `--loss` left out means under `framework`: its shipped default (a step spec's defaultLoss, a home trainer's first). */
export function frameworkDefaultLoss(framework: string): string | undefined {
  return MICRO_FRAMEWORKS.includes(framework) ? FRAMEWORKS[framework as FrameworkName]!.defaultLoss : frameworkLosses(framework)[0];
}

/** Every value `--loss` takes: the loss op's kinds and each applicable framework's normalisers. */
export const TRAIN_LOSSES: readonly string[] = [
  ...new Set([
    ...LOSS_KINDS,
    ...TRAIN_FRAMEWORKS.flatMap((f) => [...frameworkLosses(f), ...(trainableHome(f)?.trainer?.sequenceRatio ?? [])]),
  ]),
];

/**
 * The loss op's type for a run: its loss where the op has it; a framework's own normaliser (verl's token-mean, …) runs
 * the op's dapo, whose per-token weight the micro-steps then replace with the framework's (step.ts's rescaleToNormaliser).
 */
export function lossOpType(c: TrainConfig): LossKind {
  return (LOSS_KINDS as readonly string[]).includes(c.loss) ? (c.loss as LossKind) : 'dapo';
}

/**
 * Whether a step spec's own normaliser decides the update (not the loss op's): then every step is a micro-step plan. A
 * framework home's normaliser applies to plain steps (one weight per token: home-normaliser.ts).
 */
const framedByNormaliser = (c: TrainConfig): boolean =>
  c.loss !== 'pairwise' && MICRO_FRAMEWORKS.includes(c.framework) && !OP_FRAMEWORKS.includes(c.framework);

/**
 * True when a run trains through the micro-step model (src/train/micro-steps.ts): gradients
 * accumulated over several micro-steps, several passes per generation, several micro-batches per
 * generation, or a step spec whose normaliser is not the loss op's (verl's). Otherwise each step is one
 * generation and one update (src/train/step.ts), which the model says is the same thing.
 */
export function usesMicroSteps(c: TrainConfig): boolean {
  return c.gradientAccumulationSteps > 1 || c.numIterations > 1 || stepsPerGenerationOf(c) > 1 || framedByNormaliser(c);
}

/**
 * True when some micro-steps train on samples an older policy generated, so the ratio can leave 1:
 * several passes per generation, or a generation longer than an accumulation window (TRL's
 * steps_per_generation > gradient_accumulation_steps).
 */
export function offPolicyPossible(c: TrainConfig): boolean {
  return c.numIterations > 1 || stepsPerGenerationOf(c) > c.gradientAccumulationSteps;
}

/**
 * Whether the loss's value is ~0 by construction (float rounding): a GRPO-family loss with no KL term,
 * on-policy (every pass sees the policy that generated, so the ratio is 1), is minus a mean of
 * advantages that are centred within each group. Its gradient, Σ A·∇log π, is what trains. Not for
 * verl's schemes: a prompt alone in its group keeps its reward as its advantage, which nothing centres.
 */
export function lossNearZeroByConstruction(c: TrainConfig): boolean {
  return c.loss !== 'pairwise' && c.beta === 0 && !offPolicyPossible(c) && centresEachGroup(c.advantage);
}

/** The settings of the micro-step model, and what it cannot train. */
function checkMicroSteps(c: TrainConfig): void {
  for (const [key, v, min] of [
    ['gradient-accumulation-steps', c.gradientAccumulationSteps, 1],
    ['num-iterations', c.numIterations, 1],
    ['steps-per-generation', c.stepsPerGeneration, 0],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < min) throw configError([fact('train.whole-at-least', { key, min, got: v })]);
  }
  if (!TRAIN_FRAMEWORKS.includes(c.framework))
    throw configError([fact('train.framework', { frameworks: [...TRAIN_FRAMEWORKS], got: String(c.framework) })]);
  const losses = frameworkLosses(c.framework);
  if (trainableHome(c.framework)?.trainer?.sequenceRatio.includes(c.loss))
    throw configError([fact('train.sequence-ratio', { framework: c.framework, loss: c.loss, losses: [...losses] })]);
  if (c.loss !== 'pairwise' && !losses.includes(c.loss))
    throw configError([fact('train.framework-loss', { framework: c.framework, losses: [...losses], got: c.loss })]);
  const home = trainableHome(c.framework);
  if (home) checkHome(c, home);
  if (c.stepsPerGeneration > 0 && !readsSetting(c.sampler, 'stepsPerGeneration'))
    throw configError([fact('train.steps-per-generation-trl', { sampler: c.sampler })]);
  if (!usesMicroSteps(c)) return;
  const key =
    c.gradientAccumulationSteps > 1
      ? 'gradient-accumulation-steps'
      : c.numIterations > 1
        ? 'num-iterations'
        : stepsPerGenerationOf(c) > 1
          ? 'steps-per-generation'
          : 'framework';
  if (c.loss === 'pairwise') throw configError([fact('train.micro-pairwise', { key })]);
  if (c.dynamicSampling !== null) throw configError([fact('train.micro-dynamic', { key })]);
}

/**
 * A framework home's normaliser applies to plain steps (its own settings cut its optimizer steps, which train's
 * accumulation flags would contradict), and the home must take the run's global batch as one optimizer step.
 */
function checkHome(c: TrainConfig, home: FrameworkHome): void {
  const key = c.gradientAccumulationSteps > 1 ? 'gradient-accumulation-steps' : c.numIterations > 1 ? 'num-iterations' : null;
  const spg = c.stepsPerGeneration > 1 ? 'steps-per-generation' : null;
  if (key ?? spg) throw configError([fact('train.home-plain', { framework: home.name, key: (key ?? spg)! })]);
  if (c.loss === 'pairwise') return;
  try {
    homeTokenWeight(home, c.loss, c.ranks * c.batch, c.k);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const losses = frameworkLosses(home.name).filter((l) => l !== c.loss);
    throw configError([fact('train.home-refuses', { framework: home.name, samples: c.ranks * c.batch, k: c.k, why: err.message, losses })]);
  }
}

/**
 * What `train --async` models: plain steps on the CPU, whole groups per step; the bound, the workload and the rule's own
 * settings read as the async command reads them, each refused where the framework does not read it.
 */
function checkAsync(c: TrainConfig): void {
  const given = Object.keys(c.asyncSettings);
  if (c.async === null) {
    if (c.maxStaleness !== null) throw configError([fact('train.async-bound-alone')]);
    if (given.length > 0) throw configError([fact('train.async-setting-alone', { key: given[0]! })]);
    return;
  }
  const framework = c.async;
  const def = ruleDef(framework);
  if (!def) throw configError([fact('train.one-of', { key: 'async', choices: [...ASYNC_FRAMEWORKS, 'off'], got: framework.slice(0, 40) })]);
  const refuse = (why: 'backend' | 'micro-steps' | 'dynamic-sampling' | 'no-bound') =>
    configError([fact('train.async-not-modelled', { framework, why })]);
  if (c.backend !== 'cpu') throw refuse('backend');
  if (usesMicroSteps(c)) throw refuse('micro-steps');
  if (c.dynamicSampling !== null) throw refuse('dynamic-sampling');
  if ((c.ranks * c.batch) % c.k !== 0) throw configError([fact('train.async-groups', { framework, samples: c.ranks * c.batch, k: c.k })]);
  if (c.maxStaleness !== null && !def.keys.some((k) => k.flag === 'max-staleness')) throw refuse('no-bound');
  const other = given.find((key) => !asyncKeyApplies(framework, key));
  if (other !== undefined)
    throw configError([
      fact('train.async-not-its-setting', {
        framework,
        key: other,
        owners: ruleOwners(other),
        reads: def.keys.map((k) => k.flag),
      }),
    ]);
  const w = asyncWorkloadOf(c);
  // Building the rule refuses what its settings cannot run (NeMo RL's custom sampler: outside code).
  def.build(asyncRuleValuesOf(def, c), w.trainBatchSize, w.k, w.genWorkers);
}

/** The combinations dynamic sampling cannot train, each named with what to change. */
function checkDynamicSampling(c: TrainConfig): void {
  if (!FILTER_METRICS.includes(c.filterMetric))
    throw configError([fact('train.either', { key: 'filter-metric', choices: [...FILTER_METRICS], got: String(c.filterMetric) })]);
  if (!Number.isInteger(c.maxResampleTimes) || c.maxResampleTimes < 0)
    throw configError([fact('train.whole-at-least', { key: 'max-resample-times', min: 0, got: c.maxResampleTimes })]);
  const p = c.dynamicSampling;
  if (p === null) return;
  if (!POLICIES.includes(p)) throw configError([fact('train.one-of', { key: 'dynamic-sampling', choices: [...POLICIES], got: String(p) })]);
  if (p === 'stream' && c.batch % c.k !== 0) throw configError([fact('train.stream-batch', { batch: c.batch, k: c.k })]);
  if (p === 'stream') {
    // OpenRLHF replaces a dropped prompt on the rank that holds it: every group must live on one rank.
    const err = validateConfig(layoutConfigOf(c));
    const first = err ? null : buildLayout(layoutConfigOf(c)).steps[0];
    const home = new Map<number, number>();
    first?.ranks.forEach((ids, rank) => {
      for (const id of ids) {
        const at = home.get(id);
        if (at !== undefined && at !== rank) throw configError([fact('train.stream-split', { sampler: c.sampler, prompt: id, at, rank })]);
        home.set(id, rank);
      }
    });
  }
  // Both need every prompt's k samples once, on fixed per-rank runs; dynamic sampling regroups the batch.
  if (c.loss === 'pairwise') throw configError([fact('train.dynamic-pairwise')]);
  if (c.advantage === 'dance' && p === 'rebalance') throw configError([fact('train.dance-rebalance')]);
}

/**
 * The budget before work for a training run (the CLI and the page's dashboard both call it): one
 * step's CPU time (a run reports every step and stops cleanly, so only a step is budgeted) and the
 * workers' memory; on WebGPU only the memory. Null when within budget.
 */
export function trainBudgetError(c: TrainConfig): ConfigError | null {
  // Dynamic sampling draws up to 1 + resamples batches; an accumulated update trains on GA micro-batches
  // of --batch, and its first may sample a generation of steps_per_generation of them.
  const draws = c.dynamicSampling ? 1 + c.maxResampleTimes : Math.max(c.gradientAccumulationSteps, stepsPerGenerationOf(c));
  const over = overBudgetAmounts(
    trainStepEstimate({ ranks: c.ranks, batch: c.batch, dModel: c.dims.dModel, hidden: c.dims.hidden, draws, k: c.k }),
    c.backend === 'webgpu' ? { ...BUDGET, ms: Number.POSITIVE_INFINITY } : BUDGET,
  );
  if (!over) return null;
  const { dModel, hidden } = c.dims;
  const dynamic = c.dynamicSampling !== null;
  return configError([
    fact('train.over-budget', { samples: c.ranks * c.batch, dynamic, draws, dModel, hidden, ...over, webgpu: c.backend === 'webgpu' }),
  ]);
}

/**
 * What the fused WebGPU step (webgpu-step.ts) does not run in this configuration, as the flag and
 * why; null when it runs it (`--backend webgpu` then runs every op as its own submission instead). With the step's layout, the pairwise loss is checked
 * step by step: the fused loss ranks contiguous groups of k rows on one rank.
 */
export function fusedStepUnsupported(c: TrainConfig, layout?: Layout): string | null {
  const gap = fusedStepGap(c, layout);
  return gap ? say(gap) : null;
}

/** fusedStepUnsupported as a fact (the run's notice carries it, so the page says it in its language). */
export function fusedStepGap(c: TrainConfig, layout?: Layout): FusedGap | null {
  if (c.dynamicSampling) return { id: 'fused.dynamic', params: {} };
  if (usesMicroSteps(c)) return { id: 'fused.micro-steps', params: {} };
  if (c.loss !== 'pairwise' && trainableHome(c.framework)) return { id: 'fused.home-normaliser', params: { framework: c.framework } };
  if (c.loss !== 'pairwise') return null;
  if (c.ranks > 1) return { id: 'fused.pairwise-ranks', params: {} };
  const bad = layout?.steps.findIndex((s) => !contiguousGroups(s.ranks[0]!, c.k)) ?? -1;
  return bad >= 0 ? { id: 'fused.pairwise-sampler', params: { sampler: c.sampler, step: bad, k: c.k } } : null;
}

/** Whether `ids` is blocks of k equal ids, each prompt in one block only (the pairwise loss's groups, in order). */
export function contiguousGroups(ids: readonly number[], k: number): boolean {
  if (ids.length % k !== 0) return false;
  const seen = new Set<number>();
  for (let at = 0; at < ids.length; at += k) {
    const id = ids[at]!;
    if (seen.has(id)) return false;
    seen.add(id);
    for (let j = 1; j < k; j++) if (ids[at + j] !== id) return false;
  }
  return true;
}
