// Caption truth: every sampler × every phase × a grid of configurations. Each claim a caption
// makes is checked against the layout the core built, recounted here from the gathered samples
// with plain loops (not with the gatherFacts the captions read), so a caption that states what
// the picture contradicts fails this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLayout, defaultConfig, samplerNames, validateConfig } from '../../src/core/samplers/index.ts';
import { gathers } from '../../src/core/layout/gather.ts';
import type { Gather, LayoutConfig, RegroupMethod } from '../../src/core/layout/types.ts';
import { deriveView } from '../../src/ui/explorer-model.ts';
import { caption, phaseIds } from '../../src/ui/story.ts';
import { frameworkDefaults } from '../../src/core/grpo/framework-defaults.ts';
import { parseState } from '../../src/ui/url-state.ts';

/** Recounted truths about one gather: copies of each draw (uid) per step and per rank. */
function truths(g: Gather) {
  const uids = [...new Set(g.samples.map((s) => s.uid))];
  const count = (pred: (s: Gather['samples'][number]) => boolean) => g.samples.filter(pred).length;
  const total = new Map(uids.map((u) => [u, count((s) => s.uid === u)]));
  let maxInStep = 0;
  let maxOnRank = 0;
  let wholeOnRank = 0;
  const ranks = [...new Set(g.samples.map((s) => s.rank))];
  for (const u of uids) {
    let whole = false;
    for (const r of ranks) {
      const onRank = count((s) => s.uid === u && s.rank === r);
      maxOnRank = Math.max(maxOnRank, onRank);
      if (onRank === total.get(u)) whole = true;
      for (const st of g.stepIndices)
        maxInStep = Math.max(
          maxInStep,
          count((s) => s.uid === u && s.rank === r && s.stepIndex === st),
        );
    }
    if (whole) wholeOnRank++;
  }
  const stepsOf = (u: string) => new Set(g.samples.filter((s) => s.uid === u).map((s) => s.stepIndex)).size;
  const perStep = g.stepIndices.map((st) => {
    const inStep = g.samples.filter((s) => s.stepIndex === st);
    const drawn = [...new Set(inStep.map((s) => s.uid))];
    return { samples: inStep.length, draws: drawn.length, whole: drawn.every((u) => stepsOf(u) === 1) };
  });
  return { uids, maxInStep, maxOnRank, wholeOnRank, acrossSteps: uids.filter((u) => stepsOf(u) > 1).length, perStep, ranks: ranks.length };
}

const grid: LayoutConfig[] = [];
for (const sampler of samplerNames)
  for (const ranks of [1, 2, 3, 8])
    for (const batch of [1, 2, 4])
      for (const k of [1, 2, 4])
        for (const batchesPerEpoch of [1, 2, 3])
          for (const epochs of [1, 2]) {
            const config = { ...defaultConfig, sampler, ranks, batch, k, batchesPerEpoch, epochs, datasetSize: 24 };
            if (validateConfig(config) === null) grid.push(config);
          }

