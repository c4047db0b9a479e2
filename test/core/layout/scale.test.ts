// Layout work stays linear in its output: sparse per-group counts (no ranks-long array per
// group), the copies index, suggested fixes that pass the validator, budgets before work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copiesOf, gathers, layoutStats, promptsOfStep, type LayoutConfig } from '../../../src/core/layout/index.ts';
import { buildLayout, defaultConfig, validateConfig } from '../../../src/core/samplers/index.ts';
import { layoutEstimate } from '../../../src/core/samplers/estimate.ts';
import { overBudget } from '../../../src/core/budget.ts';
import { main } from '../../../src/cli/main.ts';
import { memoryIo } from '../../../src/cli/io.ts';

const cfg = (c: Partial<LayoutConfig>): LayoutConfig => ({ ...defaultConfig, ...c });

test('statistics of 10^4 ranks × 2·10^4 samples (a ranks-long array per group ran out of memory): histograms add up', () => {
  const layout = buildLayout(cfg({ ranks: 10_000, batch: 1, k: 1, datasetSize: 20_000, batchesPerEpoch: 2 }));
  const s = layoutStats(layout);
  assert.equal(s.groups, 20_000);
  // Every (group, rank) pair is counted: 1 copy on one rank, 0 on the others.
  assert.deepEqual(s.copiesPerRankHistogram, [20_000 * 9_999, 20_000]);
  assert.deepEqual(s.ranksSpannedHistogram, [0, 20_000]);
  assert.equal(s.maxCopiesOnOneRank, 1);
});

test('sparse counts give the same histograms as dense counting on seed-000-like layouts', () => {
  for (const c of [
    cfg({}),
    cfg({ sampler: 'flow-grpo-lcm', k: 3, datasetSize: 64, batchesPerEpoch: 3 }),
    cfg({ sampler: 'trl', ranks: 4, batch: 6, k: 3, datasetSize: 40 }),
  ]) {
    const layout = buildLayout(c);
    const s = layoutStats(layout);
    const dense = new Map<string, number[]>();
    for (const g of gathers(layout))
      for (const x of g.samples) {
        const counts = dense.get(x.uid) ?? new Array<number>(c.ranks).fill(0);
        counts[x.rank]! += 1;
        dense.set(x.uid, counts);
      }
    const hist: number[] = new Array<number>(s.copiesPerRankHistogram.length).fill(0);
    for (const counts of dense.values()) for (const n of counts) hist[n]! += 1;
    assert.deepEqual(s.copiesPerRankHistogram, hist);
  }
});

test('copiesOf from the index equals a scan of every gather', () => {
  const layout = buildLayout(cfg({ sampler: 'flow-grpo-lcm', k: 3, ranks: 4, batch: 2, datasetSize: 40, batchesPerEpoch: 5, epochs: 2 }));
  for (let si = 0; si < layout.steps.length; si++) {
    for (const id of promptsOfStep(layout, si)) {
      const scan = gathers(layout).flatMap((g) =>
        g.samples.flatMap((x, gatheredIndex) =>
          x.promptId === id && x.stepIndex === si ? [{ rank: x.rank, stepIndex: si, slot: x.slot, gatheredIndex }] : [],
        ),
      );
      assert.deepEqual(copiesOf(layout, id, si), scan);
    }
  }
  const all = gathers(layout).flatMap((g) =>
    g.samples.flatMap((x, gi) => (x.promptId === 3 ? [{ rank: x.rank, stepIndex: x.stepIndex, slot: x.slot, gatheredIndex: gi }] : [])),
  );
  assert.deepEqual(copiesOf(layout, 3), all);
});

test('every suggested fix passes the validator; none is offered that cannot work', () => {
  const bad: Partial<LayoutConfig>[] = [
    { ranks: 1000, batch: 2, k: 2, datasetSize: 10_000, batchesPerEpoch: 1001, epochs: 2 },
    { sampler: 'trl', ranks: 1000, batch: 2, k: 2, datasetSize: 4_000_000, epochs: 3 },
    { sampler: 'contiguous', ranks: 1000, batch: 2, k: 2, datasetSize: 10_000_000, epochs: 300 },
    { ranks: 1000, batch: 2, k: 2, datasetSize: 10_000, batchesPerEpoch: 1001, epochs: 1 },
    { k: 3 },
    { sampler: 'contiguous', batch: 4, k: 3 },
    { sampler: 'group-distributed', ranks: 3, k: 4 },
  ];
  for (const c of bad) {
    const err = validateConfig(cfg(c));
    assert.ok(err, JSON.stringify(c));
    // The old text offered "use fewer epochs (epochs=1)" at epochs=1 and dataset sizes for flow-grpo, where they change nothing.
    assert.doesNotMatch(err.message, /epochs=1\)/);
    for (const fix of err.suggestions)
      assert.equal(validateConfig(cfg({ ...c, ...fix })), null, `${JSON.stringify(c)} + ${JSON.stringify(fix)}`);
  }
  // Huge ranks × batch is refused at once (the suggestion search listed every divisor, for minutes).
  const huge = validateConfig(cfg({ ranks: 100_000_000, batch: 1_000_000_000, k: 3 }));
  assert.match(
    huge!.message,
    /^one step holds ranks×batch=100000000000000000 samples, above the sandbox's limit of 2000000; lower --ranks or --batch$/,
  );
  // A seed beyond 2^53 is not printed as a rounded double.
  assert.doesNotMatch(validateConfig(cfg({ seed: 2 ** 60 }))!.message, /1152921504606846976|e\+/);
});

