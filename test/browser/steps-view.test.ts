// <grpo-steps> in real Chromium, verl's dynamic batches: `?view=steps&sampler=verl&…` draws one optimizer step's
// micro-batches as token bars (the framework view's packing figure). Switching actor.use_dynamic_bsz on moves the
// copies and changes the micro-batch count, and the strips are `grpo-sandbox steps --json`'s for the same settings
// (run here through the CLI's own main, not written down): each rank's micro-batches, their completions in order,
// their packedTokens, each bar as wide as its tokens and the budget line at ppo_max_token_len_per_gpu. A tap lights
// a prompt's copies and says where they sit. At 390 px (a phone) and 1280 (a projector) nothing scrolls sideways.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { runCli } from '../helpers/cli.ts';
import { screenshot, withPage } from './harness.ts';

/** The settings as the page's URL keys and as the CLI's flags (one table: src/core/settings.ts). */
const SETTINGS = { sampler: 'verl', ranks: '2', batch: '8', k: '4', dataset: '16', micro: '4', maxtok: '2048' };
const FLAGS = [
  '--sampler=verl',
  '--ranks=2',
  '--batch=8',
  '--k=4',
  '--dataset-size=16',
  '--ppo-micro-batch-size-per-gpu=4',
  '--ppo-max-token-len-per-gpu=2048',
];
const BUDGET = 2048;
const url = (extra: Record<string, string> = {}) => `/?${new URLSearchParams({ view: 'steps', ...SETTINGS, ...extra })}`;

interface JsonStep {
  microBatches: { rank: number; microStep: number; packedTokens?: number; completions: number[] }[];
  completions: { completion: number; promptId: number; tokens: number }[];
}

/** `grpo-sandbox steps … --json`'s first optimizer step with use_dynamic_bsz `dynamic`. */
async function cliStep(dynamic: boolean): Promise<JsonStep> {
  const { status, stdout, stderr } = await runCli(['steps', ...FLAGS, `--use-dynamic-bsz=${dynamic}`, '--json']);
  assert.equal(status, 0, stderr);
  const report = JSON.parse(stdout) as { steps: JsonStep[]; lengths: string };
  // No --lengths: a completion's tokens are the verl sampler's seqlens (prompt + response), what the budget counts.
  assert.match(report.lengths, /the verl sampler's seqlens/);
  return report.steps[0]!;
}

interface Strip {
  rank: number;
  micro: number;
  tokens: number;
  samples: number[];
  prompts: number[];
  /** Each bar's drawn width, and where the strip starts. */
  widths: number[];
  x: number;
}

/** The packing figure's strips, as drawn. */
const strips = (page: Page): Promise<Strip[]> =>
  page.locator('grpo-steps .figure.packing svg g.mb').evaluateAll((gs) =>
    gs.map((g) => {
      const bars = [...g.querySelectorAll('g.bar')];
      const rects = bars.map((b) => b.querySelector('rect')!);
      return {
        rank: Number(g.getAttribute('data-rank')),
        micro: Number(g.getAttribute('data-micro')),
        tokens: Number(g.getAttribute('data-tokens')),
        samples: bars.map((b) => Number(b.getAttribute('data-sample'))),
        prompts: bars.map((b) => Number(b.getAttribute('data-prompt'))),
        widths: rects.map((r) => Number(r.getAttribute('width'))),
        x: Number(rects[0]!.getAttribute('x')),
      };
    }),
  );

/** The budget lines' x, one per rank. */
const budgetX = (page: Page) =>
  page.locator('grpo-steps .figure.packing svg line.budget').evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('x1'))));

const text = async (page: Page, selector: string) => (await page.locator(`grpo-steps ${selector}`).first().textContent()) ?? '';

/** The strips against the CLI's micro-batches: the same completions in each rank's micro-batch, in order. */
function assertSameMicroBatches(drawn: Strip[], step: JsonStep): void {
  const first = Math.min(...step.microBatches.map((m) => m.microStep));
  const expected = step.microBatches.map((m) => `${m.rank}/${m.microStep - first}: ${m.completions.join(' ')}`).sort();
  assert.deepEqual(drawn.map((s) => `${s.rank}/${s.micro}: ${s.samples.join(' ')}`).sort(), expected);
}

/** Where each prompt's copies sit: "rank/micro" of every strip holding one. */
const places = (drawn: Strip[]) => {
  const out = new Map<number, string[]>();
  for (const s of drawn) for (const p of new Set(s.prompts)) out.set(p, [...(out.get(p) ?? []), `${s.rank}/${s.micro}`]);
  return out;
};

