// The layout flags of the CLI, generated from the one settings table (src/core/settings.ts):
// the parseArgs spec, the `--help` lines and reading the values into a LayoutConfig. Any
// command that takes a layout (`layout`, and those built on one) uses these.
import { ConfigError } from '../core/errors.ts';
import type { LayoutConfig, SamplerName } from '../core/layout/types.ts';
import { presetNames, presets } from '../core/presets.ts';
import {
  checkGivenSettings,
  checkGivenValues,
  defaultConfig,
  samplerNames,
  trlStepsPerGeneration,
  validateConfig,
  withSamplerDefaults,
  VERL_ONLY_FIELDS,
  VERL_VERSION,
  verlSays,
} from '../core/samplers/index.ts';
import { withFrameworkSays } from '../core/samplers/framework-errors.ts';
import { gcd } from '../core/samplers/rules.ts';
import { LAYOUT_SETTINGS, type LayoutSetting } from '../core/settings.ts';
import { choiceFlag, intFlag, ownEntry, quote, type FlagSpec } from './flags.ts';
import { readSeqlensFile } from './seqlens-file.ts';

/**
 * --batch from verl's data.train_batch_size P: each of the ranks gets P × k / ranks samples. verl
 * itself refuses a P × k that does not split over the GPUs, at startup, with the text quoted here.
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

/** `--preset`, one string flag per setting, and TRL's generation_batch_size, which is not a setting of
 * its own but another way to give steps_per_generation (values are checked by layoutConfigFromFlags). */
export const layoutFlagSpec: FlagSpec = {
  preset: { type: 'string' },
  ...Object.fromEntries(LAYOUT_SETTINGS.map((s) => [s.flag, { type: 'string' }])),
  'generation-batch-size': { type: 'string' },
  'train-batch-size': { type: 'string' },
  seqlens: { type: 'string' },
};

/** The layout settings only the verl sampler reads (refused for the others), and verl's CLI-only inputs. */
const VERL_ONLY: Record<string, ['verl']> = Object.fromEntries(
  [...VERL_ONLY_FIELDS, 'trainBatchSize', 'seqlens'].map((field) => [field, ['verl']]),
);

/** One `--help` entry: the flag in a 27-column gutter, its text wrapped at 100 columns. */
export function helpLine(left: string, text: string): string {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current && 29 + current.length + 1 + word.length > 100) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  lines.push(current);
  const gutter = left.length < 27 ? left.padEnd(27) : `${left}\n${' '.repeat(29)}`;
  return `  ${gutter}${lines.join(`\n${' '.repeat(29)}`)}\n`;
}

/** The `--help` lines of the layout flags, from the settings table. */
export function layoutFlagsHelp(): string {
  const hint = (s: LayoutSetting) => (s.kind === 'sampler' ? `${s.hint}: ${samplerNames.join(', ')}` : s.hint);
  return (
    helpLine('--preset NAME', presetNames.join(', ')) +
    LAYOUT_SETTINGS.map((s) => helpLine(`--${s.flag} ${s.metavar}`, hint(s))).join('') +
    helpLine(
      '--generation-batch-size G',
      'TRL generation_batch_size = ranks × batch × steps-per-generation (give it or --steps-per-generation)',
    ) +
    helpLine('--train-batch-size P', 'verl data.train_batch_size in prompts: sets --batch to P × k / ranks (samples per rank)') +
    helpLine(
      '--seqlens FILE',
      'verl: measured token counts, one per sample in generation order (after repeat, before balancing), step after step; ' +
        'a JSON array or numbers separated by spaces (default: synthetic, seeded)',
    )
  );
}

/** --seed: a safe integer; a larger PyTorch seed gets a pointer to its low 32 bits, which are all PyTorch uses. */
function seedFlag(value: unknown, s: LayoutSetting): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (/^-?\d+$/.test(text) && !Number.isSafeInteger(Number(text))) {
    const big = BigInt(text);
    const inRange = big >= -(1n << 63n) && big < 1n << 64n;
    throw new ConfigError(
      `--${s.flag} ${text} is beyond ±(2^53−1), which the sandbox keeps as a plain number` +
        (inRange
          ? `; PyTorch seeds MT19937 with the low 32 bits only, so --${s.flag} ${BigInt.asUintN(32, big)} gives the same stream`
          : `, and outside PyTorch's [-2^63, 2^64) too`),
    );
  }
  return intFlag(value, s.flag, s.min, s.max);
}

