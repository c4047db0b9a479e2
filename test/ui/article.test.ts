// The sample article (public/embed.html) says only what the core computes: every number it
// states sits in a `data-fact` element, and each fact is recomputed here from the core (the
// layout of seed-000, its gather regrouped by view(-1, k), seed-002's dynamic-sampling step as
// the figure draws it, seed-001's schedules). Both languages state the same facts; the article
// keeps no test scaffolding; its links are real addresses; each embedded figure has the
// `figure` attribute (a picture and at most one control).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gathers, regroup } from '../../src/core/layout/index.ts';
import { presets } from '../../src/core/presets.ts';
import { buildLayout } from '../../src/core/samplers/index.ts';
import { schedulePresets, simulateSchedules } from '../../src/core/schedule/index.ts';
import { dynamicRequest } from '../../src/ui/dynamic/dynamic-request.ts';
import { traceStep } from '../../src/ui/dynamic/dynamic-trace.ts';
import { compareAdvantages } from '../../src/core/grpo/compare.ts';
import { compareWeights, weightSchemes } from '../../src/core/grpo/compare-weights.ts';
import { cellText } from '../../src/ui/compare/advantages-figure.ts';
import { weightCell } from '../../src/ui/compare/weights-figure.ts';
import { DEFAULT_BATCH, parseList } from '../../src/ui/compare/advantages-request.ts';
import { asyncRequest } from '../../src/ui/async/async-request.ts';
import { traceRun } from '../../src/ui/async/async-trace.ts';

const html = readFileSync(new URL('../../public/embed.html', import.meta.url), 'utf8');
const article = html.slice(html.indexOf('<article>'), html.indexOf('</article>'));

/** Every fact the article may state, computed from the core. */
async function facts(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  // seed-000: flow_grpo's sampler.
  const layout = buildLayout(presets['seed-000']!.config);
  const c = layout.config;
  const step0 = layout.steps[0]!.ranks;
  const batchSamples = step0.flat().length;
  let maxOnRank = 0;
  for (const step of layout.steps)
    for (const rank of step.ranks) {
      const counts = new Map<number, number>();
      for (const id of rank) counts.set(id, (counts.get(id) ?? 0) + 1);
      maxOnRank = Math.max(maxOnRank, ...counts.values());
    }
  const gather = gathers(layout)[0]!;
  const rows = regroup(gather, 'view', c.k);
  Object.assign(out, {
    'seed-000.ranks': c.ranks,
    'seed-000.batch': c.batch,
    'seed-000.k': c.k,
    'seed-000.batch-samples': batchSamples,
    'seed-000.batch-prompts': new Set(step0.flat()).size,
    'seed-000.max-copies-on-a-rank': maxOnRank,
    'seed-000.gathered': gather.samples.length,
    'seed-000.view-rows': rows.length,
    'seed-000.view-mixed': rows.filter((r) => r.mixed).length,
  });
  // seed-002: the dynamic-sampling step the figure draws.
  const req = dynamicRequest({ preset: 'seed-002' });
  const plan = (await traceStep(req.config, req.rewards)).plan;
  Object.assign(out, {
    'seed-002.ranks': req.config.ranks,
    'seed-002.per-rank': req.config.perRank,
    'seed-002.target': plan.target,
    'seed-002.max-resample': req.config.maxResampleTimes,
    'seed-002.shortage': plan.shortage,
    'seed-002.last-slice': plan.slices.at(-1)!.samples.length,
  });
  plan.events.forEach((e, i) => {
    out[`seed-002.pool-${i}`] = String(e.pool);
  });
  // seed-001: the schedules.
  const sc = schedulePresets['seed-001']!.config;
  const r = simulateSchedules(sc);
  const scheme = (name: string) => r.schemes.find((s) => s.scheme === name)!;
  Object.assign(out, {
    'seed-001.batch': sc.batch,
    'seed-001.k': sc.k,
    'seed-001.ranks': sc.ranks,
    'seed-001.configs': r.configurations.length,
    'seed-001.serial': `${scheme('serial-dp').makespan}${r.unit}`,
    'seed-001.per-rank': `${scheme('per-rank-serial').makespan}${r.unit}`,
    'seed-001.idle-ranks': sc.ranks - 1,
    'seed-001.speedup': scheme('per-rank-serial').speedup,
  });
  // The advantages figure's default batch: slime's flat prompt 0, and prompt 3's lone completion (the last) under TRL and verl.
  const list = (text: string) => (parseList(text) as { values: number[] }).values;
  const batch = { rewards: list(DEFAULT_BATCH.rewards), promptIds: list(DEFAULT_BATCH.prompts), k: Number(DEFAULT_BATCH.k) };
  const adv = (scheme: string, i: number) => cellText(compareAdvantages(batch, [scheme]).columns[0]!.advantages![i]!);
  const lone = batch.rewards.length - 1;
  Object.assign(out, {
    'advantages.slime-flat': adv('slime', 0),
    'advantages.trl-lone': adv('trl-group', lone),
    'advantages.verl-lone': adv('verl', lone),
  });
  // The weights panels of the same figure (seeded lengths): prompt 2's two successes, #8 and #10, under TRL's dapo and grpo.
  const w = compareWeights(batch, compareAdvantages(batch, weightSchemes()));
  const col = (name: string) => w.columns.findIndex((c) => c.name === name);
  const [long, short] = [8, 10];
  assert.equal(batch.rewards[long], batch.rewards[short], 'the article compares two completions of one reward');
  assert.equal(batch.promptIds[long], batch.promptIds[short], 'of one prompt');
  assert.equal(weightCell(w, col('trl-grpo'), long, 'total'), weightCell(w, col('trl-grpo'), short, 'total'), 'grpo: both add the same');
  assert.equal(
    weightCell(w, col('slime'), long, 'weight'),
    weightCell(w, col('trl-grpo'), long, 'weight'),
    'slime averages each completion too',
  );
  assert.equal(w.lengths.length, 12, 'the article’s × 12');
  Object.assign(out, {
    'weights.long-tokens': w.lengths[long],
    'weights.short-tokens': w.lengths[short],
    'weights.dapo-long': weightCell(w, col('trl'), long, 'total'),
    'weights.dapo-short': weightCell(w, col('trl'), short, 'total'),
    'weights.grpo-both': weightCell(w, col('trl-grpo'), long, 'total'),
  });
  // The asynchronous figure: TRL's async trainer on the view's default workload, at its shipped bound and at 1 (the figure's).
  const trl = (bound: string | null) => {
    const r = asyncRequest({ framework: 'trl-async', 'max-staleness': bound });
    return { ...traceRun(r.workload, r.def, r.values).result, workload: r.workload };
  };
  const shipped = trl(null);
  const strict = trl('1');
  assert.ok(strict.summary.lengthBias.bias < 0, 'the article says shorter');
  Object.assign(out, {
    'async.gen-workers': shipped.workload.genWorkers,
    'async.concurrency': shipped.workload.concurrency,
    'async.batch': shipped.workload.trainBatchSize,
    'async.k': shipped.workload.k,
    'async.trl-shipped': shipped.settings.max_staleness,
    'async.trl-shipped-dropped': shipped.dropped.length,
    'async.trl-strict': strict.settings.max_staleness,
    'async.trl-strict-dropped': strict.dropped.length,
    'async.trl-strict-hard':
      strict.summary.lengthBias.byDifficulty.hard!.trained === 0 ? strict.summary.lengthBias.byDifficulty.hard!.generated : 'some trained',
    'async.trl-strict-shorter': `${(-strict.summary.lengthBias.bias * 100).toFixed(1)}%`,
  });
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, String(v)]));
}

