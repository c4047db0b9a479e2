// flow_grpo's layouts under the loader its published scripts build, against
// test/fixtures/golden-flow-grpo-loader.json: scripts/golden/flow_grpo_loader.py exec'd flow_grpo's own
// DistributedKRepeatSampler (scripts/train_sd3.py at ac4c86e, flow_grpo/sampler.py at 74db691) under
// torch's DataLoader and accelerate's prepare, and recorded what each rank's next() returned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LayoutConfig } from '../../../src/core/layout/types.ts';
import { presets } from '../../../src/core/presets.ts';
import { buildLayout } from '../../../src/core/samplers/index.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Case {
  name: string;
  source: string;
  loop: 'once' | 'epoch';
  config: Omit<LayoutConfig, 'stepsPerGeneration' | 'numIterations' | 'gradientAccumulationSteps'>;
  steps: number[][][];
}
interface Golden {
  versions: Record<string, string>;
  sources: { file: string; commit: string; variant: string }[];
  cases: Case[];
}
const golden = fixture<Golden>('golden-flow-grpo-loader.json');
const rest = { stepsPerGeneration: 1, numIterations: 1, gradientAccumulationSteps: 1 };

test('the fixture ran flow_grpo’s own classes from both commits, with torch 2.13 and accelerate 1.15', () => {
  assert.deepEqual(
    golden.sources.map((s) => `${s.file}@${s.commit.slice(0, 7)}`),
    ['scripts/train_sd3.py@ac4c86e', 'flow_grpo/sampler.py@74db691'],
  );
  assert.match(golden.versions.torch!, /^2\.13/);
  assert.match(golden.versions.accelerate!, /^1\.15/);
  assert.ok(golden.cases.length >= 12);
});

for (const c of golden.cases) {
  test(`${c.config.sampler}: ${c.name} (${c.source}) matches the real loader`, () => {
    const layout = buildLayout({ ...rest, ...c.config } as LayoutConfig);
    assert.deepEqual(
      layout.steps.map((s) => s.ranks),
      c.steps,
    );
  });
}

test('seed-000’s preset carries the published loader, and its layout is the fixture’s shipped case', () => {
  const shipped = golden.cases.find((c) => c.name.startsWith('seed-000, as scripts/train_sd3.py'))!;
  const config = { ...presets['seed-000']!.config, epochs: shipped.config.epochs };
  assert.deepEqual(
    buildLayout(config).steps.map((s) => s.ranks),
    shipped.steps,
  );
});

test('the fixture itself: the shipped loader repeats set_epoch(0)’s batch in steps 0–3, the idealised one does not', () => {
  const byName = (prefix: string) => golden.cases.find((c) => c.name.startsWith(prefix))!.steps;
  const shipped = byName('seed-000, as scripts/train_sd3.py');
  const ideal = byName('seed-000, idealised');
  for (let s = 0; s < 4; s++) assert.deepEqual(shipped[s], ideal[0]);
  for (let s = 4; s < shipped.length; s++) assert.deepEqual(shipped[s], ideal[s - 3]);
  assert.notDeepEqual(ideal[1], ideal[0]);
});