/** The value of one setting's flag, checked against its own range; undefined when absent. */
function readSetting(s: LayoutSetting, value: unknown): LayoutConfig[keyof LayoutConfig] | undefined {
  if (value === undefined) return undefined;
  if (s.kind === 'sampler') {
    return choiceFlag<SamplerName>(String(value), s.flag, samplerNames);
  }
  if (s.kind === 'bool') return choiceFlag(String(value), s.flag, ['true', 'false']) === 'true';
  return s.field === 'seed' ? seedFlag(value, s) : intFlag(value, s.flag, s.min, s.max);
}

/**
 * The configuration parsed flags ask for: the preset (or the default) with every given setting
 * applied. A setting the chosen sampler does not read is refused, never silently ignored; for
 * trl, steps_per_generation is derived as TRL does when any of its three inputs is given.
 */
export function layoutConfigFromFlags(values: Record<string, unknown>): { config: LayoutConfig; preset?: string } {
  const preset = values.preset as string | undefined;
  // Own-property lookup: `--preset __proto__` (or constructor, toString) is just unknown.
  const chosen = preset === undefined ? undefined : ownEntry(presets, preset);
  if (preset !== undefined && !chosen) throw new ConfigError(`unknown preset ${quote(preset)}; presets: ${presetNames.join(', ')}`);
  const config: LayoutConfig = { ...(chosen ? chosen.config : defaultConfig) };
  const given: string[] = [];
  for (const s of LAYOUT_SETTINGS) {
    const v = readSetting(s, values[s.flag]);
    if (v === undefined) continue;
    (config as unknown as Record<string, unknown>)[s.field] = v;
    if (s.kind !== 'sampler' && s.field !== 'seed') given.push(s.field);
  }
  // A chosen sampler brings its published script's values for the settings only it reads (flow_grpo's loader).
  if (values.sampler !== undefined) Object.assign(config, withSamplerDefaults(config, given));
  const generationBatchSize = intFlag(values['generation-batch-size'], 'generation-batch-size', 1);
  if (generationBatchSize !== undefined) given.push('generationBatchSize');
  const trainBatchSize = intFlag(values['train-batch-size'], 'train-batch-size', 1);
  if (trainBatchSize !== undefined) given.push('trainBatchSize');
  if (values.seqlens !== undefined) given.push('seqlens');
  const refused = checkGivenSettings(config.sampler, given, { generationBatchSize: ['trl'], ...VERL_ONLY });
  if (refused) throw refused;
  if (trainBatchSize !== undefined) config.batch = verlBatchFromTrainBatchSize(trainBatchSize, config, given.includes('batch'));
  if (values.seqlens !== undefined) config.seqlens = readSeqlensFile(String(values.seqlens));
  // TRL derives steps_per_generation from gradient_accumulation_steps or generation_batch_size when not given.
  const batching = ['stepsPerGeneration', 'gradientAccumulationSteps', 'generationBatchSize'];
  if (config.sampler === 'trl' && given.some((f) => batching.includes(f))) {
    config.stepsPerGeneration = trlStepsPerGeneration(
      {
        batch: config.batch,
        ranks: config.ranks,
        gradientAccumulationSteps: config.gradientAccumulationSteps,
        stepsPerGeneration: given.includes('stepsPerGeneration') ? config.stepsPerGeneration : undefined,
        generationBatchSize,
        // Only generation batch sizes whose whole configuration is valid are suggested.
      },
      (spg) => validateConfig({ ...config, stepsPerGeneration: spg }) === null,
    );
  }
  const changed = checkGivenValues(config, given);
  if (changed) throw changed;
  return { config, preset };
}