test('verl: the use_dynamic_bsz switch cuts by tokens; the bars are steps --json’s, the copies move, one prompt lights up', async () => {
  const off = await cliStep(false);
  const on = await cliStep(true);
  const tokensOf = new Map(on.completions.map((c) => [c.completion, c.tokens]));
  await withPage(url(), async (page) => {
    await page.locator('grpo-steps .figure.packing svg').waitFor({ timeout: 60_000 });
    // Off: ppo_micro_batch_size_per_gpu completions per micro-batch, no budget.
    const before = await strips(page);
    assertSameMicroBatches(before, off);
    assert.ok(
      off.microBatches.every((m) => m.packedTokens === undefined),
      'no packedTokens without use_dynamic_bsz',
    );
    assert.equal((await budgetX(page)).length, 0);
    assert.match(await text(page, '.switches'), /use_dynamic_bsz off/);
    assert.match(await text(page, '.by-samples'), /ppo_micro_batch_size_per_gpu = 4 completions/);

    const box = page.locator('grpo-steps input[name="switch-dynbsz"]');
    assert.equal(await box.isChecked(), false);
    await box.check();
    await page.waitForFunction(() => document.querySelector('grpo-steps')!.getAttribute('dynbsz') === 'true');
    await page.waitForFunction(
      (n) => document.querySelector('grpo-steps')!.shadowRoot!.querySelectorAll('.figure.packing g.mb').length === n,
      on.microBatches.length,
    );
    const after = await strips(page);
    // The micro-batches are the CLI's: count per rank, completions, and each strip's tokens (packedTokens).
    assertSameMicroBatches(after, on);
    const first = Math.min(...on.microBatches.map((m) => m.microStep));
    for (const s of after) {
      const mb = on.microBatches.find((m) => m.rank === s.rank && m.microStep - first === s.micro)!;
      assert.equal(s.tokens, mb.packedTokens, `rank ${s.rank} micro-batch ${s.micro}`);
      assert.equal(
        mb.completions.reduce((t, c) => t + tokensOf.get(c)!, 0),
        mb.packedTokens,
      );
    }
    const perRank = (m: JsonStep) =>
      Math.max(...m.microBatches.map((b) => b.microStep)) - Math.min(...m.microBatches.map((b) => b.microStep)) + 1;
    assert.notEqual(perRank(on), perRank(off), 'the micro-batch count changes');
    // Widths: every bar is its tokens at one scale, the budget line at ppo_max_token_len_per_gpu on that scale.
    const lines = await budgetX(page);
    assert.equal(lines.length, 2);
    for (const s of after) {
      const line = lines[s.rank]! - s.x;
      const scale = line / BUDGET;
      s.samples.forEach((c, i) => {
        assert.ok(
          Math.abs(s.widths[i]! - tokensOf.get(c)! * scale) <= 0.15,
          `completion ${c}: ${s.widths[i]} px for ${tokensOf.get(c)} tokens`,
        );
      });
      const drawn = s.widths.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(drawn / line - s.tokens / BUDGET) < 0.004, `rank ${s.rank} micro-batch ${s.micro}: ${drawn} of ${line} px`);
    }
    assert.match(await text(page, '.budget-text'), /Budget: 2048 tokens \(actor_rollout_ref\.actor\.ppo_max_token_len_per_gpu\)/);
    assert.match(await text(page, '.synced'), new RegExp(`^Every rank runs ${perRank(on)} micro-batches`));
    // The copies move: some prompt's copies sit in other micro-batches than with the switch off.
    const was = places(before);
    const now = places(after);
    const moved = [...now.keys()].filter((p) => JSON.stringify(now.get(p)) !== JSON.stringify(was.get(p)));
    assert.ok(moved.length > 0, 'a prompt’s copies move');

    // A click lights the prompt's copies: the sentence names where they sit; every other bar fades.
    const prompt = moved[0]!;
    await page.locator(`grpo-steps .figure.packing g.bar[data-prompt="${prompt}"]`).first().click();
    await page.waitForFunction((p) => document.querySelector('grpo-steps')!.getAttribute('prompt') === String(p), prompt);
    const copies = on.completions.filter((c) => c.promptId === prompt).length;
    assert.match(await text(page, 'p.copies'), new RegExp(`P${prompt}’s ${copies} copies in this optimizer step: rank \\d`));
    const opacity = (sel: string) =>
      page
        .locator(sel)
        .first()
        .evaluate((el) => getComputedStyle(el).opacity);
    assert.equal(await opacity(`grpo-steps .figure.packing g.bar[data-prompt="${prompt}"]`), '1');
    assert.equal(await opacity(`grpo-steps .figure.packing g.bar:not([data-prompt="${prompt}"])`), '0.28');
    await screenshot(page, 'steps-dynamic-1280');

    // Off again: back to the CLI's sample-count micro-batches.
    await box.uncheck();
    await page.waitForFunction(() => document.querySelector('grpo-steps')!.getAttribute('dynbsz') === 'false');
    await page.waitForFunction(
      (n) => document.querySelector('grpo-steps')!.shadowRoot!.querySelectorAll('.figure.packing g.mb').length === n,
      off.microBatches.length,
    );
    assertSameMicroBatches(await strips(page), off);
  });
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`${viewport.width} px: the token bars fit their column, labels inside the window, a tap lights a prompt’s copies`, async () => {
    await withPage(
      url({ dynbsz: 'true' }),
      async (page) => {
        await page.locator('grpo-steps .figure.packing svg').waitFor({ timeout: 60_000 });
        const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
        assert.ok(widths.page <= widths.window, `the page is ${widths.page} px wide in ${widths.window}`);
        const over = await page.locator('grpo-steps .figure').evaluateAll((els) => els.map((el) => el.scrollWidth - el.clientWidth));
        assert.ok(over.length === 2 && over.every((o) => o <= 1), `the figures are ${over.join(', ')} px wider than their boxes`);
        // Every label of the packing figure and the sentences about it lie inside the window.
        const boxes = await page
          .locator('grpo-steps .figure.packing svg text, grpo-steps .packing-text, grpo-steps p.copies, grpo-steps .switches')
          .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => [r.left, r.right]));
        for (const [left, right] of boxes) assert.ok(left! >= 0 && right! <= viewport.width + 0.5, `a label at ${left}–${right}`);
        const bar = page.locator('grpo-steps .figure.packing g.bar').first();
        const prompt = await bar.getAttribute('data-prompt');
        if (viewport.width < 500) await bar.tap();
        else await bar.click();
        await page.waitForFunction((p) => document.querySelector('grpo-steps')!.getAttribute('prompt') === p, prompt);
        assert.match(await text(page, 'p.copies'), new RegExp(`^\\s*P${prompt}’s \\d copies in this optimizer step`));
        await screenshot(page, `steps-dynamic-${viewport.width}`);
      },
      { viewport, hasTouch: viewport.width < 500 },
    );
  });
}

