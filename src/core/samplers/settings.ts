// The layout's settings as read, once for every caller: `grpo-sandbox layout`, `steps` and `diff`
// (src/cli/layout-flags.ts), the explorer's link and <grpo-layout>'s attributes (src/ui/url-state.ts),
// and <grpo-steps> (src/ui/steps/steps-request.ts). Each gives a `get(key)` over its own texts; the
// key is the setting's CLI flag (`paramGetter` turns a link's short keys into flags), so the same
// settings give the same configuration wherever they are written: the preset (or the default), each
// given setting over it, the chosen sampler's script defaults, TRL's derived steps_per_generation,
// and (a command or an element) the refusal of a setting the sampler does not read.
// A link is read as a link: it carries every setting (the explorer writes them all), so a setting the
// sampler does not read is carried, not refused, and text that does not read keeps the base's value
// with a notice instead of refusing the whole page.
import { ConfigError } from '../errors.ts';
import { configError, fact } from '../messages/index.ts';
import type { LayoutConfig, SamplerName } from '../layout/types.ts';
import { presetNames, presets as PRESETS } from '../presets.ts';
import { quote, readInt, type SettingGetter } from '../setting.ts';
import { flagName, LAYOUT_SETTINGS, type LayoutSetting } from '../settings.ts';
import { VERL_VERSION, verlSays, withFrameworkSays } from './framework-errors.ts';
import {
  checkGivenSettings,
  checkGivenValues,
  readsSetting,
  defaultConfig,
  samplerNames,
  samplers,
  validateConfig,
  withSamplerDefaults,
} from './index.ts';
import { gcd } from './rules.ts';
import { readFramework } from './framework-setting.ts';
import { frameworkStepsPerGeneration } from '../frameworks/trl/batching.ts';
import { trlFramework } from '../frameworks/trl/wrappers.ts';

/**
 * Inputs read beside the table's settings (CLI flags and attributes alike): other ways to give a setting, verl's
 * token counts, and whose code reads a trl layout (`framework`, with ms-swift's `sequence-parallel-size`).
 */
export const LAYOUT_INPUTS = ['generation-batch-size', 'train-batch-size', 'seqlens', 'framework', 'sequence-parallel-size'] as const;

/** What a link does with what it cannot read: the page says so and shows the base's value instead. */
export interface LinkNotices {
  /** A setting's text that does not read; `kept` is the value shown instead. */
  unreadable(setting: LayoutSetting, text: string, kept: unknown): void;
  /** `preset=` names no preset; the defaults are shown. */
  unknownPreset(name: string): void;
}

export interface LayoutSource {
  /** The configuration without a preset (default: seed-000's) and the presets by name (default: src/core/presets.ts). */
  defaults?: LayoutConfig;
  presets?: Record<string, { config: LayoutConfig }>;
  /** Read as a link (the explorer's URL, <grpo-layout>): see the file's head. Absent: a command's flags or an element's attributes. */
  link?: LinkNotices;
  /** verl's `seqlens` input: its text (the CLI's file path) as token counts. Without it `seqlens` is not read. */
  seqlens?: (text: string) => number[];
}

export interface LayoutReading {
  config: LayoutConfig;
  /** The preset named, when it exists. */
  preset?: string;
  /** The fields and inputs given (a link's settings too), in the table's order. */
  given: string[];
}

/** A getter by CLI flag over texts keyed by the table's URL keys (`spg`, `ga` …); other keys are asked as they are. */
export function paramGetter(get: SettingGetter): SettingGetter {
  const paramOf = new Map(LAYOUT_SETTINGS.map((s) => [s.flag, s.param]));
  return (key) => get(paramOf.get(key) ?? key);
}

/**
 * --train-batch-size P (verl's data.train_batch_size) as --batch: each of the ranks gets P × k / ranks samples.
 * verl itself refuses a P × k that does not split over the GPUs, at startup, with the text quoted here.
 */
function verlBatchFromTrainBatchSize(prompts: number, config: LayoutConfig, batchGiven: boolean): number {
  if (batchGiven) throw new ConfigError('give --train-batch-size or --batch, not both (--batch = train-batch-size × k / ranks)');
  const samples = prompts * config.k;
  if (samples % config.ranks !== 0) {
    const step = config.ranks / gcd(config.ranks, config.k);
    const near = [Math.floor(prompts / step) * step, Math.ceil(prompts / step) * step].filter((p, i, a) => p >= 1 && a.indexOf(p) === i);
    throw new ConfigError(
      withFrameworkSays(
        `train-batch-size=${prompts} prompts × k=${config.k} = ${samples} samples do not split over ranks=${config.ranks}; ` +
          `use --train-batch-size ${near.join(' or ')}`,
        VERL_VERSION,
        verlSays.notDivisibleByGpus(samples, config.ranks),
      ),
    );
  }
  return samples / config.ranks;
}

