// The layout flags of the CLI, generated from the one settings table (src/core/settings.ts):
// the parseArgs spec, the `--help` lines and reading the values into a LayoutConfig. Any
// command that takes a layout (`layout`, and those built on one) uses these.
import { ConfigError } from '../core/errors.ts';
import type { LayoutConfig, SamplerName } from '../core/layout/types.ts';
import { presetNames, presets } from '../core/presets.ts';
import { defaultConfig, samplerNames } from '../core/samplers/index.ts';
import { LAYOUT_SETTINGS, type LayoutSetting } from '../core/settings.ts';
import { intFlag, type FlagSpec } from './flags.ts';

/** `--preset` plus one string flag per setting (values are checked by layoutConfigFromFlags). */
export const layoutFlagSpec: FlagSpec = {
  preset: { type: 'string' },
  ...Object.fromEntries(LAYOUT_SETTINGS.map((s) => [s.flag, { type: 'string' }])),
};

/** The `--help` lines of the layout flags, aligned. */
export function layoutFlagsHelp(): string {
  const line = (left: string, text: string) => `  ${left.padEnd(27)}${text}\n`;
  const hint = (s: LayoutSetting) => {
    const choices = s.kind === 'sampler' ? `: ${samplerNames.join(', ')}` : '';
    return `${s.hint}${choices}${s.only ? ` (${s.only.join(', ')} only)` : ''}`;
  };
  return line('--preset NAME', presetNames.join(', ')) + LAYOUT_SETTINGS.map((s) => line(`--${s.flag} ${s.metavar}`, hint(s))).join('');
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
    const name = String(value);
    if (!(samplerNames as string[]).includes(name))
      throw new ConfigError(`unknown sampler '${name}'; samplers: ${samplerNames.join(', ')}`);
    return name as SamplerName;
  }
  return s.field === 'seed' ? seedFlag(value, s) : intFlag(value, s.flag, s.min, s.max);
}

/** The configuration parsed flags ask for: the preset (or the default) with every given setting applied. */
export function layoutConfigFromFlags(values: Record<string, unknown>): { config: LayoutConfig; preset?: string } {
  const preset = values.preset as string | undefined;
  if (preset !== undefined && !presets[preset]) throw new ConfigError(`unknown preset '${preset}'; presets: ${presetNames.join(', ')}`);
  const config: Record<string, unknown> = { ...(preset ? presets[preset]!.config : defaultConfig) };
  for (const s of LAYOUT_SETTINGS) {
    const v = readSetting(s, values[s.flag]);
    if (v !== undefined) config[s.field] = v;
  }
  return { config: config as unknown as LayoutConfig, preset };
}
