// Every sampler's layout against test/fixtures/golden-layouts.json, which scripts/golden/make_fixtures.py
// made with the real torch DistributedSampler/DataLoader, trl's RepeatSampler, accelerate's
// BatchSamplerShard, and line-for-line transcriptions of flow_grpo's and DanceGRPO's loops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LayoutConfig, SamplerName } from '../../../src/core/layout/types.ts';
import { buildLayout, samplerNames } from '../../../src/core/samplers/index.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Golden {
  versions: Record<string, string>;
  cases: { config: LayoutConfig; steps: number[][][] }[];
}
const golden = fixture<Golden>('golden-layouts.json');

test('the fixture covers every sampler but verl on at least 40 configurations, made by torch 2.13 / trl 1.13', () => {
  assert.ok(golden.cases.length >= 40, `${golden.cases.length} cases`);
  // verl's layouts have their own fixture, made from verl's code (golden-verl.json, test/core/samplers/golden-verl.test.ts).
  assert.deepEqual([...new Set(golden.cases.map((c) => c.config.sampler))].sort(), samplerNames.filter((s) => s !== 'verl').sort());
  assert.match(golden.versions.torch!, /^2\.13/);
  assert.equal(golden.versions.trl, '1.13.0');
});

const seen = new Map<SamplerName, number>();
for (const { config, steps } of golden.cases) {
  const n = (seen.get(config.sampler) ?? 0) + 1;
  seen.set(config.sampler, n);
  const { sampler, ranks, batch, k, datasetSize, epochs, seed } = config;
  test(`${sampler} #${n}: W=${ranks} B=${batch} k=${k} D=${datasetSize} E=${epochs} seed=${seed} matches the real library`, () => {
    // The fixture's flow_grpo loops read the sampler directly (the idealised loop), so they are given the
    // idealised loader; golden-flow-grpo-loader.test.ts checks the published scripts' loader.
    const layout = buildLayout(sampler.startsWith('flow-grpo') ? { ...config, numWorkers: 0, acceleratePrepare: 0 } : config);
    assert.deepEqual(
      layout.steps.map((s) => s.ranks),
      steps,
    );
  });
}

test('dance-grpo: the fixture itself shows every pass repeating pass 0 (DanceGRPO calls set_epoch(0) only)', () => {
  for (const { config, steps } of golden.cases.filter((c) => c.config.sampler === 'dance-grpo' && c.config.epochs > 1)) {
    const perPass = steps.length / config.epochs;
    for (let i = perPass; i < steps.length; i++) assert.deepEqual(steps[i], steps[i % perPass]);
  }
});
