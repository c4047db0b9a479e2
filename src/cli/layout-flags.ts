// The layout flags of the CLI, generated from the one settings table (src/core/settings.ts):
// the parseArgs spec, the `--help` lines and reading the values into a LayoutConfig. Any
// command that takes a layout (`layout`, and those built on one) uses these.
import type { LayoutConfig } from '../core/layout/types.ts';
import { presetNames } from '../core/presets.ts';
import { samplerNames } from '../core/samplers/index.ts';
import { FRAMEWORK_NAMES } from '../core/steps/frameworks.ts';
import { LAYOUT_INPUTS, layoutSettingsFrom } from '../core/samplers/settings.ts';
import type { SettingGetter } from '../core/setting.ts';
import { LAYOUT_SETTINGS, type LayoutSetting } from '../core/settings.ts';
import type { FlagSpec } from './flags.ts';
import { readSeqlensFile } from './seqlens-file.ts';

/** `--preset`, one string flag per setting, and TRL's generation_batch_size, which is not a setting of
 * its own but another way to give steps_per_generation (values are checked by layoutConfigFromFlags). */
export const layoutFlagSpec: FlagSpec = {
  preset: { type: 'string' },
  ...Object.fromEntries(LAYOUT_SETTINGS.map((s) => [s.flag, { type: 'string' }])),
  ...Object.fromEntries(LAYOUT_INPUTS.map((key) => [key, { type: 'string' }])),
};

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
    ) +
    helpLine(
      '--framework NAME',
      `whose code is modelled: ${FRAMEWORK_NAMES.join(', ')}. For --sampler trl, trl-0.18.2, unsloth-015bdef and ms-swift-3602360 read ` +
        'the batch settings as that code does (its defaults, its checks and messages, Unsloth’s rewrite of the batch) and choose ' +
        "the sampler when none is given; steps: the loss normaliser (default: the sampler's, trl → trl-1.13.0; flow-grpo, flow-grpo-lcm, " +
        'contiguous, group-distributed → flow_grpo-ac4c86e; dance-grpo → dance-grpo-22b85ef; others → verl-b178a3c)',
    ) +
    helpLine(
      '--sequence-parallel-size N',
      "ms-swift's sequence_parallel_size (with --framework ms-swift-3602360): its RepeatSampler repeats each generation batch N times " +
        'more and gradient_accumulation_steps is multiplied by N (default 1)',
    )
  );
}

/** Parsed flags as the settings readers' `get(key)`: a flag's text by its name, undefined when not given. */
export function flagGetter(values: Record<string, unknown>): SettingGetter {
  return (key) => (Object.hasOwn(values, key) && values[key] !== undefined ? String(values[key]) : undefined);
}

/**
 * The configuration parsed flags ask for, read by the layout's one reader (src/core/samplers/settings.ts),
 * which the explorer's link and the elements call too: the preset (or the default) with every given
 * setting applied. A setting the chosen sampler does not read is refused, never silently ignored; for
 * trl, steps_per_generation is derived as TRL does when any of its three inputs is given.
 */
export function layoutConfigFromFlags(values: Record<string, unknown>): { config: LayoutConfig; preset?: string } {
  const { config, preset } = layoutSettingsFrom(flagGetter(values), { seqlens: readSeqlensFile });
  return { config, preset };
}
