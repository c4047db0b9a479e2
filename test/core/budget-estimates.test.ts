// The budgets' estimates count the work the commands really do. An estimate is a per-item cost times
// a count (core/samplers/estimate.ts, core/budget.ts); the costs are timings, reported beside real
// runs by `npm run bench -- layout-scale steps-scale` (CPU / estimate, with the machine's load), never
// asserted here. What a test can hold exactly is the count: the samples a layout prints and the rows
// and micro-batches steps prints are the ones the estimate was made from, at sizes where a count
// that grows the wrong way (TRL's RepeatSampler yielding each generation batch spg × num_iterations
// times) would show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig } from '../../src/core/samplers/index.ts';
import { layoutSamples } from '../../src/core/samplers/estimate.ts';
import { plannedWork } from '../../src/core/steps/schedule.ts';
import type { LayoutConfig } from '../../src/core/layout/types.ts';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';

/** The flags of a layout configuration, as the CLI takes them. */
function flags(c: Partial<LayoutConfig>): string[] {
  const name: Record<string, string> = {
    sampler: '--sampler',
    ranks: '--ranks',
    batch: '--batch',
    k: '--k',
    batchesPerEpoch: '--batches-per-epoch',
    epochs: '--epochs',
    datasetSize: '--dataset-size',
    gradientAccumulationSteps: '--gradient-accumulation-steps',
    numIterations: '--num-iterations',
  };
  return Object.entries(c).flatMap(([key, value]) => [name[key]!, String(value)]);
}

/** The command's JSON, run in this process (the fields these tests read). */
interface CommandJson {
  steps: { ranks: number[][]; microBatches: { completions: number[] }[] }[];
}

async function runJson(argv: string[]): Promise<CommandJson> {
  const io = memoryIo();
  const status = await main([...argv, '--json'], io);
  assert.equal(status, 0, io.stderr);
  return JSON.parse(io.stdout);
}

function config(c: Partial<LayoutConfig>): LayoutConfig {
  return { ...defaultConfig, ...c, stepsPerGeneration: c.gradientAccumulationSteps ?? 1 } as LayoutConfig;
}

const layoutSizes: Partial<LayoutConfig>[] = [
  { sampler: 'flow-grpo', ranks: 64, batch: 4, k: 4, batchesPerEpoch: 40, epochs: 2, datasetSize: 4096 },
  { sampler: 'trl', ranks: 8, batch: 4, k: 8, gradientAccumulationSteps: 32, numIterations: 32, datasetSize: 2560 },
  { sampler: 'verl', ranks: 4, batch: 16, k: 4, epochs: 2, datasetSize: 256 },
  { sampler: 'dance-grpo', ranks: 8, batch: 8, k: 4, datasetSize: 64 },
];

for (const c of layoutSizes) {
  test(`layout's estimate counts the samples layout prints: --sampler ${c.sampler}`, async () => {
    const out = await runJson(['layout', ...flags(c)]);
    const printed = out.steps.reduce((n, s) => n + s.ranks.flat().length, 0);
    assert.equal(layoutSamples(config(c)), printed);
  });
}

const stepsSizes: Partial<LayoutConfig>[] = [
  { sampler: 'trl', ranks: 8, batch: 8, k: 8, gradientAccumulationSteps: 8, datasetSize: 512 },
  { sampler: 'trl', ranks: 2, batch: 4, k: 4, gradientAccumulationSteps: 2, numIterations: 3, datasetSize: 64 },
  { sampler: 'flow-grpo', ranks: 4, batch: 4, k: 4, batchesPerEpoch: 4, epochs: 2, datasetSize: 64 },
];

for (const c of stepsSizes) {
  test(`steps' estimate counts the rows and micro-batches steps prints: ${flags(c).join(' ')}`, async () => {
    const cfg = config(c);
    const work = plannedWork(cfg, layoutSamples(cfg));
    const out = await runJson(['steps', ...flags(c)]);
    const micro = out.steps.flatMap((s) => s.microBatches);
    const rows = micro.reduce((n, m) => n + m.completions.length, 0);
    assert.ok(rows <= work.rows, `steps printed ${rows} rows, the estimate counted ${work.rows}`);
    assert.ok(rows >= work.rows / 2, `steps printed ${rows} rows, the estimate counted ${work.rows} (over 2× too many)`);
    assert.ok(
      micro.length <= work.microBatches * 2 && micro.length * 2 >= work.microBatches,
      `${micro.length} against ${work.microBatches}`,
    );
  });
}
