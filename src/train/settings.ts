// The training run's settings, each described once: `grpo-sandbox train`'s flags and `--help`
// (src/cli/train.ts), the <grpo-train> dashboard's attributes and form, and the URL keys of its
// link all come from TRAIN_SETTINGS, and both read them through trainConfigFrom. Adding a
// setting is one row here plus its field in TrainConfig (src/train/config.ts); the rows of
// `--async`'s simulation are generated from the async command's tables (a workload key or a rule
// key added there is a train setting too), and read by its readers (async-settings.ts).
import { FRAMEWORK_NAMES as ASYNC_FRAMEWORKS, RULES } from '../core/async/index.ts';
import { WORKLOAD_DEFAULTS, WORKLOAD_KEY_SPECS } from '../core/async/workload-settings.ts';
import { POLICIES, type Policy } from '../core/dynamic/types.ts';
import { REWARD_MODES } from '../core/env/task.ts';
import { configError, fact } from '../core/messages/index.ts';
import { ADVANTAGE_SCHEMES, TRAIN_SCHEMES } from '../core/grpo/schemes.ts';
import { samplerNames } from '../core/samplers/index.ts';
import { quote, readSettings, type Setting, type SettingGetter } from '../core/setting.ts';
import {
  BACKENDS,
  checkTrainConfig,
  DEFAULT_TRAIN,
  FILTER_METRICS,
  LOSS_KINDS,
  frameworkDefaultLoss,
  frameworkLosses,
  TRAIN_FRAMEWORKS,
  TRAIN_LOSSES,
  TRAIN_PRESETS,
  trainBudgetError,
  type TrainConfig,
} from './config.ts';
import { ASYNC_RULE_KEYS, ASYNC_WORKLOAD_KEYS, ruleOwners } from './async-settings.ts';

/** The word for "no dynamic sampling" (the field's null). */
export const OFF = 'off';

/** A TrainConfig as the settings read it: dynamic sampling by its word (off for none). */
type TrainValues = Omit<TrainConfig, 'dynamicSampling' | 'async'> & { dynamicSampling: Policy | typeof OFF; async: string };

const d = DEFAULT_TRAIN;

/** The async command's workload defaults by key (the train-tokens-per-second rate has none: --step-time is the default). */
const WORKLOAD_DEFAULT_TEXT: Record<string, string> = {
  'gen-workers': String(WORKLOAD_DEFAULTS.genWorkers),
  concurrency: String(WORKLOAD_DEFAULTS.concurrency),
  'tokens-per-second': String(WORKLOAD_DEFAULTS.tokensPerSecond),
  'step-time': String(WORKLOAD_DEFAULTS.stepTime),
  'length-distribution': WORKLOAD_DEFAULTS.lengthDistribution,
};

/**
 * The simulation's rows (async-settings.ts), generated from the async command's tables: its workload keys, then every
 * framework's own rule keys. Their text is kept as given (TrainConfig.asyncSettings) and read by the async command's
 * readers in checkAsync; the kind and range here are what --help, the form and the parity test know of them.
 */
const ASYNC_ROWS: readonly Setting<TrainValues>[] = [
  ...ASYNC_WORKLOAD_KEYS.map((key): Setting<TrainValues> => {
    const spec = WORKLOAD_KEY_SPECS[key as keyof typeof WORKLOAD_KEY_SPECS];
    const about = `with --async: the async command's --${key}, ${spec.about} (default ${WORKLOAD_DEFAULT_TEXT[key] ?? 'none: --step-time'})`;
    if (spec.kind === 'name') return { field: 'asyncSettings', key, metavar: 'NAME', kind: 'choice', choices: spec.choices, hint: about };
    if (spec.kind === 'int') return { field: 'asyncSettings', key, metavar: 'N', kind: 'int', min: spec.min, max: spec.max, hint: about };
    return { field: 'asyncSettings', key, metavar: 'X', kind: 'number', min: Number.MIN_VALUE, max: spec.max, hint: about };
  }),
  ...ASYNC_RULE_KEYS.map((flag): Setting<TrainValues> => {
    const owners = ruleOwners(flag);
    const k = RULES.find((r) => r.framework === owners[0])!.keys.find((x) => x.flag === flag)!;
    const hint = `with --async ${owners.join('|')}: ${k.key} (default ${k.default ?? 'derived'}), ${k.about}`;
    const row = { field: 'asyncSettings', key: flag, hint } as const;
    if (k.kind === 'bool') return { ...row, metavar: 'B', kind: 'choice', choices: ['true', 'false'] };
    if (k.kind === 'choice') return { ...row, metavar: 'NAME', kind: 'choice', choices: k.choices! };
    return { ...row, metavar: k.kind === 'int' ? 'N' : 'X', kind: k.kind === 'int' ? 'int' : 'number', min: k.min, max: 1_000_000 };
  }),
];

