// The budgets' time estimates against the code as it runs now: each command at two sizes, well
// under a second each, its work measured as the CPU time of the real call in this process (the
// runtime's start, STARTUP, is paid once and left out of both sides). An estimate more than 4×
// from its run fails: a stale per-item cost, or work that grows faster than the estimate (the
// steps command's quadratic generation batches, 27 s at 4,096 completions each, fail here).
// Node only: the costs are Node 20's, which the CLI runs on; Deno runs the same work up to ~5×
// quicker here (steps' text report), where the estimate errs on the safe side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STARTUP, stepsEstimate } from '../../src/core/budget.ts';
import { defaultConfig } from '../../src/core/samplers/index.ts';
import { layoutEstimate, layoutSamples } from '../../src/core/samplers/estimate.ts';
import { plannedWork } from '../../src/core/steps/schedule.ts';
import type { LayoutConfig } from '../../src/core/layout/types.ts';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';

const APART = 4;

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

/** CPU milliseconds of one call of the command (the lowest of three runs), after a warm-up run. */
async function measuredMs(argv: string[]): Promise<number> {
  const once = async () => {
    const io = memoryIo();
    const before = process.cpuUsage();
    const status = await main(argv, io);
    const used = process.cpuUsage(before);
    assert.equal(status, 0, io.stderr);
    return (used.user + used.system) / 1000;
  };
  await once();
  return Math.min(await once(), await once(), await once());
}

/** Fails when the run is more than APART× from the estimate either way; returns the comparison in words. */
function assertNear(what: string, estimateMs: number, measured: number): string {
  const ratio = measured / estimateMs;
  const said = `${what}: estimated ${estimateMs.toFixed(1)} ms of work, measured ${measured.toFixed(1)} ms (×${ratio.toFixed(2)})`;
  assert.ok(ratio <= APART && ratio >= 1 / APART, said);
  return said;
}

// Two samplers at two sizes each. TRL's with steps_per_generation 32 × num_iterations 32: RepeatSampler yields
// each generation batch 1,024 times, of which the layout keeps one (building all of them cost 1,024× the work).
const layoutSizes: Partial<LayoutConfig>[][] = [
  [
    { sampler: 'flow-grpo', ranks: 64, batch: 4, k: 4, batchesPerEpoch: 40, epochs: 2, datasetSize: 4096 },
    { sampler: 'flow-grpo', ranks: 64, batch: 4, k: 4, batchesPerEpoch: 40, epochs: 8, datasetSize: 4096 },
  ],
  [
    { sampler: 'trl', ranks: 8, batch: 4, k: 8, gradientAccumulationSteps: 32, numIterations: 32, datasetSize: 2560 },
    { sampler: 'trl', ranks: 8, batch: 4, k: 8, gradientAccumulationSteps: 32, numIterations: 32, datasetSize: 10240 },
  ],
];

for (const sizes of layoutSizes) {
  for (const output of ['json', 'text'] as const) {
    const configs = sizes.map((c) => ({ ...defaultConfig, ...c, stepsPerGeneration: c.gradientAccumulationSteps ?? 1 }) as LayoutConfig);
    const name = `layout's ${output} estimate is within ${APART}× of a run of --sampler ${configs[0]!.sampler}`;
    test(`${name} at ${configs.map(layoutSamples).join(' and ')} samples`, async (t) => {
      for (const [i, c] of sizes.entries()) {
        const estimate = layoutEstimate(configs[i]!, output).ms - STARTUP.ms;
        const measured = await measuredMs(['layout', ...flags(c), ...(output === 'json' ? ['--json'] : [])]);
        t.diagnostic(assertNear(`layout ${flags(c).join(' ')} (${output})`, estimate, measured));
      }
    });
  }
}

// Generation batches of 512 and 4,096 completions (W × B × GA), 16,384 and 65,536 completions in all.
const stepsSizes: Partial<LayoutConfig>[] = [
  { sampler: 'trl', ranks: 8, batch: 8, k: 8, gradientAccumulationSteps: 8, datasetSize: 2048 },
  { sampler: 'trl', ranks: 16, batch: 16, k: 8, gradientAccumulationSteps: 16, datasetSize: 8192 },
];

for (const output of ['json', 'text'] as const) {
  test(`steps' ${output} estimate is within ${APART}× of a run at generation batches of 512 and 4,096 completions`, async (t) => {
    for (const c of stepsSizes) {
      const config = { ...defaultConfig, ...c, stepsPerGeneration: c.gradientAccumulationSteps! } as LayoutConfig;
      const work = plannedWork(config, layoutSamples(config));
      const estimate = stepsEstimate(work, output).ms - STARTUP.ms;
      const measured = await measuredMs(['steps', ...flags(c), ...(output === 'json' ? ['--json'] : [])]);
      t.diagnostic(assertNear(`steps ${flags(c).join(' ')} (${output}, ${work.rows} rows)`, estimate, measured));
    }
  });
}