/** The facts stated in the paragraphs of one language. */
function stated(lang: string): [string, string][] {
  const out: [string, string][] = [];
  for (const p of article.matchAll(/<(p|h2|figcaption)[^>]*\blang="([^"]+)"[^>]*>([\s\S]*?)<\/\1>/g)) {
    if (p[2] !== lang) continue;
    for (const m of p[3]!.matchAll(/<span data-fact="([^"]+)">([^<]*)<\/span>/g)) out.push([m[1]!, m[2]!]);
  }
  return out;
}

test('every number the article states is the core’s, in both languages', async () => {
  const truth = await facts();
  const en = stated('en');
  const zh = stated('zh-CN');
  assert.ok(en.length >= 25, `${en.length} facts stated in English`);
  for (const [id, value] of [...en, ...zh]) {
    assert.ok(Object.hasOwn(truth, id), `the article states a fact the test does not know: ${id}`);
    assert.equal(value, truth[id], id);
  }
  assert.deepEqual(
    [...new Set(zh.map(([id]) => id))].sort(),
    [...new Set(en.map(([id]) => id))].sort(),
    'both languages state the same facts',
  );
  // No fact outside a language's paragraph (a number the test would miss).
  const all = [...article.matchAll(/data-fact="/g)].length;
  assert.equal(all, en.length + zh.length);
});

test('the article: one point per figure, figures only, no scaffolding, real links', () => {
  const figures = [...article.matchAll(/<(grpo-[a-z]+)([^>]*)>/g)];
  assert.equal(figures.length, 7);
  for (const f of figures) assert.match(f[2]!, /\bfigure\b/, `${f[1]} is embedded as a figure`);
  assert.equal([...article.matchAll(/<h2>/g)].length, figures.length + 1, 'one section per figure, then further reading');
  assert.doesNotMatch(html, /height:\s*1400px|far below|id="far"/);
  assert.doesNotMatch(article, /learns how many samples|shape error/);
  const links = [...article.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
  for (const href of links) assert.match(href, /^(https:\/\/|\.\/\?|\?)/, href);
  assert.ok(links.filter((h) => h.startsWith('https://')).length >= 5);
});
