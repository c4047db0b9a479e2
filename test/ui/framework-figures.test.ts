// <grpo-framework>'s pure parts: the picture of every home (its defaults and each preset: drawn, or refused
// with a ConfigError in the framework's words), the tiles and bars drawn from the core's steps and packed
// micro-batches (each tile the prompt its rank trains on, each bar the prompt of its sample, a strip per
// micro-batch), the packing switch moving a prompt's copies, the budget line only where the framework packs
// under one, padding micro-batches hatched on the ranks that run them, and where a prompt's copies sit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/core/errors.ts';
import { packingBudget } from '../../src/core/frameworks/budget.ts';
import { FRAMEWORK_HOMES, frameworkHome } from '../../src/core/frameworks/index.ts';
import { en } from '../../src/ui/i18n/en.ts';
import {
  copiesOf,
  FRAMEWORK_ATTRIBUTES,
  frameworkPicture,
  frameworkRequest,
  packingSwitches,
  promptOfSample,
  SHOWN_STEPS,
} from '../../src/ui/frameworks/framework-model.ts';
import { CELL_TILES, layoutFigure } from '../../src/ui/frameworks/layout-figure.ts';
import { packingFigure, SHOWN_MICRO } from '../../src/ui/frameworks/packing-figure.ts';

const W = en.framework;
const layoutWords = { rank: W.rank, step: W.stepLabel, more: W.more, moreRanks: W.moreRanks, tile: W.tile };
const packingWords = {
  rank: W.rank,
  microBatches: W.microBatches,
  padding: W.padding,
  paddingStrip: W.paddingStrip,
  micro: W.micro,
  bar: W.bar,
  budget: W.budgetLine,
  more: W.moreMicro,
  moreRanks: W.moreRanksPacked,
};

const attrsOf = (svg: string, re: RegExp) => [...svg.matchAll(re)].map((m) => m[1]!);

/** NeMo RL on 2 ranks, 4 prompts × 4 copies (the packing tour's settings), packing on or off. */
const nemo = (packing: boolean) =>
  frameworkPicture(
    frameworkRequest({ framework: 'nemo-rl', ranks: '2', 'train-batch-size': '4', k: '4', 'sequence-packing': String(packing) }, null),
    0,
  );

test('every home: its defaults and each preset draw a layout (and its packing where it packs), or the framework refuses them in its words', () => {
  let drawn = 0;
  let packedDrawn = 0;
  for (const home of FRAMEWORK_HOMES) {
    for (const preset of [null, ...home.presets.map((p) => p.name)]) {
      let picture: ReturnType<typeof frameworkPicture>;
      try {
        picture = frameworkPicture(frameworkRequest({ framework: home.name, preset }, null), 0);
      } catch (e) {
        assert.ok(e instanceof ConfigError, `${home.name} ${preset}: ${(e as Error).message}`);
        continue;
      }
      drawn++;
      assert.ok(picture.steps.length >= 1 && picture.steps.length <= SHOWN_STEPS);
      const svg = layoutFigure(picture.steps, picture.first, layoutWords);
      // Each cell shows the rank's first tiles, each labelled by the prompt the rank trains on there.
      const expected = picture.steps.flatMap((s) => s.ranks.slice(0, 16).flatMap((ids) => ids.slice(0, CELL_TILES)));
      assert.deepEqual(attrsOf(svg, /class="tile" data-prompt="(\d+)"/g).map(Number), expected, `${home.name} ${preset}`);
      if (picture.packed) {
        packedDrawn++;
        const step = picture.steps[0]!;
        const bars = packingFigure(step, picture.packed, picture.budget, promptOfSample(step), packingWords);
        const prompts = promptOfSample(step);
        const shown = picture.packed.ranks.slice(0, 8).flatMap((mbs) => mbs.slice(0, SHOWN_MICRO).flat());
        assert.deepEqual(attrsOf(bars, /data-sample="(\d+)"/g).map(Number), shown, `${home.name} ${preset}: one bar per sample`);
        for (const m of bars.matchAll(/data-prompt="(\d+)" data-sample="(\d+)"/g)) assert.equal(Number(m[1]), prompts.get(Number(m[2])));
      }
    }
  }
  assert.ok(drawn >= 12, `${drawn} pictures drawn`);
  assert.ok(packedDrawn >= 6, `${packedDrawn} packings drawn`);
});