test('zh-CN: the token bars’ words in Chinese', async () => {
  await withPage(url({ dynbsz: 'true', lang: 'zh-CN' }), async (page) => {
    await page.locator('grpo-steps .figure.packing svg').waitFor({ timeout: 60_000 });
    assert.match(await text(page, 'h3'), /^词元条：优化步 0 中每个 rank 的 micro-batch/);
    assert.match(await text(page, '.own-counts'), /^每个 rank 自己的份数/);
    assert.match(await text(page, '.budget-text'), /^预算：2048 个词元/);
  });
});

test('verl Ulysses SP: the S field beside max tokens puts the budget line at T × S, the strips steps --json’s for the same flags', async () => {
  const json = async (sp: number) => {
    const flags = FLAGS.map((f) => (f.startsWith('--ppo-max-token-len-per-gpu=') ? '--ppo-max-token-len-per-gpu=1024' : f));
    const { status, stdout, stderr } = await runCli([
      'steps',
      ...flags,
      '--use-dynamic-bsz=true',
      `--ulysses-sequence-parallel-size=${sp}`,
      '--json',
    ]);
    assert.equal(status, 0, stderr);
    return (JSON.parse(stdout) as { steps: JsonStep[] }).steps[0]!;
  };
  const one = await json(1);
  const two = await json(2);
  const perRank = (m: JsonStep) => new Set(m.microBatches.map((b) => b.microStep)).size;
  assert.ok(perRank(two) < perRank(one), `T × 2 packs fewer micro-batches (${perRank(two)} vs ${perRank(one)})`);
  const tokensOf = new Map(two.completions.map((c) => [c.completion, c.tokens]));
  await withPage(url({ dynbsz: 'true', maxtok: '1024' }), async (page) => {
    await page.locator('grpo-steps .figure.packing svg').waitFor({ timeout: 60_000 });
    assertSameMicroBatches(await strips(page), one);
    const field = page.locator('grpo-steps input[name="ulysses"]');
    assert.equal(await field.inputValue(), '1');
    await field.fill('2');
    await field.dispatchEvent('change');
    await page.waitForFunction(() => document.querySelector('grpo-steps')!.getAttribute('ulysses') === '2');
    await page.waitForFunction(
      (n) => document.querySelector('grpo-steps')!.shadowRoot!.querySelectorAll('.figure.packing g.mb').length === n,
      two.microBatches.length,
    );
    const drawn = await strips(page);
    assertSameMicroBatches(drawn, two);
    // The budget line at ppo_max_token_len_per_gpu × S = 2048 tokens on the bars' scale.
    const lines = await budgetX(page);
    for (const s of drawn) {
      const scale = (lines[s.rank]! - s.x) / 2048;
      s.samples.forEach((c, i) => assert.ok(Math.abs(s.widths[i]! - tokensOf.get(c)! * scale) <= 0.15, `completion ${c}`));
    }
    assert.match(
      await text(page, '.budget-text'),
      /Budget: 2048 tokens \(actor_rollout_ref\.actor\.ppo_max_token_len_per_gpu 1024 × ulysses_sequence_parallel_size 2\)/,
    );
    assert.match(await text(page, '.own-counts'), /⌈tokens \/ 2048⌉/);
  });
});
