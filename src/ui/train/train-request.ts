// <grpo-train>'s settings: its attributes and form fields are the preset and the rows of the
// training run's one table (src/train/settings.ts), read by the function the CLI calls, and its
// link writes them back as URL keys. Pure: no DOM.
import type { TrainConfig } from '../../train/config.ts';
import { asyncKeyApplies } from '../../train/async-settings.ts';
import { isAsyncRow, TRAIN_SETTINGS, trainConfigFrom, trainSettingTexts } from '../../train/settings.ts';

/** The element's attributes and the form's fields, in the form's order. */
export const TRAIN_ATTRIBUTES: readonly string[] = ['preset', ...TRAIN_SETTINGS.map((s) => s.key)];

/** The run the form's texts ask for (the form's "no preset" is the empty choice); throws a ConfigError. */
export function trainRequest(values: Record<string, string | undefined>): TrainConfig {
  return trainConfigFrom((key) => (key === 'preset' && values.preset === '' ? null : (values[key] ?? null)));
}

/** The URL keys of a link that reproduces `c` (every setting written out; the preset carries seed-003's model size). */
export function runSearch(c: TrainConfig, preset?: string): string {
  return `?${new URLSearchParams([['view', 'train'], ...trainSettingTexts(c, preset)]).toString()}`;
}

/**
 * The fields the form shows, in its order: every setting but the asynchronous simulation's, which show only where the
 * rule `framework` (the form's async field; null: off) reads them (its bound, its own keys, the workload), and any given
 * one (so a setting the rule does not read stays in sight with its refusal until it is cleared).
 */
export function formFields(values: Record<string, string | undefined>, framework: string | null): string[] {
  return TRAIN_ATTRIBUTES.filter(
    (key) => (key !== 'max-staleness' && !isAsyncRow(key)) || values[key] !== undefined || asyncKeyApplies(framework, key),
  );
}
