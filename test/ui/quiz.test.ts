// Predict, then reveal: every question's answer is the core's. For each sampler over a grid of
// configurations and every gather, the answers quizFor reads from the gather are checked against
// copiesOf (the core's own index of where each prompt's copies are) and the layout's steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLayout, defaultConfig, samplerNames, validateConfig } from '../../src/core/samplers/index.ts';
import { gathers } from '../../src/core/layout/gather.ts';
import { copiesOf } from '../../src/core/layout/copies.ts';
import type { LayoutConfig } from '../../src/core/layout/types.ts';
import { parseNumbers, quizFor, quizPhases, quizQuestion, quizResult } from '../../src/ui/quiz.ts';
import { phaseIds } from '../../src/ui/story.ts';

const grid: Partial<LayoutConfig>[] = [
  { ranks: 8, batch: 2, k: 4, datasetSize: 32 },
  { ranks: 2, batch: 4, k: 2, datasetSize: 16 },
  { ranks: 1, batch: 4, k: 2, datasetSize: 16 },
  { ranks: 4, batch: 3, k: 3, datasetSize: 24 },
  { ranks: 3, batch: 1, k: 3, datasetSize: 16 },
];

test("every question's answer is the core's, for every sampler, configuration and gather", () => {
  let checked = 0;
  const outcomes = new Set<boolean>();
  for (const sampler of samplerNames)
    for (const g of grid) {
      const config = { ...defaultConfig, ...g, sampler } as LayoutConfig;
      if (validateConfig(config) !== null) continue;
      const layout = buildLayout(config);
      gathers(layout).forEach((gather) => {
        const steps = new Set(gather.stepIndices);
        const prompt = Math.min(...gather.samples.map((s) => s.promptId));
        // The core's copies of the followed prompt within this gather.
        const copies = copiesOf(layout, prompt).filter((c) => steps.has(c.stepIndex));
        const scatter = quizFor('scatter', gather, config.ranks)!;
        assert.equal(scatter.kind, 'ranks');
        assert.equal(scatter.prompt, prompt);
        if (scatter.kind === 'ranks') {
          const expected = new Map<number, number>();
          for (const c of copies) expected.set(c.rank, (expected.get(c.rank) ?? 0) + 1);
          assert.deepEqual(new Map([...scatter.answer].sort()), new Map([...expected].sort()), `${sampler} ${JSON.stringify(g)}`);
          // Each rank's count is what the layout's steps hold on that rank.
          for (const [rank, n] of scatter.answer) {
            const onRank = gather.stepIndices.reduce(
              (sum, si) => sum + layout.steps[si]!.ranks[rank]!.filter((p) => p === prompt).length,
              0,
            );
            assert.equal(n, onRank);
          }
        }
        const positions = quizFor('gather', gather, config.ranks)!;
        assert.equal(positions.kind, 'positions');
        if (positions.kind === 'positions')
          assert.deepEqual(
            positions.answer,
            copies.map((c) => c.gatheredIndex),
          );
        const mean = quizFor('accumulate', gather, config.ranks)!;
        assert.equal(mean.kind, 'yes-no');
        if (mean.kind === 'yes-no') {
          // The draw of the prompt's first copy: its copies share a uid; the rank asked holds that first copy.
          const first = copies[0]!;
          assert.equal(mean.rank, first.rank);
          const draw = gather.samples.filter((s) => s.uid === gather.samples[first.gatheredIndex]!.uid);
          assert.equal(mean.copies, draw.length);
          assert.equal(
            mean.answer,
            draw.every((s) => s.rank === first.rank),
          );
          assert.equal(mean.onRank + draw.filter((s) => s.rank !== first.rank).length, draw.length);
          outcomes.add(mean.answer);
        }
        for (const phase of phaseIds) if (!quizPhases.includes(phase)) assert.equal(quizFor(phase, gather, config.ranks), null);
        checked++;
      });
    }
  assert.ok(checked > 30, `${checked} gathers checked`);
  assert.deepEqual([...outcomes].sort(), [false, true], 'the grid has rank-local groups and spread ones');
});

test('the answer in words compares the guess with the core’s answer (seed-000 gather 1)', () => {
  const layout = buildLayout({ ...defaultConfig, sampler: 'flow-grpo', ranks: 8, batch: 2, k: 4, datasetSize: 32 });
  const gather = gathers(layout)[0]!;
  const prompt = Math.min(...gather.samples.map((s) => s.promptId));
  const copies = copiesOf(layout, prompt).filter((c) => gather.stepIndices.includes(c.stepIndex));
  const ranks = [...new Set(copies.map((c) => c.rank))].sort((a, b) => a - b);

  const scatter = quizFor('scatter', gather, 8)!;
  assert.match(quizQuestion(scatter), new RegExp(`copies of P${prompt} after the scatter`));
  const free = [0, 1, 2, 3, 4, 5, 6, 7].find((r) => !ranks.includes(r))!;
  const text = quizResult(scatter, { numbers: new Set([ranks[0]!, free]) });
  assert.match(text, new RegExp(`You picked 1 of those ${ranks.length} ranks and 1 that holds none\\.$`));

  const positions = quizFor('gather', gather, 8)!;
  const indices = copies.map((c) => c.gatheredIndex);
  assert.match(
    quizResult(positions, { numbers: parseNumbers(indices.join(' ')) }),
    new RegExp(`positions ${indices.join(', ')} .*You named ${indices.length} of those ${indices.length}\\.$`),
  );
  assert.deepEqual([...parseNumbers('3, 17 30;x')], [3, 17, 30]);

  const mean = quizFor('accumulate', gather, 8)!;
  assert.ok(mean.kind === 'yes-no');
  // flow_grpo scatters a prompt's k = 4 copies over ranks: no rank holds a whole group.
  assert.equal(mean.answer, false);
  assert.match(
    quizResult(mean, { yes: false }),
    /^Right: no, rank \d+ holds 1 of the 4 copies; the others are on rank \d+, rank \d+, rank \d+/,
  );
  assert.match(quizResult(mean, { yes: true }), /^Not quite: no/);
  assert.equal(quizFor('scatter', { epoch: 0, stepIndices: [], samples: [] }, 8), null);
});