/** --seed: a safe integer; a larger PyTorch seed gets a pointer to its low 32 bits, which are all PyTorch uses. */
function readSeed(text: string, s: LayoutSetting): number | undefined {
  const trimmed = text.trim();
  if (/^-?\d+$/.test(trimmed) && !Number.isSafeInteger(Number(trimmed))) {
    const big = BigInt(trimmed);
    const inRange = big >= -(1n << 63n) && big < 1n << 64n;
    throw new ConfigError(
      `--${s.flag} ${trimmed} is beyond ±(2^53−1), which the sandbox keeps as a plain number` +
        (inRange
          ? `; PyTorch seeds MT19937 with the low 32 bits only, so --${s.flag} ${BigInt.asUintN(32, big)} gives the same stream`
          : `, and outside PyTorch's [-2^63, 2^64) too`),
    );
  }
  return readInt(text, s.flag, s.min, s.max);
}

/** One setting's value from its text, checked against its own range (a command's flag, an element's attribute). */
export function readLayoutSetting(s: LayoutSetting, text: string): LayoutConfig[keyof LayoutConfig] {
  if (s.kind === 'sampler') {
    if (!(samplerNames as string[]).includes(text))
      throw new ConfigError(`unknown --${s.flag} ${quote(text)}; choose one of ${samplerNames.join(', ')}`);
    return text as SamplerName;
  }
  if (s.kind === 'bool') {
    if (text !== 'true' && text !== 'false') throw new ConfigError(`unknown --${s.flag} ${quote(text)}; choose one of true, false`);
    return text === 'true';
  }
  return (s.field === 'seed' ? readSeed(text, s) : readInt(text, s.flag, s.min, s.max))!;
}

/**
 * A link's reading of one setting: a sampler's name as written and a number out of range are kept (the
 * page then shows the core's error about them, with its fixes); text that is no value at all is undefined.
 */
function readLinkSetting(s: LayoutSetting, text: string): LayoutConfig[keyof LayoutConfig] | undefined {
  if (s.kind === 'sampler') return text as SamplerName;
  if (s.kind === 'bool') return text === 'true' || text === 'false' ? text === 'true' : undefined;
  const n = Number(text);
  return text.trim() === '' || !Number.isFinite(n) ? undefined : n;
}

/**
 * The configuration the settings ask for: the preset (or the default) with every given setting
 * applied; a chosen sampler brings its script's values for the settings only it reads; for trl,
 * steps_per_generation is derived as TRL derives it when any of its three inputs is given (TRL:
 * it defaults to gradient_accumulation_steps). Outside a link, a setting the sampler does not read
 * is refused, never silently ignored, and so is a value the sampler would change.
 */