/** Whether a row is one of the simulation's (its text kept as given, read by the async command's readers). */
export const isAsyncRow = (key: string): boolean => ASYNC_ROWS.some((s) => s.key === key);

/** Every setting of a run, in the order the CLI's `--help` lists them and the form shows them. */
export const TRAIN_SETTINGS: readonly Setting<TrainValues>[] = [
  { field: 'ranks', key: 'ranks', metavar: 'W', kind: 'int', min: 1, max: 64, hint: `simulated ranks (default ${d.ranks})` },
  {
    field: 'batch',
    key: 'batch',
    metavar: 'B',
    kind: 'int',
    min: 1,
    max: 1 << 16,
    hint: `configurations per rank per step (default ${d.batch})`,
  },
  {
    field: 'k',
    key: 'k',
    metavar: 'K',
    kind: 'int',
    min: 2,
    max: 1024,
    hint: `configurations per prompt, the group size (default ${d.k})`,
  },
  {
    field: 'sampler',
    key: 'sampler',
    metavar: 'S',
    kind: 'choice',
    choices: samplerNames,
    hint: `${samplerNames.join('|')} (default ${d.sampler})`,
  },
  {
    field: 'advantage',
    key: 'advantage',
    metavar: 'A',
    kind: 'choice',
    choices: TRAIN_SCHEMES,
    hint: `${ADVANTAGE_SCHEMES.join('|')}, or a framework home's scheme (grpo-sandbox advantages --help) (default ${d.advantage})`,
  },
  {
    field: 'loss',
    key: 'loss',
    metavar: 'L',
    kind: 'choice',
    choices: TRAIN_LOSSES,
    hint:
      `${LOSS_KINDS.join('|')}, or a normaliser the --framework version trains ` +
      `(${TRAIN_LOSSES.filter((l) => !(LOSS_KINDS as readonly string[]).includes(l)).join('|')}) ` +
      `(default: the framework's own, ${d.loss} for ${d.framework})`,
  },
  { field: 'epsilonLow', key: 'epsilon-low', metavar: 'E', kind: 'number', hint: `clip range below 1 (default ${d.epsilonLow})` },
  { field: 'epsilonHigh', key: 'epsilon-high', metavar: 'E', kind: 'number', hint: 'clip range above 1 (default: --epsilon-low)' },
  {
    field: 'beta',
    key: 'beta',
    metavar: 'B',
    kind: 'number',
    hint: `KL coefficient against the initial policy (default ${d.beta}: no reference model)`,
  },
  { field: 'lr', key: 'lr', metavar: 'LR', kind: 'number', hint: `Adam learning rate (default ${d.lr})` },
  { field: 'steps', key: 'steps', metavar: 'N', kind: 'int', min: 1, max: 1_000_000, hint: `training steps (default ${d.steps})` },
  {
    field: 'reward',
    key: 'reward',
    metavar: 'M',
    kind: 'choice',
    choices: REWARD_MODES,
    hint: `dense (expected accuracy − penalty) | sparse (sampled 0/1 − penalty) (default ${d.reward})`,
  },
  {
    field: 'seed',
    key: 'seed',
    metavar: 'S',
    kind: 'int',
    min: 0,
    max: 2 ** 32 - 1,
    hint: `seed of the prompt bank, the initial weights, the sampler and every draw (default ${d.seed})`,
  },
  {
    field: 'backend',
    key: 'backend',
    metavar: 'X',
    kind: 'choice',
    choices: BACKENDS,
    hint: `cpu | webgpu | auto (WebGPU if a device is available, else the CPU with a notice) (default ${d.backend})`,
  },
  {
    field: 'dynamicSampling',
    key: 'dynamic-sampling',
    metavar: 'P',
    kind: 'choice',
    choices: [...POLICIES, OFF],
    hint:
      'keep only groups whose rewards differ, resampling together on every rank (the sampler’s next batches) while the pool is ' +
      `short; P says what a short pool does: ${POLICIES.join('|')}, or ${OFF} (default ${OFF})`,
  },
  {
    field: 'maxResampleTimes',
    key: 'max-resample-times',
    metavar: 'N',
    kind: 'int',
    min: 0,
    max: 1000,
    hint: `resamples per step before the policy decides (default ${d.maxResampleTimes}; verl's max_num_gen_batches = N + 1)`,
  },
  {
    field: 'filterMetric',
    key: 'filter-metric',
    metavar: 'M',
    kind: 'choice',
    choices: FILTER_METRICS,
    hint: `reward | accuracy (the sampled correctness bit): what makes a group flat (default ${d.filterMetric})`,
  },
  {
    field: 'gradientAccumulationSteps',
    key: 'gradient-accumulation-steps',
    metavar: 'N',
    kind: 'int',
    min: 1,
    max: 1024,
    hint:
      'micro-steps whose gradients add up before each optimizer step; a step of --steps is one optimizer step, cut and normalised as ' +
      `--framework does (default ${d.gradientAccumulationSteps})`,
  },
  {
    field: 'numIterations',
    key: 'num-iterations',
    metavar: 'N',
    kind: 'int',
    min: 1,
    max: 64,
    hint:
      "passes over each generation batch (TRL's num_iterations): passes after the first train on an older policy's samples, so the " +
      `ratio leaves 1 and the clip fraction can rise (default ${d.numIterations})`,
  },
  {
    field: 'stepsPerGeneration',
    key: 'steps-per-generation',
    metavar: 'N',
    kind: 'int',
    min: 0,
    max: 1024,
    hint:
      "TRL's steps_per_generation, with --sampler trl: each rank's block of a generation is N micro-batches of --batch; " +
      'default 0 takes the gradient accumulation steps, as TRL does',
  },
  {
    field: 'framework',
    key: 'framework',
    metavar: 'F',
    kind: 'choice',
    choices: TRAIN_FRAMEWORKS,
    hint:
      `the framework whose loss normaliser the steps apply (as \`grpo-sandbox steps --framework F\` models it): ${TRAIN_FRAMEWORKS.join('|')} ` +
      `(default ${d.framework})`,
  },
  {
    field: 'async',
    key: 'async',
    metavar: 'F',
    kind: 'choice',
    choices: [...ASYNC_FRAMEWORKS, OFF],
    hint:
      'train under F’s staleness rule: `grpo-sandbox async --framework F` (with the workload and rule settings below, the async ' +
      'command’s own) says which policy version generated each row a step trains on; each row is sampled with that version’s ' +
      'parameters, and the run ends with the same run at zero ' +
      `staleness beside it; ${ASYNC_FRAMEWORKS.join('|')} or ${OFF} (default ${OFF})`,
  },
  {
    field: 'maxStaleness',
    key: 'max-staleness',
    metavar: 'S',
    kind: 'number',
    min: 0,
    max: 1_000_000,
    hint: 'with --async: the rule’s bound, as `grpo-sandbox async --max-staleness` sets it (default: the framework’s shipped value)',
  },
  ...ASYNC_ROWS,
];

