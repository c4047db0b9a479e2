// What `grpo-sandbox steps` and <grpo-steps> read, once: the layout through the layout's one reader
// (src/core/samplers/settings.ts), then the steps' own inputs (framework version, loss type, token
// counts, max_completion_length, verl's micro-batch). The CLI gives its flags, the element its
// attributes (by URL key, through `paramGetter`), so the same settings give the same report.
import { validateConfig } from '../samplers/index.ts';
import { layoutSettingsFrom, type LayoutSource } from '../samplers/settings.ts';
import { quote, readInt, type SettingGetter } from '../setting.ts';
import type { LayoutConfig } from '../layout/types.ts';
import type { StepsOptions } from './build.ts';
import { parseLengths } from './lengths.ts';

/** The steps' own keys, beside the layout's (a flag on the CLI, an attribute on the element); `framework` is the layout's too. */
export const STEPS_INPUTS = ['loss', 'lengths', 'max-completion-length', 'micro-batch'] as const;

/** max_completion_length when not given (the seeded lengths' and a list's upper bound). */
export const DEFAULT_MAX_LENGTH = 512;

export interface StepsSource extends LayoutSource {
  /**
   * The token counts `lengths` names, and how a message names where they came from: the CLI reads
   * the file at that path; without this the text is the list itself (the element's attribute).
   */
  lengths?: (text: string, maxLength: number) => { lengths: number[]; source: string };
}

export interface StepsSettings {
  config: LayoutConfig;
  preset?: string;
  options: StepsOptions;
}

/** The list itself: whole numbers separated by spaces or commas, or a JSON array. */
const listed = (text: string, maxLength: number) => ({ lengths: parseLengths(text, quote(text), maxLength), source: 'lengths=' });

/**
 * The layout the settings ask for (checked: an invalid one is its ConfigError) and the options of
 * its report. The framework version and loss type are checked by buildSteps, which names the valid ones.
 */
export function stepsSettingsFrom(get: SettingGetter, source: StepsSource = {}): StepsSettings {
  const { config, preset } = layoutSettingsFrom(get, source);
  const invalid = validateConfig(config);
  if (invalid) throw invalid;
  const maxCompletionLength = readInt(get('max-completion-length'), 'max-completion-length', 1, 1_000_000);
  const microBatch = readInt(get('micro-batch'), 'micro-batch', 1);
  const text = get('lengths') ?? undefined;
  const given = text === undefined ? undefined : (source.lengths ?? listed)(text, maxCompletionLength ?? DEFAULT_MAX_LENGTH);
  const options: StepsOptions = {
    framework: get('framework') ?? undefined,
    loss: get('loss') ?? undefined,
    lengths: given?.lengths,
    lengthsSource: given?.source,
    maxCompletionLength,
    microBatch,
  };
  return { config, preset, options };
}
