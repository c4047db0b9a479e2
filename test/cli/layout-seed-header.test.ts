// The header above each flow_grpo batch says which set_epoch seeded the batch printed under it. With
// the published loader (DataLoader workers and accelerate's look-ahead) a step receives a batch drawn
// before its own set_epoch call, so the header names that earlier call. Checked against what flow_grpo's
// own sampler handed to each rank under real torch and accelerate (test/fixtures/golden-flow-grpo-loader.json):
// the batch the shipped loader gave at step t is the one the idealised loop (each batch drawn after its
// set_epoch call) gave at the step the header names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.ts';
import { fixture } from '../helpers/fixtures.ts';

interface Case {
  name: string;
  config: Record<string, string | number>;
  steps: number[][][];
}
const golden = fixture<{ cases: Case[] }>('golden-flow-grpo-loader.json');

/** The set_epoch value the header of each step names for each rank's batch. */
function headerSeeds(text: string, ranks: number): number[][] {
  const out: number[][] = [];
  for (const line of text.split('\n')) {
    const m = /^epoch \d+, batch \d+ {2}\(step (\d+); (.*); rows = ranks, columns = slots\)$/.exec(line);
    if (!m) continue;
    const note = m[2]!;
    const perRank = Array<number>(ranks).fill(-1);
    const byRanks = [...note.matchAll(/ranks ([\d–,]+) set_epoch\((\d+)\)'s/g)];
    if (byRanks.length) {
      for (const [, list, e] of byRanks)
        for (const part of list!.split(',')) {
          const [a, b] = part.split('–').map(Number);
          for (let r = a!; r <= (b ?? a!); r++) perRank[r] = Number(e);
        }
    } else {
      const seeded = [...note.matchAll(/manual_seed\(\d+ \+ (\d+)\)/g)].at(-1);
      assert.ok(seeded, `step ${m[1]}: the header names no seed: ${note}`);
      perRank.fill(Number(seeded[1]));
    }
    out[Number(m[1])] = perRank;
  }
  return out;
}

// Each shipped-loader case beside its idealised twin (the same settings, num_workers 0, not prepared).
const pairs = golden.cases.flatMap((shipped) => {
  if (shipped.config.sampler !== 'flow-grpo') return [];
  const ideal = golden.cases.find(
    (c) =>
      c !== shipped &&
      c.config.numWorkers === 0 &&
      c.config.acceleratePrepare === 0 &&
      ['sampler', 'seed', 'ranks', 'batch', 'k', 'batchesPerEpoch', 'datasetSize', 'epochs'].every(
        (f) => c.config[f] === shipped.config[f],
      ),
  );
  return ideal && (shipped.config.numWorkers !== 0 || shipped.config.acceleratePrepare !== 0) ? [{ shipped, ideal }] : [];
});

test('the golden fixture holds shipped loaders beside their idealised loop', () => {
  assert.ok(pairs.length >= 3, `${pairs.length} pairs`);
});

for (const { shipped, ideal } of pairs) {
  test(`flow_grpo's header names the set_epoch that seeded the batch printed: ${shipped.name}`, async () => {
    const c = shipped.config;
    const args = ['layout', '--sampler', 'flow-grpo'];
    for (const [field, flag] of Object.entries({
      seed: 'seed',
      ranks: 'ranks',
      batch: 'batch',
      k: 'k',
      batchesPerEpoch: 'batches-per-epoch',
      datasetSize: 'dataset-size',
      epochs: 'epochs',
      numWorkers: 'num-workers',
      prefetchFactor: 'prefetch-factor',
      acceleratePrepare: 'accelerate-prepare',
    }))
      args.push(`--${flag}`, String(c[field]));
    const { status, stdout } = await runCli(args);
    assert.equal(status, 0);
    const seeds = headerSeeds(stdout, Number(c.ranks));
    assert.equal(seeds.length, shipped.steps.length);
    seeds.forEach((perRank, t) =>
      perRank.forEach((e, r) =>
        assert.deepEqual(shipped.steps[t]![r], ideal.steps[e]![r], `step ${t}, rank ${r}: the header says set_epoch(${e})`),
      ),
    );
  });
}