test('NeMo RL: switching policy.sequence_packing.enabled moves a prompt’s copies between micro-batches and draws the budget', () => {
  const off = nemo(false);
  const on = nemo(true);
  const step = off.steps[0]!;
  const p = step.prompts[0]!;
  const microOf = (picture: typeof off) => {
    const prompts = promptOfSample(picture.steps[0]!);
    return picture.packed!.ranks.map((mbs) => mbs.flatMap((mb, m) => (mb.some((i) => prompts.get(i) === p) ? [m] : [])));
  };
  // Off: micro-batches of train_micro_batch_size samples in the rank's order, so the copies share one.
  assert.deepEqual(microOf(off), [[0], []]);
  // On: packed by length, so they spread over several of rank 0's micro-batches.
  assert.ok(microOf(on)[0]!.length > 1, JSON.stringify(microOf(on)));
  assert.deepEqual(copiesOf(off.steps, 0, p), [{ step: 0, total: 4, ranks: [{ rank: 0, copies: 4 }] }]);
  assert.equal(off.budget, null);
  assert.deepEqual(on.budget, {
    tokens: 2048,
    from: 'policy.sequence_packing.train_mb_tokens unset: policy.max_total_sequence_length × policy.train_micro_batch_size',
    rule: 'cap',
  });
  const svgOn = packingFigure(on.steps[0]!, on.packed!, on.budget, promptOfSample(on.steps[0]!), packingWords);
  const svgOff = packingFigure(off.steps[0]!, off.packed!, off.budget, promptOfSample(off.steps[0]!), packingWords);
  assert.equal((svgOn.match(/class="budget"/g) ?? []).length, 2, 'one budget line per rank');
  assert.doesNotMatch(svgOff, /class="budget"/);
  // A strip per micro-batch: each as long as its tokens.
  assert.deepEqual(
    attrsOf(svgOn, /class="mb" data-rank="\d+" data-micro="\d+" data-tokens="(\d+)"/g).map(Number),
    on.packed!.ranks.flatMap((mbs) => mbs.map((mb) => mb.reduce((a, i) => a + on.steps[0]!.seqlens![i]!, 0))),
  );
  assert.deepEqual(
    packingSwitches(frameworkHome('nemo-rl')!).map((k) => k.key),
    ['policy.dynamic_batching.enabled', 'policy.sequence_packing.enabled'],
  );
});

test('prime-rl on 8 ranks: the ranks that run an empty micro-batch are marked and their strip hatched', () => {
  const picture = frameworkPicture(frameworkRequest({ framework: 'prime-rl', ranks: '8', 'train-batch-size': '4', k: '4' }, null), 0);
  const packed = picture.packed!;
  const padded = packed.ranks.flatMap((mbs, r) => (mbs.filter((mb) => mb.length > 0).length < packed.microBatchesPerRank ? [r] : []));
  assert.ok(padded.length > 0 && padded.length < 8, JSON.stringify(packed.ranks));
  const svg = packingFigure(picture.steps[0]!, packed, picture.budget, promptOfSample(picture.steps[0]!), packingWords);
  assert.deepEqual(attrsOf(svg, /class="rank-head pads" data-rank="(\d+)"/g).map(Number), padded);
  assert.equal((svg.match(/class="pad-mb"/g) ?? []).length, padded.length);
  assert.match(W.synced(packed.microBatchesPerRank, padded), /step on padding\.$/);
});