test('budgets: estimate, budget and flags in one line, before anything is built', async () => {
  const c = cfg({ ranks: 1000, batch: 2, k: 2, datasetSize: 10_000, batchesPerEpoch: 1000 });
  assert.ok(layoutEstimate(c, 'text').bytes > layoutEstimate(c, 'json').bytes);
  assert.equal(overBudget('x', { bytes: 1, ms: 1 }, '--a'), null);
  assert.equal(
    overBudget('x', { bytes: 3 * 1024 ** 3, ms: 45_000 }, '--a')!.message,
    'x would need about 3.00 GB of memory (budget 2.00 GB) and about 45.0 s (budget 30.0 s); lower --a',
  );
  const io = memoryIo();
  const code = await main(
    ['layout', '--ranks', '1000', '--batch', '2', '--k', '2', '--dataset-size', '10000', '--batches-per-epoch', '1000'],
    io,
  );
  assert.equal(code, 2);
  assert.equal(io.stdout, '');
  assert.match(
    io.stderr,
    new RegExp(
      "^grpo-sandbox layout: this layout's text report would need about [\\d.]+ GB of memory \\(budget 2\\.00 GB\\)(?: and about [\\d.]+ s " +
        '\\(budget 30\\.0 s\\))?; lower --epochs, --batches-per-epoch \\(or --dataset-size\\), --ranks or --batch, or use --json\\n$',
    ),
  );
});

/**
 * Every fix a message prints in its text (not only its structured suggestions), as partial
 * settings: "valid k here: 1, 2", "valid ranks here: 2", "batch=3", "use --sampler S",
 * "dataset-size ≥ N", "batches-per-epoch ≤ N" and "batches-per-epoch=N".
 */
function printedFixes(message: string): Partial<LayoutConfig>[] {
  const ours = message.split(/; \S+ [^;]* raises: /)[0]!;
  const fixes: Partial<LayoutConfig>[] = [];
  for (const m of ours.matchAll(/valid (k|ranks) here: ([\d, ]+)/g))
    for (const v of m[2]!.split(', ').filter(Boolean)) fixes.push({ [m[1]!]: Number(v) } as Partial<LayoutConfig>);
  for (const m of ours.matchAll(/(?<![×\w])batch=(\d+)(?![\d]| must)/g)) fixes.push({ batch: Number(m[1]) });
  for (const m of ours.matchAll(/use --sampler (\S+)/g)) fixes.push({ sampler: m[1] as LayoutConfig['sampler'] });
  for (const m of ours.matchAll(/dataset-size ≥ (\d+)/g)) fixes.push({ datasetSize: Number(m[1]) });
  for (const m of ours.matchAll(/batches-per-epoch(?: ≤ |=)(\d+)(?![\d]| is)/g)) fixes.push({ batchesPerEpoch: Number(m[1]) });
  return fixes;
}

test('every fix printed in the text, inline lists included, passes the validator (it used to be only the structured ones)', () => {
  // The audit's cases: with dataset-size 1 only k=16 works; with 10^6 epochs no single k or batch does.
  const one = validateConfig(cfg({ k: 3, datasetSize: 1 }))!;
  assert.match(one.message, /^k=3 must divide ranks×batch=16; valid k here: 16; flow_grpo/);
  assert.deepEqual(one.suggestions, [{ k: 16 }]);
  const dance = validateConfig(cfg({ sampler: 'dance-grpo', batch: 2, k: 4, epochs: 1_000_000 }))!;
  assert.doesNotMatch(dance.message, /valid k|batch=4/);
  assert.match(dance.message, /no single setting fixes it, change several$/);
  // Seeded random bad configurations over every sampler: each printed value passes.
  let a = 7;
  const r = (n: number) => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return a % n;
  };
  const samplers = ['flow-grpo', 'flow-grpo-lcm', 'trl', 'contiguous', 'dance-grpo', 'group-distributed'] as const;
  let checked = 0;
  for (let i = 0; i < 600; i++) {
    const c = cfg({
      sampler: samplers[r(samplers.length)]!,
      ranks: 1 + r(12),
      batch: 1 + r(12),
      k: 1 + r(12),
      batchesPerEpoch: 1 + r(6),
      epochs: [1, 3, 1000, 100_000][r(4)]!,
      datasetSize: [1, 5, 32, 1000, 10_000_000][r(5)]!,
      stepsPerGeneration: 1 + r(3),
    });
    const err = validateConfig(c);
    if (!err) continue;
    for (const fix of printedFixes(err.message)) {
      checked++;
      assert.equal(validateConfig({ ...c, ...fix }), null, `${err.message}\n${JSON.stringify(c)} + ${JSON.stringify(fix)}`);
    }
    for (const fix of err.suggestions)
      assert.equal(validateConfig({ ...c, ...fix }), null, `${JSON.stringify(c)} + ${JSON.stringify(fix)}`);
  }
  assert.ok(checked > 200, `only ${checked} printed fixes checked`);
});

test('the suggestion search is bounded: a rule broken on a 2·10^6-sample step with 288 divisors answers (bench it, never time it here)', () => {
  // 1,441,440 has 288 divisors; every one fails the size limit with these epochs, so all are candidates.
  const err = validateConfig(cfg({ ranks: 1, batch: 1_441_440, k: 7, datasetSize: 10_000_000, epochs: 1000 }))!;
  assert.match(err.message, /no single setting fixes it/);
});