/** The rows read by the settings' own readers (the simulation's are read as text, then by the async command's). */
const OWN_ROWS = TRAIN_SETTINGS.filter((s) => s.field !== 'asyncSettings');

/** The settings that mean something only with dynamic sampling on. */
const DYNAMIC_ONLY = ['max-resample-times', 'filter-metric'];

/** The setting that means something only with --async (and is written out only when given, as the simulation's rows are). */
const ASYNC_ONLY = 'max-staleness';

/**
 * The run's configuration: defaults ← preset ← settings, then the cross-field rules, the checks of
 * checkTrainConfig and the step budget. `get` reads one key's text (`preset` or a row's key);
 * null or undefined: not given. Throws a ConfigError (one line, naming the flag) for a bad setting.
 */
export function trainConfigFrom(get: SettingGetter): TrainConfig {
  let c: TrainConfig = { ...DEFAULT_TRAIN };
  const preset = get('preset');
  if (preset !== null && preset !== undefined) {
    // An own property only: `--preset __proto__` (or constructor, toString) is just an unknown name.
    if (!Object.hasOwn(TRAIN_PRESETS, preset))
      throw configError([fact('train.unknown-preset', { got: quote(preset), presets: Object.keys(TRAIN_PRESETS) })]);
    c = { ...c, ...TRAIN_PRESETS[preset]!.config };
  }
  const v = readSettings(OWN_ROWS, get);
  const { dynamicSampling, async, ...rest } = v;
  Object.assign(c, rest);
  c.asyncSettings = {};
  for (const s of ASYNC_ROWS) {
    const text = get(s.key);
    if (text !== null && text !== undefined) c.asyncSettings[s.key] = text;
  }
  if (dynamicSampling !== undefined) c.dynamicSampling = dynamicSampling === OFF ? null : dynamicSampling;
  if (async !== undefined) c.async = async === OFF ? null : async;
  // --loss not given: the framework version's own default (TRL 1.13.0's dapo, ms-swift's grpo, verl's token-mean).
  const lossSet = v.loss !== undefined || (preset !== null && preset !== undefined && TRAIN_PRESETS[preset]!.config.loss !== undefined);
  const ownDefault = frameworkDefaultLoss(c.framework);
  if (!lossSet && ownDefault !== undefined) c.loss = ownDefault;
  // --epsilon-high defaults to --epsilon-low.
  if (v.epsilonLow !== undefined && v.epsilonHigh === undefined) c.epsilonHigh = v.epsilonLow;
  if (c.dynamicSampling === null) {
    const orphan = DYNAMIC_ONLY.find((key) => get(key) !== null && get(key) !== undefined);
    if (orphan) throw configError([fact('train.dynamic-only', { key: orphan, policies: [...POLICIES] })]);
  }
  checkTrainConfig(c);
  const tooMuch = trainBudgetError(c);
  if (tooMuch) throw tooMuch;
  return c;
}

