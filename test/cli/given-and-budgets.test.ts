// A flag the user gave is honoured or refused (flow-grpo-lcm's --batches-per-epoch), the settings
// table's ranges are the limits, presets are own-property lookups, and schedule, train and
// advantages check their budgets before any work. In-process through main(argv, io).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { BUDGET, advantagesEstimate, scheduleEstimate, trainStepEstimate } from '../../src/core/budget.ts';
import { LIMITS } from '../../src/core/samplers/rules.ts';
import { settingOf } from '../../src/core/settings.ts';
import { defaultConfig, validateConfig } from '../../src/core/samplers/index.ts';

async function cli(args: string[], stdin?: string) {
  const io = memoryIo(stdin);
  const status = await main(args, io);
  return { status, stdout: io.stdout, stderr: io.stderr };
}

function refused(r: { status: number; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.split('\n').length, 2, r.stderr);
  assert.match(r.stderr, pattern);
}

test('flow-grpo-lcm: a given --batches-per-epoch is honoured exactly or refused naming values that pass (it was raised silently)', async () => {
  const base = ['layout', '--sampler', 'flow-grpo-lcm', '--ranks', '2', '--batch', '3', '--k', '4', '--json'];
  refused(
    await cli([...base, '--batches-per-epoch', '1']),
    new RegExp(
      '^grpo-sandbox layout: --sampler flow-grpo-lcm cuts an epoch into a multiple of k\\/gcd\\(k, ranks×batch\\)=4\\/2=2 batches .*, so batches-per-epoch=1' +
        ' would become 2; use --batches-per-epoch 2\\n$',
    ),
  );
  const ok = await cli([...base, '--batches-per-epoch', '4']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).config.batchesPerEpoch, 4);
  // Each named value passes the validator (dataset-size 8 holds 4 batches' prompts, not 6).
  const r = await cli([...base, '--batches-per-epoch', '5', '--dataset-size', '8']);
  refused(r, /would become 6; use --batches-per-epoch 4\n$/);
  for (const n of [...r.stderr.matchAll(/--batches-per-epoch (\d+)/g)].map((m) => Number(m[1])))
    assert.equal(
      validateConfig({ ...defaultConfig, sampler: 'flow-grpo-lcm', ranks: 2, batch: 3, k: 4, datasetSize: 8, batchesPerEpoch: n }),
      null,
    );
  // Not given: the preset's 2 becomes a whole epoch (3 batches of 16 for k=3), as the notes say.
  const preset = await cli(['layout', '--sampler', 'flow-grpo-lcm', '--k', '3', '--json']);
  assert.equal(JSON.parse(preset.stdout).config.batchesPerEpoch, 3);
});

test('flow-grpo-lcm with 125000 batches per epoch prints its JSON (it once took 114 s: bench it, never time it here)', async () => {
  const r = await cli(
    ['layout', '--sampler', 'flow-grpo-lcm', '--ranks', '1', '--batch', '1', '--k', '1', '--batches-per-epoch', '125000'].concat([
      '--dataset-size',
      '125000',
      '--json',
    ]),
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).steps.length, 125_000);
});

test("dataset-size's range in the settings table is the sandbox's limit (the table said 2^53)", async () => {
  assert.equal(settingOf('datasetSize').max, 10_000_000);
  assert.equal(LIMITS.maxDatasetSize, settingOf('datasetSize').max);
  refused(
    await cli(['layout', '--dataset-size', '10000001']),
    /^grpo-sandbox layout: --dataset-size must be between 1 and 10000000, got 10000001\n$/,
  );
  assert.match(
    validateConfig({ ...defaultConfig, datasetSize: 10_000_001 })!.message,
    /^dataset-size=10000001 is above the sandbox's limit of 10000000$/,
  );
});

test('--preset __proto__, constructor, toString are unknown presets for layout, schedule and train (train ran the default)', async () => {
  for (const name of ['__proto__', 'constructor', 'toString']) {
    refused(await cli(['layout', '--preset', name]), new RegExp(`^grpo-sandbox layout: unknown preset '${name}'; presets: seed-000`));
    refused(await cli(['schedule', '--preset', name]), new RegExp(`^grpo-sandbox schedule: unknown preset '${name}'`));
    refused(
      await cli(['train', '--preset', name]),
      new RegExp(`^grpo-sandbox train: unknown --preset '${name}'; presets: seed-000, seed-003\n$`),
    );
  }
});

test('schedule, train and advantages refuse over budget before any work: estimate, budget and the flag to lower', async () => {
  // Within the simulator's 10^5 configurations every output stays within budget (the cap binds first).
  const worst = scheduleEstimate(100_000, 4096, { json: true, html: true });
  assert.ok(worst.bytes < BUDGET.bytes && worst.ms < BUDGET.ms, JSON.stringify(worst));
  refused(
    await cli(['schedule', '--batch', '100000000', '--k', '1000', '--json']),
    new RegExp(
      '^grpo-sandbox schedule: a schedule of batch × k = 100000000000 configurations on 4 ranks as JSON' +
        ' would need about [\\d.]+ GB of memory \\(budget 2\\.00 GB\\) and about \\d+ s \\(budget 30\\.0 s\\); lower --batch or --k\\n$',
    ),
  );
  // The seed-003 controller at 8192 samples drawn up to 10 times: ~64 s on the CPU (and 28 GB), refused; 2048 samples (~2 s) run.
  refused(
    await cli([
      'train',
      '--preset',
      'seed-003',
      '--batch',
      '8192',
      '--k',
      '8',
      '--loss',
      'dapo',
      '--dynamic-sampling',
      'fallback',
      '--max-resample-times',
      '9',
      '--steps',
      '1',
    ]),
    new RegExp(
      '^grpo-sandbox train: one training step of ranks × batch = 8192 samples drawn up to 10 times \\(dModel 2048, hidden 256, CPU estimate\\)' +
        ' would need about [\\d.]+ GB of memory \\(budget 2\\.00 GB\\) and about [\\d.]+ s \\(budget 30\\.0 s\\);' +
        ' lower --batch or --ranks \\(or --max-resample-times\\), or use --backend webgpu\\n$',
    ),
  );
  assert.ok(trainStepEstimate({ ranks: 1, batch: 2048, dModel: 2048, hidden: 256, draws: 1, k: 8 }).ms < BUDGET.ms);
  assert.ok(trainStepEstimate({ ranks: 1, batch: 512, dModel: 2048, hidden: 256, draws: 1 }).ms < BUDGET.ms);
  assert.ok(trainStepEstimate({ ranks: 64, batch: 1 << 16, dModel: 32, hidden: 32, draws: 4 }).bytes > BUDGET.bytes);
  // 2·10^7 samples fit the input limit in bytes but not the budget: refused after parsing, before grouping.
  assert.ok(advantagesEstimate(20_000_000).bytes > BUDGET.bytes);
  assert.ok(advantagesEstimate(1_000_000).bytes < BUDGET.bytes);
});

test('advantages: a large input is refused by the budget line, naming the samples', async () => {
  const n = 13_000_000;
  // "0," per value keeps the text near 52 MB, under the input limit.
  const zeros = `[${'0,'.repeat(n - 1)}0]`;
  const r = await cli(['advantages', '--scheme', 'trl-group', '--k', '1'], `{"rewards":${zeros},"promptIds":${zeros}}`);
  refused(
    r,
    new RegExp(
      '^grpo-sandbox advantages: advantages of 13000000 samples' +
        ' would need about [\\d.]+ GB of memory \\(budget 2\\.00 GB\\); lower the samples per call \\(split the input\\)\\n$',
    ),
  );
});