test('drawn for a column: at 358 and 736 px the figures are no wider, every tile, bar and budget line inside, every tile and rank drawn', () => {
  const widthOf = (svg: string) => Number(/<svg[^>]* width="([\d.]+)"/.exec(svg)![1]);
  /** The right edges of every rect and line (x + width, x2). */
  const rights = (svg: string) => [
    ...[...svg.matchAll(/<rect x="([\d.-]+)" y="[\d.-]+" width="([\d.]+)"/g)].map((m) => Number(m[1]) + Number(m[2])),
    ...[...svg.matchAll(/<line[^>]* x2="([\d.]+)"/g)].map((m) => Number(m[1])),
  ];
  for (const [framework, ranks] of [
    ['nemo-rl', '2'],
    ['prime-rl', '8'],
  ] as const) {
    const picture = frameworkPicture(
      frameworkRequest(
        { framework, ranks, 'train-batch-size': '4', k: '4', ...(framework === 'nemo-rl' ? { 'sequence-packing': 'true' } : {}) },
        null,
      ),
      0,
    );
    const step = picture.steps[0]!;
    const wide = layoutFigure(picture.steps, picture.first, layoutWords);
    const widePacking = packingFigure(step, picture.packed!, picture.budget, promptOfSample(step), packingWords);
    for (const column of [358, 736]) {
      const layout = layoutFigure(picture.steps, picture.first, layoutWords, column);
      const packing = packingFigure(step, picture.packed!, picture.budget, promptOfSample(step), packingWords, column);
      for (const [what, svg, all] of [
        ['layout', layout, wide],
        ['packing', packing, widePacking],
      ] as const) {
        const where = `${framework} ${what} at ${column} px`;
        assert.ok(widthOf(svg) <= column, `${where}: ${widthOf(svg)} px wide`);
        assert.ok(rights(svg).length > 0, `${where}: rects drawn`);
        assert.ok(Math.max(...rights(svg)) <= widthOf(svg), `${where}: drawn to ${Math.max(...rights(svg))} in ${widthOf(svg)}`);
        // The same tiles, bars and ranks as the unwrapped figure, only placed otherwise.
        for (const re of [/class="tile" data-prompt="(\d+)"/g, /data-sample="(\d+)"/g, /class="rank-head[^"]*" data-rank="(\d+)"/g])
          assert.deepEqual(attrsOf(svg, re), attrsOf(all, re), `${where}: ${re.source}`);
      }
    }
  }
});

test('the budget each framework packs under, named by its own keys', () => {
  const easyr1 = frameworkHome('easyr1')!;
  const s = frameworkRequest({ framework: 'easyr1', preset: 'easyr1-example-config' }, null).reading.settings;
  assert.deepEqual(packingBudget(easyr1, s, []), {
    tokens: Number(s['micro-batch-size-per-device-for-update']) * (Number(s['max-prompt-length']) + Number(s['max-response-length'])),
    from: 'worker.actor.micro_batch_size_per_device_for_update × (data.max_prompt_length + data.max_response_length)',
    rule: 'count',
  });
  assert.equal(packingBudget(easyr1, { ...s, 'dynamic-batching': false }, []), null);
  const roll = frameworkHome('roll')!;
  const r = frameworkRequest(
    { framework: 'roll', 'use-dynamic-batching-in-train': 'true', 'max-tokens-per-microbatch-in-train': '4096' },
    null,
  );
  assert.deepEqual(packingBudget(roll, r.reading.settings, []), {
    tokens: 4096,
    from: 'actor_train.max_tokens_per_microbatch_in_train',
    rule: 'cap',
  });
});

test('the step window is clamped to the run, and every home’s flags are attributes of the element', () => {
  const request = frameworkRequest({ framework: 'nemo-rl', ranks: '2', 'train-batch-size': '4', k: '4' }, null);
  const last = frameworkPicture(request, 1e9);
  assert.equal(last.first, last.layout.steps.length - 1);
  assert.equal(last.steps.length, 1);
  assert.equal(frameworkPicture(request, -3).first, 0);
  for (const home of FRAMEWORK_HOMES) for (const k of home.keys) assert.ok(FRAMEWORK_ATTRIBUTES.includes(k.flag), k.flag);
  assert.throws(() => frameworkRequest({ framework: 'nemo' }, null), /--framework nemo has no home; the frameworks are nemo-rl, easyr1/);
});

test('a budget said to cap micro-batches caps them: no micro-batch of two or more samples holds more, on every framework that has one', () => {
  const asked: Record<string, string>[] = [
    ...FRAMEWORK_HOMES.flatMap((h) => [{ framework: h.name }, ...h.presets.map((p) => ({ framework: h.name, preset: p.name }))]),
    { framework: 'nemo-rl', ranks: '2', 'train-batch-size': '8', k: '4' },
    { framework: 'nemo-rl', ranks: '2', 'train-batch-size': '8', k: '4', 'sequence-packing': 'false', 'dynamic-batching': 'true' },
    { framework: 'roll', 'use-dynamic-batching-in-train': 'true', 'max-tokens-per-microbatch-in-train': '4096' },
    { framework: 'open-instruct', ranks: '2' },
    { framework: 'prime-rl', ranks: '4' },
    { framework: 'areal', preset: 'areal-gsm8k-grpo', 'max-tokens-per-mb': '3000' },
    { framework: 'slime', preset: 'slime-qwen3-4b', 'use-dynamic-batch-size': 'true', 'max-tokens-per-gpu': '3000' },
  ];
  const rules = new Set<string>();
  for (const attrs of asked) {
    let picture: ReturnType<typeof frameworkPicture>;
    try {
      picture = frameworkPicture(frameworkRequest(attrs, null), 0);
    } catch (e) {
      assert.ok(e instanceof ConfigError, `${JSON.stringify(attrs)}: ${(e as Error).message}`);
      continue;
    }
    const { budget, packed } = picture;
    if (!budget || !packed) continue;
    rules.add(`${attrs.framework} ${budget.rule}`);
    if (budget.rule !== 'cap') continue;
    const seqlens = picture.steps[0]!.seqlens!;
    for (const mb of packed.ranks.flat()) {
      const tokens = mb.reduce((a, i) => a + seqlens[i]!, 0);
      assert.ok(
        mb.length < 2 || tokens <= budget.tokens,
        `${JSON.stringify(attrs)}: ${tokens} tokens over ${budget.tokens} (${budget.from})`,
      );
    }
  }
  for (const name of ['nemo-rl', 'roll', 'open-instruct', 'prime-rl', 'areal', 'slime'])
    assert.ok(rules.has(`${name} cap`), [...rules].join(', '));
});