/**
 * The values a form offers for setting `key` under run `c` (the table's choices; `--loss`: the ones `c`'s framework
 * trains, and pairwise); undefined: a free field.
 */
export function settingChoices(key: string, c: TrainConfig): readonly string[] | undefined {
  if (key === 'loss') return [...new Set([...frameworkLosses(c.framework), 'pairwise'])];
  return TRAIN_SETTINGS.find((s) => s.key === key)?.choices;
}

/** A setting's value in `c` as text (what the form shows and the link carries); a simulation's row not given: its default. */
export function settingText(c: TrainConfig, key: string): string {
  const s = TRAIN_SETTINGS.find((x) => x.key === key);
  if (!s) return '';
  const own = RULES.find((r) => r.framework === c.async)?.keys.find((x) => x.flag === key);
  if (s.field === 'asyncSettings') {
    if (Object.hasOwn(c.asyncSettings, key)) return c.asyncSettings[key]!;
    return own ? String(own.default ?? '') : (WORKLOAD_DEFAULT_TEXT[key] ?? '');
  }
  // The bound not given: the rule's shipped value where --async names one.
  if (key === ASYNC_ONLY && c.maxStaleness === null && own) return String(own.default ?? '');
  const v = c[s.field as keyof TrainConfig];
  return v === null ? OFF : String(v);
}

/**
 * The settings of `c` as key → text, every one written out (not only those that differ from
 * today's defaults, so a link still means the same run if a default changes), the preset first
 * (it carries seed-003's model size); dynamic sampling's own settings only when it is on; the
 * asynchronous simulation's bound and settings only when given.
 */
export function trainSettingTexts(c: TrainConfig, preset?: string): [string, string][] {
  const out: [string, string][] = [];
  if (preset && Object.hasOwn(TRAIN_PRESETS, preset)) out.push(['preset', preset]);
  for (const s of TRAIN_SETTINGS) {
    if (c.dynamicSampling === null && DYNAMIC_ONLY.includes(s.key)) continue;
    if (s.key === ASYNC_ONLY && c.maxStaleness === null) continue;
    if (s.field === 'asyncSettings' && !Object.hasOwn(c.asyncSettings, s.key)) continue;
    out.push([s.key, settingText(c, s.key)]);
  }
  return out;
}
