// <grpo-steps>' request: its attributes (named like the explorer's URL keys, so `?view=steps&…` and a
// tour set them the same way) read by the steps' one reader (src/core/steps/settings.ts), which
// `grpo-sandbox steps` calls with its flags. Pure: no DOM.
import { LAYOUT_INPUTS, paramGetter } from '../../core/samplers/settings.ts';
import { LAYOUT_SETTINGS } from '../../core/settings.ts';
import { STEPS_INPUTS, stepsSettingsFrom, type StepsSettings } from '../../core/steps/settings.ts';
import { attributeGetter } from '../setting-attributes.ts';

/**
 * The element's attributes: the preset, the layout settings by URL key, TRL's and verl's other ways to
 * give a batch, then the steps' own inputs (`lengths` is the list itself; the CLI's is a file, as
 * verl's `seqlens`, which the page does not take).
 */
export const STEPS_ATTRIBUTES: readonly string[] = [
  'preset',
  ...LAYOUT_SETTINGS.map((s) => s.param),
  ...LAYOUT_INPUTS.filter((key) => key !== 'seqlens'),
  ...STEPS_INPUTS,
];

/** The layout and the report's options the attributes ask for; a ConfigError when they ask for none. */
export function stepsRequest(attrs: Record<string, string | null | undefined>): StepsSettings {
  return stepsSettingsFrom(paramGetter(attributeGetter(attrs)));
}
