// The layout settings, each described ONCE (as TensorFlow Playground's single props table): the
// config field, the CLI flag, the URL key, the label and hint, and what values it allows. The CLI
// flags and `--help` (src/cli/layout-flags.ts), the explorer's URL state (src/ui/url-state.ts)
// and its config panel (src/ui/config-panel.ts) are generated from this table, so adding a
// setting is one line here plus its field in LayoutConfig (src/core/layout/types.ts).
// What values are *valid together* is the samplers' business (validateConfig); this table only
// states each setting's own range, which the CLI checks while parsing.
import type { LayoutConfig, SamplerName } from './layout/types.ts';

/** How a setting's value is read: one of the sampler names, or a whole number in [min, max]. */
export type SettingKind = 'sampler' | 'int';

export interface LayoutSetting {
  field: keyof LayoutConfig;
  /** CLI flag without the leading `--`: the field in kebab-case (batchesPerEpoch → batches-per-epoch). */
  flag: string;
  /** Placeholder for the value in `--help` (W, B, K …). */
  metavar: string;
  /** URL query key (short, readable in a link; `<key>_hide=true` hides its control). */
  param: string;
  /** Label of the control in the config panel. */
  label: string;
  /** One line of help: what the setting is, with the frameworks' names for it. */
  hint: string;
  kind: SettingKind;
  /** Smallest and largest allowed value (kind 'int'). */
  min: number;
  max: number;
  /** The samplers that read this setting (absent: all); the panel mutes it for the others. */
  only?: readonly SamplerName[];
}

/** A setting's own range: a whole number in [min, max], or one of the sampler names. */
type Range = Pick<LayoutSetting, 'kind' | 'min' | 'max'>;
const COUNT: Range = { kind: 'int', min: 1, max: Number.MAX_SAFE_INTEGER };
const SEED: Range = { kind: 'int', min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
const SAMPLER: Range = { kind: 'sampler', min: 0, max: 0 };
type Row = [field: keyof LayoutConfig, metavar: string, param: string, label: string, hint: string, range?: Range, only?: SamplerName[]];

// biome-ignore format: a table, one line per setting
const ROWS: Row[] = [
  // field               metavar URL key    label                    hint (--help, panel)                                     range   samplers
  ['sampler',            'NAME', 'sampler', 'sampler',               'whose sampler lays out the prompts',                    SAMPLER],
  ['ranks',              'W',    'ranks',   'ranks (W)',             'data-parallel world size'],
  ['batch',              'B',    'batch',   'per-rank batch (B)',    'samples (completions) per rank per step (TRL: per_device_train_batch_size)'],
  ['k',                  'K',    'k',       'copies per prompt (k)', 'group size (flow_grpo: k, TRL: num_generations)'],
  ['batchesPerEpoch',    'N',    'batches', 'batches per epoch',     'steps per epoch (flow-grpo, group-distributed; least for flow-grpo-lcm; else derived)'],
  ['epochs',             'E',    'epochs',  'epochs',                'epochs to lay out'],
  ['datasetSize',        'D',    'dataset', 'dataset size',          'prompts in the dataset (ids 0 … D−1)'],
  ['seed',               'S',    'seed',    'seed',                  'PyTorch generator seed (low 32 bits used)',             SEED],
  ['stepsPerGeneration', 'S',    'spg',     'steps per generation',  'TRL steps_per_generation',                              COUNT, ['trl']],
  ['numIterations',      'MU',   'iters',   'iterations (μ)',        'TRL num_iterations',                                    COUNT, ['trl']],
];

/** Every layout setting, in display order. The CLI flag is the field in kebab-case. */
export const LAYOUT_SETTINGS: readonly LayoutSetting[] = ROWS.map(([field, metavar, param, label, hint, range = COUNT, only]) => ({
  field,
  flag: field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
  metavar,
  param,
  label,
  hint,
  ...range,
  ...(only ? { only } : {}),
}));

/** The setting of a config field. */
export function settingOf(field: keyof LayoutConfig): LayoutSetting {
  const s = LAYOUT_SETTINGS.find((x) => x.field === field);
  if (!s) throw new Error(`no layout setting for field '${field}' (add it to LAYOUT_SETTINGS in src/core/settings.ts)`);
  return s;
}

/** Whether a setting matters for a sampler (settings with `only` are ignored by the others). */
export function settingApplies(s: LayoutSetting, sampler: SamplerName): boolean {
  return s.only === undefined || s.only.includes(sampler);
}

/** "k = 4, batches-per-epoch = 2" for a suggested change of fields (settings by their flag names). */
export function suggestionText(suggestion: Record<string, unknown>): string {
  return Object.entries(suggestion)
    .map(([key, v]) => `${LAYOUT_SETTINGS.find((s) => s.field === key)?.flag ?? key} = ${String(v)}`)
    .join(', ');
}
