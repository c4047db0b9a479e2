// The en/zh catalogues (src/ui/i18n) in Node: the same keys, the same kinds and the same
// parameters in every language; every message the core says as a fact has its English and its
// Chinese; no English left in the Chinese strings; the core's ConfigErrors and layout notes said
// from their facts; English output unchanged; lang= read from links (unknown values named) and kept
// in the explorer's links.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildLayout, defaultConfig, samplerNames, validateConfig } from '../../src/core/samplers/index.ts';
import { DYNAMIC_PRESET_NAMES, POLICIES } from '../../src/core/dynamic/index.ts';
import {
  captionFacts,
  conclusionFacts,
  headlineFacts,
  schedulePresetNames,
  schedulePresets,
  simulateSchedules,
  uniformPolicy,
  type ScheduleConfig,
} from '../../src/core/schedule/index.ts';
import {
  caption as scheduleCaption,
  conclusion as scheduleConclusion,
  headline as scheduleHeadline,
} from '../../src/core/schedule/index.ts';
import type { LayoutConfig } from '../../src/core/layout/types.ts';
import { presets } from '../../src/core/presets.ts';
import { LAYOUT_SETTINGS } from '../../src/core/settings.ts';
import { catalogue, LANGS, langOf, loadCatalogue, M, setLang, withLang } from '../../src/ui/i18n/index.ts';
import { EN, say, sayClauses } from '../../src/core/messages/index.ts';
import { clausesText, factText, type SaidFact, suggestionWords } from '../../src/ui/core-text.ts';
import { CORE_ZH } from '../../src/ui/i18n/core-zh.ts';
import { en } from '../../src/ui/i18n/en.ts';
import { parseState, stateToSearch } from '../../src/ui/url-state.ts';
import { caption } from '../../src/ui/story.ts';
import { untranslatedWords } from '../helpers/untranslated.ts';

type Shape = { path: string; kind: string; params?: string }[];

/** Every leaf of a catalogue: its path, its kind, and its parameters (a function's arity, a string's {names}). */
function shape(value: unknown, path = ''): Shape {
  if (typeof value === 'function') return [{ path, kind: 'function', params: String(value.length) }];
  if (typeof value === 'string') return [{ path, kind: 'string', params: [...value.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).join(',') }];
  if (Array.isArray(value)) return [{ path, kind: `array of ${value.length}` }];
  return Object.keys(value as object)
    .sort()
    .flatMap((k) => shape((value as Record<string, unknown>)[k], path ? `${path}.${k}` : k));
}

/** Catalogue sections whose English is the core's own text (the zh entries translate it; English leaves them empty). */
// The Chinese catalogue is a chunk of its own in the page; here it is loaded once, up front.
await loadCatalogue('zh-CN');

const CORE_SECTIONS = [
  'core.settings',
  'core.presets',
  'core.does',
  'train.charts.series',
  'dynamic.policyAbout',
  'dynamic.presetAbout',
  'dynamic.presetDraws',
  'schedule.presetIntro',
];
const isCore = (path: string) => CORE_SECTIONS.some((s) => path.startsWith(`${s}.`));

test('every catalogue has exactly the English keys, kinds and parameters', () => {
  const want = shape(en).filter((e) => !isCore(e.path));
  let keys = 0;
  for (const lang of LANGS) {
    const got = shape(catalogue(lang)).filter((e) => !isCore(e.path));
    assert.deepEqual(got, want, lang);
    keys = got.length;
  }
  assert.ok(keys > 300, `only ${keys} keys`);
});