export function layoutSettingsFrom(get: SettingGetter, source: LayoutSource = {}): LayoutReading {
  const { link } = source;
  const presets = source.presets ?? PRESETS;
  const presetName = get('preset') ?? undefined;
  // Own-property lookup: `--preset __proto__` (or constructor, toString) is just unknown.
  const chosen = presetName === undefined ? undefined : Object.hasOwn(presets, presetName) ? presets[presetName] : undefined;
  if (presetName !== undefined && !chosen) {
    if (!link)
      throw new ConfigError(
        `unknown preset ${quote(presetName)}; presets: ${(source.presets ? Object.keys(presets) : presetNames).join(', ')}`,
      );
    link.unknownPreset(presetName);
  }
  const base: LayoutConfig = chosen ? chosen.config : (source.defaults ?? defaultConfig);
  const config: LayoutConfig = { ...base };
  const given: string[] = [];
  const settings: string[] = [];
  for (const s of LAYOUT_SETTINGS) {
    const text = get(s.flag);
    if (text === null || text === undefined) continue;
    const value = link ? readLinkSetting(s, text) : readLayoutSetting(s, text);
    if (value === undefined) {
      link!.unreadable(s, text, base[s.field]);
      continue;
    }
    (config as unknown as Record<string, unknown>)[s.field] = value;
    settings.push(s.field);
    if (s.kind !== 'sampler' && s.field !== 'seed') given.push(s.field);
  }
  // The other inputs are a command's and an element's (a link's keys are the table's).
  const input = (key: string) => (link ? undefined : (get(key) ?? undefined));
  // --framework: a TRL wrapper or version chooses the trl sampler and brings its own defaults (no preset named).
  const framework = readFramework(input('framework'), config, settings.includes('sampler') || chosen !== undefined);
  if (framework?.sampler) {
    config.sampler = framework.sampler;
    settings.push('sampler');
  }
  // A chosen sampler brings its published script's values for the settings only it reads (flow_grpo's loader).
  if (settings.includes('sampler')) Object.assign(config, withSamplerDefaults(config, given));
  const pinned = framework?.trl;
  if (pinned) {
    config.framework = pinned.name;
    if (!chosen)
      for (const [field, value] of Object.entries(pinned.defaults))
        if (!settings.includes(field)) (config as unknown as Record<string, unknown>)[field] = value;
  }
  // flow_grpo's train_sd3_fast.py: its loop lays out as 0 workers, unprepared, and its sampler's seed is written in the script.
  if (framework?.fixed) {
    config.framework = framework.name;
    for (const [field, value] of Object.entries(framework.fixed) as [keyof LayoutConfig, number][]) {
      if (settings.includes(field) && config[field] !== value) {
        throw configError([fact('flow-grpo.fast-fixed', { flag: flagName(field), given: Number(config[field]), fixed: value })]);
      }
      (config as unknown as Record<string, unknown>)[field] = value;
    }
  }
  const sequenceParallelSize = readInt(input('sequence-parallel-size'), 'sequence-parallel-size', 1, 1024);
  if (sequenceParallelSize !== undefined) {
    given.push('sequenceParallelSize');
    if (!pinned?.sequenceParallel) throw configError([fact('trl.sp-ms-swift-only')]);
    config.sequenceParallelSize = sequenceParallelSize;
  }
  const generationBatchSize = readInt(input('generation-batch-size'), 'generation-batch-size', 1);
  if (generationBatchSize !== undefined) given.push('generationBatchSize');
  const trainBatchSize = readInt(input('train-batch-size'), 'train-batch-size', 1);
  if (trainBatchSize !== undefined) given.push('trainBatchSize');
  const seqlens = source.seqlens ? input('seqlens') : undefined;
  if (seqlens !== undefined) given.push('seqlens');
  if (!link) {
    const refused = checkGivenSettings(config.sampler, given);
    if (refused) throw refused;
  }
  if (trainBatchSize !== undefined) config.batch = verlBatchFromTrainBatchSize(trainBatchSize, config, given.includes('batch'));
  if (seqlens !== undefined) config.seqlens = source.seqlens!(seqlens);
  // A wrapper may rewrite per_device_train_batch_size before TRL reads it (Unsloth: src/core/frameworks/unsloth/trl-reading.ts).
  const spgGiven = given.includes('stepsPerGeneration');
  if (pinned?.rewritesBatch && !spgGiven && generationBatchSize === undefined) {
    const rewritten = pinned.rewritesBatch(config);
    if (rewritten !== null) {
      config.perDeviceBatchAsWritten = config.batch;
      config.batch = rewritten;
    }
  }
  // TRL derives steps_per_generation from gradient_accumulation_steps or generation_batch_size when not given.
  const batching = ['stepsPerGeneration', 'gradientAccumulationSteps', 'generationBatchSize'];
  if (readsSetting(config.sampler, 'stepsPerGeneration') && (pinned || given.some((f) => batching.includes(f)))) {
    config.stepsPerGeneration = frameworkStepsPerGeneration(
      trlFramework(config),
      {
        batch: config.batch,
        ranks: config.ranks,
        gradientAccumulationSteps: config.gradientAccumulationSteps,
        stepsPerGeneration: spgGiven ? config.stepsPerGeneration : undefined,
        generationBatchSize,
      },
      // Only generation batch sizes whose whole configuration is valid are suggested.
      (spg) => validateConfig({ ...config, stepsPerGeneration: spg }) === null,
      config.k,
    );
  }
  if (!link) {
    const changed = checkGivenValues(config, given);
    if (changed) throw changed;
  }
  return { config, preset: chosen ? presetName : undefined, given: [...new Set([...settings, ...given])] };
}

/**
 * The `grpo-sandbox layout` arguments that reproduce `config` (what the explorer shows as its command):
 * `--preset NAME` when it is that preset exactly, else the sampler, and each setting it reads whose
 * value is not the one the reader would give anyway.
 * Read back through layoutSettingsFrom they give `config` (every setting the sampler reads); when the
 * short form would not, every setting the sampler reads is written out. Null for a sampler the sandbox does not have.
 */
export function layoutArgs(config: LayoutConfig, preset?: string | null): string[] | null {
  if (!(samplerNames as string[]).includes(config.sampler)) return null;
  // A view that is a preset, exactly, is that preset.
  const named = preset && Object.hasOwn(PRESETS, preset) ? PRESETS[preset]!.config : null;
  if (named && LAYOUT_SETTINGS.every((s) => named[s.field] === config[s.field])) return [`--preset ${preset}`];
  const read = LAYOUT_SETTINGS.filter(
    (s) => s.kind !== 'sampler' && config[s.field] !== undefined && !samplers[config.sampler].ignores[s.field],
  );
  const start = withSamplerDefaults({ ...defaultConfig, sampler: config.sampler });
  const args = (settings: readonly LayoutSetting[]) => [
    `--sampler ${config.sampler}`,
    ...settings.map((s) => `--${s.flag} ${String(config[s.field])}`),
  ];
  const short = args(
    // steps_per_generation is written out even at its default: the reader would derive it from gradient accumulation.
    read.filter((s) => config[s.field] !== start[s.field] || s.field === 'stepsPerGeneration'),
  );
  const get = (list: string[]) => {
    const texts = new Map(list.map((a) => a.slice(2).split(' ') as [string, string]));
    return (key: string) => texts.get(key);
  };
  const same = (list: string[]) => {
    try {
      const back = layoutSettingsFrom(get(list)).config;
      return read.every((s) => back[s.field] === config[s.field]);
    } catch {
      return false;
    }
  };
  return same(short) ? short : args(read);
}
