// Every ConfigError the settings tables and the features' own rules say (train, schedule, dynamic,
// steps, the layout's "does not use" and seqlens rules, the seed), in English as the CLI prints
// them: each setting of each table at edge and malformed texts, and the cross-setting rules.
// `node --import tsx scripts/i18n/settings-english.ts FILE` records them; test/cli/english-unchanged.test.ts
// checks the core still says exactly that.
import { writeFileSync } from 'node:fs';
import { DYNAMIC_SETTINGS, dynamicSettingsFrom } from '../../src/core/dynamic/settings.ts';
import { validateDynamicConfig, DEFAULT_CONFIG } from '../../src/core/dynamic/types.ts';
import { seedToUint64 } from '../../src/core/rng/seed.ts';
import { buildLayout, checkGivenSettings, samplerNames, validateConfig } from '../../src/core/samplers/index.ts';
import { presets } from '../../src/core/presets.ts';
import { SCHEDULE_SETTINGS, scheduleSettingsFrom } from '../../src/core/schedule/settings.ts';
import type { Setting, SettingGetter } from '../../src/core/setting.ts';
import { readInt, readNumber } from '../../src/core/setting.ts';
import { buildSteps, FRAMEWORK_NAMES, parseLengths } from '../../src/core/steps/index.ts';
import { TRAIN_SETTINGS, trainConfigFrom } from '../../src/train/settings.ts';
import { LAYOUT_SETTINGS } from '../../src/core/settings.ts';

/** Texts a person may type into any setting: malformed, at the edges, and every word some setting takes. */
const TEXTS = [
  '',
  ' ',
  'abc',
  '1.5',
  '-1',
  '0',
  '1',
  '2',
  '3',
  '7',
  '1e400',
  '9'.repeat(45),
  '99999999999',
  '0.5',
  '1,0',
  '0,1',
  '0,0',
  'x,y',
];
const BELL = `bad\u0007${'z'.repeat(50)}`;