test('the Chinese core tables cover the core: every setting, preset, sampler and regrouping', () => {
  const zh = catalogue('zh-CN');
  assert.deepEqual(Object.keys(zh.core.settings).sort(), LAYOUT_SETTINGS.map((s) => s.param).sort());
  assert.deepEqual(Object.keys(zh.core.presets).sort(), Object.keys(presets).sort());
  assert.deepEqual(Object.keys(zh.core.does).sort(), [...samplerNames].sort());
  assert.deepEqual(Object.keys(zh.dynamic.policyAbout).sort(), [...POLICIES].sort());
  assert.deepEqual(Object.keys(zh.dynamic.presetAbout).sort(), [...DYNAMIC_PRESET_NAMES].sort());
  assert.deepEqual(Object.keys(zh.dynamic.presetDraws).sort(), [...DYNAMIC_PRESET_NAMES].sort());
  assert.deepEqual(Object.keys(zh.schedule.presetIntro).sort(), [...schedulePresetNames].sort());
});

test('no Chinese string holds an English word outside the allowed terms and identifiers', () => {
  const bad: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      const words = untranslatedWords(value);
      if (words.length > 0) bad.push(`${path}: ${words.join(', ')}`);
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${path}[${i}]`));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, path ? `${path}.${k}` : k);
  };
  // The lead-in says "original text" in Chinese; the English catalogue is not checked. The tours'
  // captions quote framework identifiers and log lines by the dozen (shape mismatch, Expected all
  // tensors on the same device…): test/ui/tour-state.test.ts checks each has Chinese in it.
  const { tours: _tours, ...checked } = catalogue('zh-CN');
  visit(checked, '');
  assert.deepEqual(bad, []);
});

test('every message the core says as a fact has its English and its Chinese template', () => {
  const ids = Object.keys(EN).sort();
  assert.ok(ids.length > 60, `only ${ids.length} messages`);
  assert.deepEqual(Object.keys(CORE_ZH).sort(), ids);
  for (const id of ids) {
    assert.equal(typeof (EN as Record<string, unknown>)[id], 'function', id);
    assert.equal(typeof (CORE_ZH as Record<string, unknown>)[id], 'function', id);
  }
  // The page's own facts: the same ids in both catalogues.
  assert.deepEqual(Object.keys(catalogue('zh-CN').pageFacts).sort(), Object.keys(en.pageFacts).sort());
});

test('core ConfigErrors in Chinese from their facts; English unchanged', () => {
  const err = validateConfig({ ...presets['seed-000']!.config, k: 3 });
  assert.ok(err?.clauses);
  assert.equal(sayClauses(err.clauses), err.message, 'the message is its clauses in English');
  setLang('zh-CN');
  try {
    const text = clausesText(err.clauses);
    assert.match(text, /^k=3 必须整除 ranks×batch=16；此处可用的 k：1, 2, 4, 8, 16；或batch=3 \(→24\)；或改用 --sampler flow-grpo-lcm；/);
    assert.match(text, /报错：`AssertionError: k can not divide n\*b, k3-num_replicas8-batch_size2`。$/);
    assert.equal(
      suggestionWords({ k: 2, batch: 4 }, () => 'unused'),
      '每个 prompt 的副本数（k） = 2，每 rank batch（B） = 4',
    );
  } finally {
    setLang('en');
  }
});

test('lang= in links: zh-CN (and hand-typed zh) read, unknown values named, English links unchanged; the explorer keeps it', () => {
  assert.deepEqual(langOf('?lang=zh-CN'), { lang: 'zh-CN', unknown: null });
  assert.deepEqual(langOf('?lang=zh'), { lang: 'zh-CN', unknown: null });
  assert.deepEqual(langOf('?preset=seed-000'), { lang: 'en', unknown: null });
  assert.deepEqual(langOf('?lang=fr'), { lang: 'en', unknown: 'fr' });
  assert.equal(withLang('?preset=seed-000', 'zh-CN'), '?preset=seed-000&lang=zh-CN');
  assert.equal(withLang('?preset=seed-000&lang=zh-CN', 'en'), '?preset=seed-000');
  const state = parseState('?preset=seed-000', defaultConfig, presets);
  const english = stateToSearch(state);
  assert.ok(!english.includes('lang='));
  setLang('zh-CN');
  try {
    assert.equal(stateToSearch(state), `${english}&lang=zh-CN`);
    assert.equal(M().config.title, '配置');
  } finally {
    setLang('en');
  }
  assert.equal(M().config.title, 'Configuration');
});

test('captions are templates in both languages over the same core facts', () => {
  const ctx = {
    config: presets['seed-000']!.config,
    steps: 2,
    gatherIndex: 0,
    gatherCount: 1,
    gatherScope: 'epoch' as const,
    samples: 32,
    perRank: 4,
    prompts: 8,
    regroup: 'prompt-id' as const,
    groups: 8,
    mixedGroups: 0,
    facts: {
      steps: [
        { stepIndex: 0, samples: 16, draws: 4 },
        { stepIndex: 1, samples: 16, draws: 4 },
      ],
      draws: 8,
      drawsAcrossSteps: 0,
      drawsWholeOnOneRank: 0,
      maxCopiesOnOneRank: 1,
      maxCopiesOnOneRankInStep: 1,
    },
    offSizeGroups: 0,
    tiedGroups: 0,
    rewards: 'random' as const,
    scale: 'group' as const,
    whatIf: null,
  } as unknown as Parameters<typeof caption>[1];
  const english = caption('accumulate', ctx);
  assert.match(english, /^Each rank concatenates its 2 batches: 2 × 2 = 4 samples per rank\. No rank holds two copies/);
  setLang('zh-CN');
  try {
    const zh = caption('accumulate', ctx);
    assert.match(zh, /^每个 rank 拼接它的 2 个 batch：2 × 2 = 每个 rank 4 个样本。没有哪个 rank 持有同一组的两个副本/);
    assert.deepEqual(untranslatedWords(zh), []);
  } finally {
    setLang('en');
  }
});

test('schedule headline, captions and conclusion: the core English in en, Chinese templates over the same facts in zh-CN', () => {
  const seed = schedulePresets['seed-001']!.config;
  const controller = { kind: 'controller', policy: uniformPolicy(), unit: 'ms' } as unknown as ScheduleConfig['latency'];
  const configs: [string, ScheduleConfig][] = [
    ['seed-001', seed],
    ['alpha 0.3, max-batch 3, 6 ranks', { ...seed, alpha: 0.3, maxBatch: 3, ranks: 6 }],
    ['3 ranks, gather cost', { ...seed, ranks: 3, gatherCost: 0.5 }],
    ['controller latency, alpha 0.2', { ...seed, latency: controller, alpha: 0.2, seed: 3 }],
    ['controller latency, 1 rank', { ...seed, latency: controller, ranks: 1, batch: 2, k: 8 }],
  ];
  for (const [name, config] of configs) {
    const r = simulateSchedules(config);
    const shown = r.schemes.slice(1);
    // English: exactly the text the CLI prints.
    assert.equal(en.schedule.explain.headline(headlineFacts(r)), scheduleHeadline(r), name);
    assert.equal(en.schedule.explain.conclusion(conclusionFacts(r, shown)), scheduleConclusion(r, shown), name);
    for (const s of r.schemes) assert.equal(en.schedule.explain.caption(captionFacts(r, s)), scheduleCaption(r, s), `${name}: ${s.scheme}`);
    const zh = catalogue('zh-CN').schedule.explain;
    const texts = [zh.headline(headlineFacts(r)), zh.conclusion(conclusionFacts(r)), zh.conclusion(conclusionFacts(r, shown))];
    texts.push(...r.schemes.map((s) => zh.caption(captionFacts(r, s))));
    for (const text of texts) {
      assert.deepEqual(untranslatedWords(text), [], `${name}: ${text}`);
      assert.match(text, /[\u4e00-\u9fff]/, `${name}: ${text}`);
    }
    // The same numbers in both languages: the makespans and speed-ups quoted by each caption.
    for (const s of r.schemes) {
      const numbers = (t: string) => (t.match(/\d+(\.\d+)?(T|×| ms\b| s\b)/g) ?? []).sort();
      const enNums = numbers(scheduleCaption(r, s));
      const zhNums = numbers(zh.caption(captionFacts(r, s)));
      assert.deepEqual(zhNums, enNums, `${name}: ${s.scheme}`);
    }
  }
  const seedZh = catalogue('zh-CN').schedule.explain.caption(captionFacts(simulateSchedules(seed), simulateSchedules(seed).schemes[0]!));
  assert.match(seedZh, /全部 20 个配置在 rank 0 上一个接一个地运行：20T，而 rank 1–3 整个 step 都处于空闲。$/);
});

test('the preset stories (schedule seed-001, dynamic seed-002/004 and their draws) in Chinese without English words', () => {
  const zh = catalogue('zh-CN');
  const texts = [zh.schedule.presetIntro, zh.dynamic.presetAbout, zh.dynamic.presetDraws].flatMap((t) => Object.values(t));
  for (const text of texts) {
    assert.deepEqual(untranslatedWords(text), [], text);
  }
});

test('the samplers’ layout notes in Chinese: every note the core says for the presets and their variations, from its fact', () => {
  const seen = new Set<string>();
  for (const sampler of samplerNames) {
    for (const preset of Object.values(presets)) {
      for (const change of [
        {},
        { datasetSize: preset.config.datasetSize + 1 },
        { datasetSize: preset.config.datasetSize * 2 + 3, batchesPerEpoch: 1 },
        { numIterations: 2 },
        { stepsPerGeneration: 2, gradientAccumulationSteps: 2 },
        { k: 2 },
        { k: 3 },
      ]) {
        let notes: { id: string; params: object }[];
        try {
          notes = buildLayout({ ...preset.config, sampler, ...change }).notes;
        } catch {
          continue; // a combination the core refuses has no notes to show
        }
        for (const note of notes) {
          const patternOf = say(note).replace(/\d+/g, '#');
          if (seen.has(patternOf)) continue;
          seen.add(patternOf);
          setLang('zh-CN');
          try {
            const zh = factText(note);
            assert.match(zh, /[\u4e00-\u9fff]/, zh);
            assert.deepEqual(untranslatedWords(zh), [], zh);
          } finally {
            setLang('en');
          }
        }
      }
    }
  }
  assert.ok(seen.size >= 12, `only ${seen.size} distinct notes reached`);
});

test('core ConfigErrors the explorer settings reach: every one said as facts, in zh-CN with no English words', async () => {
  // The sweeps that record the CLI's English (scripts/i18n/core-english.ts): each sampler × preset × one setting at an
  // edge value, and the schedule view's settings.
  const { layoutSweep, scheduleSweep } = await import('../../scripts/i18n/core-english.ts');
  const untranslated: string[] = [];
  const english: string[] = [];
  const check = (err: Error & { clauses?: readonly { id: string; params: object; or?: true }[] | null }) => {
    if (!err.clauses) {
      untranslated.push(err.message);
      return;
    }
    const zh = clausesText(err.clauses);
    if (untranslatedWords(zh).length > 0) english.push(`${zh}: ${untranslatedWords(zh).join(', ')}`);
  };
  let messages = 0;
  setLang('zh-CN');
  try {
    for (const { error } of [...layoutSweep(), ...scheduleSweep()]) {
      if (!error) continue;
      messages++;
      check(error);
    }
  } finally {
    setLang('en');
  }
  assert.ok(messages > 100, `only ${messages} errors reached`);
  assert.deepEqual(untranslated, []);
  assert.deepEqual([...new Set(english)], []);
});

test('every settings error the sweep reaches is said as facts: its English from them, its Chinese typed', async () => {
  const { settingsErrors } = await import('../../scripts/i18n/settings-english.ts');
  const english: string[] = [];
  const only: string[] = [];
  for (const { asked, error } of settingsErrors()) {
    const clauses = (error as { clauses?: readonly SaidFact[] | null }).clauses;
    if (!clauses) {
      only.push(`${asked}: ${error.message}`);
      continue;
    }
    // The train command adds which of its flags set the layout to a layout rule's English.
    assert.equal(error.message.replace(/ \(flags --ranks --batch --k --sampler\)$/, ''), sayClauses(clauses), asked);
    english.push(clausesText(clauses, true));
    setLang('zh-CN');
    try {
      assert.match(clausesText(clauses), /[\u4e00-\u9fff]/, asked);
    } finally {
      setLang('en');
    }
  }
  assert.ok(english.length > 1500, `only ${english.length} errors said as facts`);
  for (const text of english) assert.doesNotMatch(text, /(^|[^-])--[a-z]/, 'a form names a setting by its key');
  assert.deepEqual(only, [], 'said in English only');
});

test('what `steps` finds, in Chinese: every finding and note the frameworks reach, from its fact, with the same numbers', async () => {
  const { buildSteps, FRAMEWORK_NAMES, FRAMEWORKS } = await import('../../src/core/steps/index.ts');
  const { STEPS_EN } = await import('../../src/core/messages/steps.ts');
  const trl: Partial<LayoutConfig> = {
    sampler: 'trl',
    ranks: 2,
    batch: 2,
    k: 2,
    datasetSize: 8,
    seed: 3,
    numWorkers: 0,
    acceleratePrepare: 0,
  };
  const changes: Partial<LayoutConfig>[] = [
    {},
    { stepsPerGeneration: 2, gradientAccumulationSteps: 3 },
    { stepsPerGeneration: 4, gradientAccumulationSteps: 2, datasetSize: 16 },
    { numIterations: 2 },
  ];
  const facts: { id: string; params: object }[] = [];
  for (const name of FRAMEWORK_NAMES) {
    const spec = FRAMEWORKS[name]!;
    facts.push({ id: 'steps.pinned', params: { name, pinnedTo: spec.pinnedTo } });
    const sampler = samplerNames.find((s) => spec.accepts(s))!;
    for (const loss of spec.losses) {
      for (const change of changes) {
        const config = { ...defaultConfig, ...trl, sampler, ...change } as LayoutConfig;
        if (validateConfig(config) !== null) continue;
        try {
          const r = buildSteps(buildLayout(config), { framework: name, loss });
          facts.push(...r.findings, ...r.notes);
          for (const m of r.steps.flatMap((x) => x.microBatches)) facts.push({ id: 'steps.normaliser', params: m.normaliserTerms });
        } catch {
          // a batching the framework refuses (verl: GA must divide the rank's samples) has no findings
        }
      }
    }
  }
  // flow_grpo's accumulation across epochs: micro-steps never applied.
  const flow = {
    ...defaultConfig,
    ...trl,
    sampler: 'flow-grpo',
    batchesPerEpoch: 3,
    datasetSize: 20,
    gradientAccumulationSteps: 2,
  } as LayoutConfig;
  const flowReport = buildSteps(buildLayout(flow));
  facts.push(...flowReport.findings, { id: 'steps.normaliser', params: flowReport.steps[0]!.microBatches[0]!.normaliserTerms });
  const kinds = new Set(facts.filter((f) => f.id === 'steps.normaliser').map((f) => (f.params as { kind: string }).kind));
  assert.equal(kinds.size, 17, `every normaliser formula is reached (${[...kinds].join(', ')})`);
  assert.deepEqual([...new Set(facts.map((f) => f.id))].sort(), Object.keys(STEPS_EN).sort(), 'every finding and note is reached');
  const seen = new Set<string>();
  for (const f of facts) {
    const english = say(f);
    if (seen.has(english.replace(/\d+/g, '#'))) continue;
    seen.add(english.replace(/\d+/g, '#'));
    setLang('zh-CN');
    try {
      const zh = factText(f);
      assert.match(zh, /[\u4e00-\u9fff]/, zh);
      assert.deepEqual(untranslatedWords(zh), [], zh);
      const numbers = (s: string) => (s.match(/\d+(\.\d+)?/g) ?? []).sort();
      for (const x of numbers(english)) assert.ok(zh.includes(x), `${x} of "${english}" missing from "${zh}"`);
    } finally {
      setLang('en');
    }
  }
});