test('every caption of every phase states only what the core says happened (sampler × configuration grid)', () => {
  const seen = new Set<string>(); // which kinds of claim the grid exercised
  const regroups: RegroupMethod[] = ['prompt-id', 'view', 'uid', 'local'];
  let checked = 0;
  grid.forEach((config, n) => {
    const layout = buildLayout(config);
    const all = gathers(layout);
    for (const gatherIndex of [0, all.length - 1]) {
      const g = all[gatherIndex]!;
      const t = truths(g);
      const state = { ...parseState('', config, {}), config, gather: gatherIndex, regroup: regroups[n % 4]! };
      const view = deriveView(state);
      const where = `${JSON.stringify(config)} gather ${gatherIndex}`;
      assert.deepEqual(view.gather.samples, g.samples, where);

      for (const phase of phaseIds) {
        const text = caption(phase, view.caption);
        checked++;
        assert.doesNotMatch(text, /\b1 (ranks|slots|steps|groups|prompts)\b|`|NaN|undefined/, `${where} ${phase}: ${text}`);
        let m: RegExpMatchArray | null;
        if (phase === 'sample') {
          m = text.match(/: (\d+) ranks? × (\d+) slots? = (\d+) samples per step/);
          assert.ok(m, `${where}: ${text}`);
          assert.equal(Number(m[1]), t.ranks === config.ranks ? config.ranks : Number.NaN);
          for (const st of t.perStep) assert.equal(st.samples, Number(m[3]), `${where}: every step holds the stated samples`);
          assert.equal(Number(m[1]) * Number(m[2]), Number(m[3]));
          if ((m = text.match(/, (\d+) prompts? × (\d+) copies each step/))) {
            seen.add('sample:whole');
            for (const st of t.perStep) {
              assert.equal(st.draws, Number(m[1]), `${where}: ${text}`);
              assert.ok(st.whole, `${where}: whole groups per step claimed`);
            }
          } else if ((m = text.match(/(\d+) of the gather's (\d+) groups? have copies in more than one step/))) {
            seen.add('sample:across');
            assert.equal(Number(m[1]), t.acrossSteps, where);
            assert.equal(Number(m[2]), t.uids.length, where);
            assert.ok(t.acrossSteps > 0);
          } else if ((m = text.match(/the steps hold ([\d, ]+) prompts/))) {
            seen.add('sample:uneven');
            assert.deepEqual(
              m[1]!.split(', ').map(Number),
              t.perStep.map((s) => s.draws),
            );
            assert.equal(t.acrossSteps, 0);
          } else assert.fail(`${where}: the sample caption says nothing about groups per step: ${text}`);
        }
        if (phase === 'scatter') {
          if (/no rank receives two copies of a group in one step/.test(text)) {
            seen.add('scatter:apart');
            assert.equal(t.maxInStep, 1, `${where}: ${text}`);
            if (/land on (\d+) different ranks/.test(text)) assert.equal(t.acrossSteps, 0);
          } else if ((m = text.match(/a rank can receive all (\d+) copies of a group in one step/))) {
            seen.add('scatter:together');
            assert.ok(t.maxInStep >= config.k, `${where}: ${text}`);
          } else if ((m = text.match(/up to (\d+) on one rank in one step\): no rank receives a whole group/))) {
            seen.add('scatter:partly');
            assert.equal(t.maxInStep, Number(m[1]), `${where}: ${text}`);
            assert.ok(t.maxInStep < config.k);
          } else if (/With k = 1/.test(text)) assert.equal(config.k, 1);
          else assert.fail(`${where}: ${text}`);
        }
        if (phase === 'accumulate') {
          if ((m = text.match(/concatenates its (\d+) batches: \d+ × \d+ = (\d+) samples per rank/))) {
            assert.equal(Number(m[1]), g.stepIndices.length);
            assert.equal(Number(m[2]), g.samples.length / config.ranks);
          } else assert.match(text, new RegExp(`just its ${g.samples.length / config.ranks} samples of this step`));
          if (/Every group now sits whole on one rank/.test(text)) {
            seen.add('acc:all');
            assert.equal(t.wholeOnRank, t.uids.length, `${where}: ${text}`);
          } else if ((m = text.match(/(\d+) of the (\d+) groups sit whole on one rank/))) {
            seen.add('acc:some');
            assert.equal(Number(m[1]), t.wholeOnRank, where);
            assert.equal(Number(m[2]), t.uids.length, where);
          } else if ((m = text.match(/up to (\d+)\), but no rank holds a whole group/))) {
            seen.add('acc:partly');
            assert.equal(t.wholeOnRank, 0, `${where}: ${text}`);
            assert.equal(t.maxOnRank, Number(m[1]), where);
          } else if (/No rank holds two copies of one group/.test(text)) {
            seen.add('acc:apart');
            assert.equal(t.maxOnRank, 1, `${where}: ${text}`);
          } else if (/With k = 1/.test(text)) assert.equal(config.k, 1);
          else assert.fail(`${where}: ${text}`);
        }
        if (phase === 'gather') {
          m = text.match(/the (\d+) samples/) ?? text.match(/own (\d+) samples/);
          assert.equal(Number(m?.[1]), g.samples.length, `${where}: ${text}`);
          if ((m = text.match(/rank 0's (\d+)/))) assert.equal(Number(m[1]), g.samples.filter((s) => s.rank === 0).length);
          else assert.equal(config.ranks, 1);
        }
        if (phase === 'regroup') {
          m = text.match(/: (\d+) groups? from (\d+) distinct prompts?/);
          assert.equal(Number(m?.[1]), view.rows.length, `${where}: ${text}`);
          assert.equal(Number(m?.[2]), new Set(g.samples.map((s) => s.promptId)).size);
          const mixed = view.rows.filter((r) => new Set(r.promptIds).size > 1).length;
          m = text.match(/(\d+) mix different prompts/);
          assert.equal(m ? Number(m[1]) : 0, mixed, `${where}: ${text}`);
          if (mixed > 0) seen.add('regroup:mixed');
        }
        if (phase === 'regroup' || phase === 'advantages') {
          // A regrouping other than the sampler's framework's is called a what-if, and only then.
          const own = frameworkDefaults[config.sampler].regroup;
          assert.equal(/What if:/.test(text), state.regroup !== own, `${where} ${state.regroup}: ${text}`);
          if (state.regroup !== own) seen.add('whatif');
        }
        if (phase === 'advantages' && view.advantages) {
          const ties = view.rows.filter(
            (r) => r.members.length > 1 && r.members.every((i) => view.rewards[i] === view.rewards[r.members[0]!]),
          );
          m = text.match(/(\d+) groups? tie/);
          assert.equal(m ? Number(m[1]) : 0, ties.length, `${where}: ${text}`);
          for (const r of ties)
            for (const i of r.members) assert.equal(Math.abs(view.advantages[i]!), 0, `${where}: a tie has advantage 0`);
        }
        if (phase === 'slice' && config.ranks > 1) {
          m = text.match(/gathered\[r·(\d+), \(r\+1\)·(\d+)\)/);
          assert.equal(Number(m?.[1]), g.samples.length / config.ranks, where);
        }
      }
    }
  });
  console.log(`${grid.length} configurations, ${checked} captions checked; claims exercised: ${[...seen].sort().join(', ')}`);
  for (const kind of [
    'sample:whole',
    'sample:across',
    'scatter:apart',
    'scatter:together',
    'scatter:partly',
    'acc:all',
    'acc:partly',
    'acc:apart',
    'regroup:mixed',
  ])
    assert.ok(seen.has(kind), `the grid exercises the claim ${kind}`);
});
