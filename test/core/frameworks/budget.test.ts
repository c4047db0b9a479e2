// The work budget of a framework home's `layout` and `steps` (src/core/frameworks/budget.ts): the estimate is a
// per-sample cost times the steps and samples the settings plan (FrameworkHome.plannedLayout), counted before
// building. The costs are timings (measured by bench/framework-budget-one.ts, never asserted here); what a test
// holds is the count: the samples and steps `layout` prints and the rows `steps` prints are at most those planned,
// and not less than half of them, on every home, with the keys that cap or replace the step count and the trainer's
// passes. Then a giant setting is refused in one line, exit 2, before the home builds anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../../src/cli/main.ts';
import { memoryIo } from '../../../src/cli/io.ts';
import { frameworkStepsRows, plannedLayout } from '../../../src/core/frameworks/budget.ts';
import { FRAMEWORK_HOMES } from '../../../src/core/frameworks/index.ts';
import { defaultSettings } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkHome, FrameworkSettings } from '../../../src/core/frameworks/types.ts';

const flags = (over: FrameworkSettings) => Object.entries(over).flatMap(([flag, value]) => [`--${flag}`, String(value)]);

interface Printed {
  steps: { ranks: number[][]; microBatches: { completions: number[] }[] }[];
}

async function runJson(argv: string[]): Promise<Printed> {
  const io = memoryIo();
  const status = await main([...argv, '--json'], io);
  assert.equal(status, 0, io.stderr);
  return JSON.parse(io.stdout);
}

const plan = (home: FrameworkHome, over: FrameworkSettings) => plannedLayout(home, { ...defaultSettings(home.keys), ...over });

/** 1000 prompts in batches of 16 (the last one short), k 4, 3 epochs; OpenRLHF's optimizer step a whole rollout. */
const common = (name: string): FrameworkSettings => ({
  'dataset-size': 1000,
  epochs: 3,
  k: 4,
  'train-batch-size': 16,
  ...(name === 'openrlhf' ? { 'train-global-batch-size': 64 } : {}),
});

/** Each home's keys that cap or replace the step count, or replace the epochs. */
const own: Record<string, FrameworkSettings[]> = {
  'nemo-rl': [{ 'max-num-steps': 5 }],
  easyr1: [{ 'max-steps': 300 }, { 'max-steps': 7 }],
  skyrl: [{ 'max-training-steps': 3 }],
  slime: [{ 'num-rollout': 7 }],
  areal: [{ 'dataset-size': 300, 'train-batch-size': 7, k: 3 }],
  roll: [{ 'max-steps': 3 }],
  openrlhf: [{ 'max-samples': 320 }],
  'open-instruct': [{ epochs: null, 'total-episodes': 5000 }],
  'prime-rl': [{ 'max-steps': 2 }, { 'train-batch-size': null, 'token-batch-size': 4096 }],
};

for (const home of FRAMEWORK_HOMES) {
  for (const extra of [{}, ...(own[home.name] ?? [])]) {
    const over = { ...common(home.name), ...extra };
    test(`layout --sampler ${home.name} ${flags(extra).join(' ')}: the estimate counts the steps and samples it prints`, async () => {
      const out = await runJson(['layout', '--sampler', home.name, ...flags(over)]);
      const printed = out.steps.reduce((n, s) => n + s.ranks.flat().length, 0);
      const p = plan(home, over);
      assert.ok(printed > 0);
      assert.ok(printed <= p.samples && p.samples <= 2 * printed, `printed ${printed} samples, planned ${p.samples}`);
      assert.ok(out.steps.length <= p.steps, `printed ${out.steps.length} steps, planned ${p.steps}`);
      // The loader orders the dataset once an epoch begun: all three without a cap.
      const dataset = Number(over['dataset-size']);
      if (Object.keys(extra).length === 0) assert.equal(p.datasetItems, 3 * dataset);
      else assert.ok(p.datasetItems! >= dataset, `${p.datasetItems} dataset prompts ordered`);
    });
  }
}