/** Every error the sweep reaches, each with the settings that made it (repeats included). */
export function settingsErrors(): { asked: string; error: Error }[] {
  const out: { asked: string; error: Error }[] = [];
  const tryIt = (asked: string, run: () => unknown) => {
    try {
      const r = run();
      if (r instanceof Error) throw r;
    } catch (e) {
      out.push({ asked, error: e as Error });
    }
  };
  const features: [string, readonly Setting<never>[], (get: SettingGetter) => unknown][] = [
    ['train', TRAIN_SETTINGS as never, trainConfigFrom],
    ['schedule', SCHEDULE_SETTINGS as never, scheduleSettingsFrom],
    ['dynamic', DYNAMIC_SETTINGS as never, dynamicSettingsFrom],
  ];
  for (const [name, table, from] of features) {
    const words = [...new Set(table.flatMap((s) => [...(s.choices ?? []), ...(s.none ? [s.none] : [])]))];
    for (const s of [{ key: 'preset' }, ...table]) {
      for (const text of [
        ...TEXTS,
        ...words,
        BELL,
        'on',
        'off',
        'none',
        'trl',
        'cpu',
        'webgpu',
        'dance',
        'pairwise',
        'stream',
        'rebalance',
      ]) {
        tryIt(`${name} --${s.key} ${JSON.stringify(text)}`, () => from((key) => (key === s.key ? text : null)));
      }
    }
  }
  // Pairs of train settings that meet a cross-setting rule.
  const pairs: Record<string, string>[] = [
    { 'filter-metric': 'accuracy' },
    { 'dynamic-sampling': 'stream', batch: '3', k: '2' },
    { 'dynamic-sampling': 'stream', sampler: 'flow-grpo' },
    { 'dynamic-sampling': 'fallback', loss: 'pairwise' },
    { 'dynamic-sampling': 'rebalance', advantage: 'dance' },
    { 'dynamic-sampling': 'fallback', 'gradient-accumulation-steps': '2' },
    { 'num-iterations': '2', loss: 'pairwise' },
    { 'steps-per-generation': '2', sampler: 'flow-grpo' },
    { advantage: 'dance', batch: '3', k: '2' },
    { 'epsilon-low': '0.3' },
    { ranks: '3', batch: '1', k: '2', sampler: 'flow-grpo' },
    { ranks: '64', batch: '64', k: '64' },
    { ranks: '3', k: '4', sampler: 'group-distributed' },
    // train --async's simulation settings: one its rule does not read, and the rule's and the workload's readers.
    { async: 'areal', 'sampler-policy': 'in_order' },
    { async: 'slime', 'max-inflight': '4' },
    { async: 'nemo-rl', 'sampler-policy': 'custom' },
    { async: 'areal', 'step-time': '3', 'train-tokens-per-second': '5' },
    // Over the step budget: plain, with micro-batches, with dynamic sampling, on WebGPU.
    { ranks: '64', batch: '256', k: '16', sampler: 'trl' },
    { preset: 'seed-003', ranks: '64', batch: '64', k: '4', sampler: 'trl' },
    { preset: 'seed-003', ranks: '64', batch: '64', k: '4', sampler: 'trl', backend: 'webgpu' },
    { ranks: '64', batch: '64', k: '16', sampler: 'trl', loss: 'dapo', 'gradient-accumulation-steps': '4' },
    { ranks: '64', batch: '64', k: '16', sampler: 'trl', loss: 'dapo', 'dynamic-sampling': 'fallback', 'max-resample-times': '3' },
    {
      ranks: '64',
      batch: '64',
      k: '16',
      sampler: 'trl',
      loss: 'dapo',
      'dynamic-sampling': 'fallback',
      'max-resample-times': '3',
      backend: 'webgpu',
    },
  ];
  for (const p of pairs) tryIt(`train ${JSON.stringify(p)}`, () => trainConfigFrom((key) => p[key] ?? null));
  const schedulePairs: Record<string, string>[] = [
    { latency: 'constant', policy: 'uniform' },
    { latency: 'controller', 'config-time': '5' },
    { preset: '__proto__' },
  ];
  for (const p of schedulePairs) tryIt(`schedule ${JSON.stringify(p)}`, () => scheduleSettingsFrom((key) => p[key] ?? null));
  const dynamicPairs: Record<string, string>[] = [
    { preset: Object.keys(DYNAMIC_SETTINGS.find((s) => s.key === 'preset')?.choices ?? [])[0] ?? 'none', ranks: '2' },
    ...(DYNAMIC_SETTINGS.find((s) => s.key === 'preset')?.choices ?? []).map((preset) => ({ preset, k: '4' })),
    { 'per-rank': '6', k: '4' },
    { 'per-rank': '4', k: '8' },
    { ranks: '256', 'per-rank': '32' },
  ];
  for (const p of dynamicPairs) tryIt(`dynamic ${JSON.stringify(p)}`, () => dynamicSettingsFrom((key) => p[key] ?? null));
  tryIt('dynamic policy', () => validateDynamicConfig({ ...DEFAULT_CONFIG, policy: 'nope' as never }));
  tryIt('dynamic range', () => validateDynamicConfig({ ...DEFAULT_CONFIG, range: [1, 0] }));
  // The bare readers the CLI's flags use.
  for (const text of [...TEXTS, BELL]) {
    tryIt(`readInt ${JSON.stringify(text)}`, () => readInt(text, 'flag', 1, 9));
    tryIt(`readNumber ${JSON.stringify(text)}`, () => readNumber(text, 'flag', 0, 1));
    tryIt(`readNumber+ ${JSON.stringify(text)}`, () => readNumber(text, 'flag', Number.MIN_VALUE));
    tryIt(`readNumber≥ ${JSON.stringify(text)}`, () => readNumber(text, 'flag', 2));
    tryIt(`readNumber≤ ${JSON.stringify(text)}`, () => readNumber(text, 'flag', undefined, -2));
  }
  // A layout setting the sampler does not read; an unknown sampler; verl's seqlens.
  for (const sampler of samplerNames) {
    for (const s of [...LAYOUT_SETTINGS.map((x) => x.field), 'generationBatchSize']) {
      tryIt(`given ${sampler} ${s}`, () => checkGivenSettings(sampler, [s]));
    }
  }
  tryIt('sampler nope', () => validateConfig({ ...presets['seed-000']!.config, sampler: 'nope' as never }));
  const verl = { ...presets['seed-000']!.config, sampler: 'verl' as const, batch: 4, k: 4, datasetSize: 64 };
  for (const seqlens of [[0], [1.5], [5], [99999999]]) tryIt(`seqlens ${seqlens}`, () => validateConfig({ ...verl, seqlens }));
  // The seed.
  for (const seed of [1.5, Number.NaN, 2 ** 60, 1n << 64n, -(1n << 63n) - 1n]) tryIt(`seed ${seed}`, () => seedToUint64(seed));
  // steps: framework, loss, micro-batch, lengths.
  const layouts = [
    ...Object.entries(presets).map(([name, p]) => [name, p.config] as const),
    ...samplerNames.map((sampler) => [sampler, { ...verl, sampler, ppoMiniBatchSize: 0 }] as const),
  ];
  for (const [name, config] of layouts) {
    const layout = validateConfig(config) ? null : buildLayout(config);
    if (!layout) continue;
    for (const options of [
      {},
      { framework: 'nope' },
      ...FRAMEWORK_NAMES.flatMap((framework) => [
        { framework },
        { framework, microBatch: 3 },
        { framework, microBatch: 2 },
        { framework, lengths: [5] },
      ]),
      { loss: 'nope' },
      { microBatch: 3 },
      { microBatch: 1 },
      { lengths: [5, 6] },
      { maxCompletionLength: 1 },
    ]) {
      tryIt(`steps ${name} ${JSON.stringify(options)}`, () => buildSteps(layout, options as never));
    }
  }
  for (const text of ['', '[1,', '{}', '{"a":1}', '1 2 x', '[1, -1]', '[9999]', '1 2 3'])
    tryIt(`lengths ${text}`, () => parseLengths(text, 'f.txt', 512));
  return out;
}

/** The distinct messages the sweep reaches, each with the first settings that made it. */
export function settingsEnglish(): { asked: string; said: string }[] {
  const out: { asked: string; said: string }[] = [];
  const seen = new Set<string>();
  for (const { asked, error: e } of settingsErrors()) {
    const said = `${e.name}: ${e.message} | fixes: ${JSON.stringify((e as { suggestions?: unknown }).suggestions ?? null)}`;
    if (!seen.has(said)) out.push({ asked, said });
    seen.add(said);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(process.argv[2]!, `${JSON.stringify(settingsEnglish(), null, 1)}\n`);
