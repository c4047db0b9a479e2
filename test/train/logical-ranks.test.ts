// Training on logical ranks: the same run with its ranks on one thread per rank, on fewer threads
// and on one thread gives the same metrics and the same parameters, bit for bit (the ranks of a thread
// share one replica while its bits are every rank's, and the collectives reduce in rank order whatever
// thread a rank is on).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorldFailure } from '../../src/ranks/world.ts';
import { runTrain } from './helpers.ts';

const config = { ranks: 4, batch: 16, k: 4, sampler: 'trl', steps: 12, checksumEvery: 4 } as const;

test('4 ranks on 4 threads, 2 threads and 1 thread train to the same bits', async () => {
  const separate = await runTrain(config, { threads: 4 });
  for (const threads of [2, 1]) {
    const shared = await runTrain(config, { threads });
    assert.deepEqual(shared.plain, separate.plain, `metrics on ${threads} thread(s)`);
    assert.deepEqual(Array.from(shared.final.params), Array.from(separate.final.params), `parameters on ${threads} thread(s)`);
    assert.deepEqual(Array.from(shared.final.v), Array.from(separate.final.v), `Adam state on ${threads} thread(s)`);
  }
});

test("flow_grpo's scattered copies: ranks sharing a thread share trunk rows and train to the same bits", async () => {
  // flow_grpo's sampler spreads a prompt's copies over the ranks, so the ranks of a thread hold the same inputs
  // and compute each once (replicas.ts's sharedRows); with a diverged rank its rows must stay its own.
  const flow = { ...config, sampler: 'flow-grpo', advantage: 'flow-grpo' } as const;
  const separate = await runTrain(flow, { threads: 4 });
  const shared = await runTrain(flow, { threads: 1 });
  assert.deepEqual(shared.plain, separate.plain);
  assert.deepEqual(Array.from(shared.final.params), Array.from(separate.final.params));
  const diverged = async (threads: number) => {
    try {
      await runTrain({ ...flow, checksumEvery: 3, steps: 3 }, { threads, divergeRank: 3 });
    } catch (err) {
      return /parameters diverged across ranks after step \d+ \(checksums [^)]*\)/.exec(String(err))?.[0];
    }
    assert.fail('the diverged replica was not caught');
  };
  const onFour = await diverged(4);
  assert.match(onFour ?? '', /rank 3: [0-9a-f]{8}\)/);
  assert.equal(await diverged(1), onFour);
});

test('dynamic sampling on shared threads resamples and trains as on one thread per rank', async () => {
  const dyn = { ...config, reward: 'sparse', steps: 6, dynamicSampling: 'fallback' } as const;
  const separate = await runTrain(dyn, { threads: 4 });
  const shared = await runTrain(dyn, { threads: 1 });
  assert.deepEqual(shared.plain, separate.plain);
  assert.deepEqual(Array.from(shared.final.params), Array.from(separate.final.params));
});

test('accumulated micro-steps on shared threads train as on one thread per rank', async () => {
  const micro = { ...config, steps: 4, gradientAccumulationSteps: 2, numIterations: 2 } as const;
  const separate = await runTrain(micro, { threads: 4 });
  const shared = await runTrain(micro, { threads: 2 });
  assert.deepEqual(shared.plain, separate.plain);
  assert.deepEqual(Array.from(shared.final.params), Array.from(separate.final.params));
});

test('a replica that diverges is caught on shared threads as on separate ones, naming the rank', async () => {
  const failure = async (threads: number) => {
    try {
      await runTrain({ ...config, checksumEvery: 1, steps: 3 }, { threads, divergeRank: 3 });
    } catch (err) {
      assert.ok(err instanceof WorldFailure, String(err));
      return err.message.replace(/\d+ ms/g, 'N ms');
    }
    assert.fail('the diverged replica was not caught');
  };
  // Which ranks see the divergence themselves and which are stopped by the first to raise depends on the
  // scheduler (under load rank 1 may be aborted by rank 0 before its own check): the diagnosis is what must agree.
  const diagnosis = (message: string) => /parameters diverged across ranks after step \d+ \(checksums [^)]*\)/.exec(message)?.[0];
  const separate = await failure(4);
  assert.match(separate, /rank 3: [0-9a-f]{8}\)/);
  assert.ok(diagnosis(separate), separate);
  assert.equal(diagnosis(await failure(2)), diagnosis(separate));
  // On one thread every rank's replica is one state while they agree (src/train/replicas.ts): the diverging rank's
  // own copy must still be what the check compares, not the others' (which would hide it or blame its neighbours).
  assert.equal(diagnosis(await failure(1)), diagnosis(separate));
});