/** The trainer's passes over a step's samples, where a home has them. */
const passes: Record<string, string> = {
  easyr1: 'ppo-epochs',
  roll: 'ppo-epochs',
  skyrl: 'update-epochs-per-batch',
  openrlhf: 'max-epochs',
  'open-instruct': 'num-epochs',
};

for (const home of FRAMEWORK_HOMES.filter((h) => h.trainer)) {
  for (const extra of [{}, ...(passes[home.name] ? [{ [passes[home.name]!]: 3 }] : [])]) {
    const over = { ...common(home.name), 'dataset-size': 256, epochs: 1, ...extra };
    test(`steps --framework ${home.name} ${flags(extra).join(' ')}: the estimate counts the rows it prints`, async () => {
      const out = await runJson(['steps', '--framework', home.name, ...flags(over), '--steps', '2']);
      type Micro = { completions: number[] };
      const rows = out.steps
        .flatMap((s: { microBatches: Micro[] }) => s.microBatches)
        .reduce((n: number, m: Micro) => n + m.completions.length, 0);
      const planned = frameworkStepsRows(plan(home, over), 2);
      assert.ok(rows > 0);
      assert.ok(rows <= planned && planned <= 2 * rows, `printed ${rows} rows, planned ${planned}`);
    });
  }
}

test('a giant setting is refused in one line with the count, the estimate and the flags to lower, exit 2, before building', async () => {
  const nemo = FRAMEWORK_HOMES.find((h) => h.name === 'nemo-rl')!;
  const openInstruct = FRAMEWORK_HOMES.find((h) => h.name === 'open-instruct')!;
  const layouts = [nemo.layout, openInstruct.layout];
  // Building would throw (NeMo RL's default grpo.max_num_steps is 10^6 steps): the refusal must come first.
  for (const home of [nemo, openInstruct]) {
    home.layout = () => {
      throw new Error(`${home.name}'s layout was built`);
    };
  }
  const need = 'would need about [\\d.]+ GB of memory \\(budget 2\\.00 GB\\) and about [\\d.]+ s \\(budget 30\\.0 s\\)';
  try {
    const cases: [string[], RegExp][] = [
      [
        ['layout', '--sampler', 'nemo-rl', '--dataset-size', '100000000'],
        new RegExp(
          "^grpo-sandbox layout: NVIDIA NeMo RL's layout \\(text report\\) of 1000000 steps × 512 samples = 512000000 samples " +
            `${need}; lower --dataset-size, --epochs, --k or --max-num-steps\n$`,
        ),
      ],
      [
        ['layout', '--sampler', 'nemo-rl', '--dataset-size', '100000000', '--max-num-steps', '10', '--json'],
        new RegExp(
          "^grpo-sandbox layout: NVIDIA NeMo RL's layout \\(JSON\\) of 10 steps × 512 samples = 5120 samples from 100000000 dataset prompts ordered " +
            `${need}; lower`,
        ),
      ],
      [
        ['steps', '--framework', 'open-instruct', '--total-episodes', '4000000', '--num-epochs', '8', '--steps', '4000'],
        new RegExp(
          "^grpo-sandbox steps: .*'s steps \\(text report\\) over a layout of 62500 steps × 64 samples = 4000000 samples, " +
            `4000 shown × 64 samples × 8 passes = 2048000 rows ${need}; lower --total-episodes \\(or set --epochs\\), or --steps\n$`,
        ),
      ],
    ];
    for (const [argv, message] of cases) {
      const io = memoryIo();
      assert.equal(await main(argv, io), 2, argv.join(' '));
      assert.equal(io.stdout, '');
      assert.match(io.stderr, message);
    }
  } finally {
    [nemo.layout, openInstruct.layout] = layouts as [typeof nemo.layout, typeof openInstruct.layout];
  }
});
