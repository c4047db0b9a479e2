import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configReward, DEFAULT_DIMS, knob3Valid } from '../../../src/core/env/controller.ts';
import {
  blockedLatencyTokens,
  cacheLatencyTokens,
  latencyToken,
  makeTask,
  referenceLatencyTokens,
  scoreSample,
  VALID_CONFIGS,
} from '../../../src/core/env/task.ts';

const task = makeTask(DEFAULT_DIMS, 0, 64);

test('the bank has the asked size and is a function of the seed', () => {
  assert.equal(task.prompts.count, 64);
  assert.equal(makeTask(DEFAULT_DIMS, 0).prompts.count, 1024);
  assert.deepEqual(makeTask(DEFAULT_DIMS, 0, 64).prompts.stage1Input, task.prompts.stage1Input);
  assert.notDeepEqual(makeTask(DEFAULT_DIMS, 1, 64).prompts.difficulty, task.prompts.difficulty);
});

test('375 valid configurations: 3 tiers × 5 insertions × 5 top-K × the 5 valid knob-3 options of each insertion', () => {
  assert.equal(VALID_CONFIGS.length, 375);
  assert.ok(VALID_CONFIGS.every((c) => knob3Valid(c.insertion + 1, c.knob3)));
  assert.equal(new Set(VALID_CONFIGS.map((c) => JSON.stringify(c))).size, 375);
});

test('the optimum is the best of all valid configurations (checked by brute force on a few prompts)', () => {
  for (const i of [0, 17, 63]) {
    const d = task.prompts.difficulty[i]!;
    const b = task.prompts.budgetMs[i]!;
    const rewards = VALID_CONFIGS.map((c) => configReward(c, d, b).reward);
    assert.equal(task.optimumReward[i], Math.fround(Math.max(...rewards)));
    assert.equal(rewards[task.optimumConfig[i]!], Math.max(...rewards));
    assert.ok(Math.abs(task.randomReward[i]! - rewards.reduce((s, r) => s + r, 0) / 375) < 1e-6);
  }
});

test('the Stage-2 latency token depends on the insertion position p', () => {
  const d = DEFAULT_DIMS.dModel;
  const tokens = [1, 2, 3, 4, 5].map((p) => {
    const out = new Float32Array(d);
    latencyToken(task, 5, p, out, 0);
    return out;
  });
  for (let p = 1; p < 5; p++) assert.notDeepEqual(tokens[p], tokens[p - 1]);
  // p applications of one fixed block: applying it once more to p's token gives p + 1's.
  const again = new Float32Array(d);
  latencyToken(task, 5, 3, again, 0);
  assert.deepEqual(again, tokens[2]);
});

test('sparse rewards are 0/1 minus the penalty, with the dense reward as their mean', () => {
  const a = { tier: 1, insertion: 2, topK: 2, knob3: 10 };
  const dense = scoreSample(task, 3, a, 'dense', { seed: 0, step: 0, gatheredIndex: 0 });
  const r = configReward(a, task.prompts.difficulty[3]!, task.prompts.budgetMs[3]!);
  assert.equal(dense.reward, r.reward);
  const penalty = r.accuracy - r.reward;
  let sum = 0;
  const n = 20000;
  for (let i = 0; i < n; i++) {
    const s = scoreSample(task, 3, a, 'sparse', { seed: 0, step: 7, gatheredIndex: i });
    assert.ok(Math.abs(s.reward - (1 - penalty)) < 1e-12 || Math.abs(s.reward + penalty) < 1e-12);
    assert.equal(s.expected, r.reward);
    sum += s.reward;
  }
  assert.ok(Math.abs(sum / n - r.reward) < 0.02, `mean ${sum / n} vs expected ${r.reward}`);
  // The draw is keyed by the sample's gathered position and step, nothing else.
  const k = { seed: 0, step: 7, gatheredIndex: 123 };
  assert.equal(scoreSample(task, 3, a, 'sparse', k).reward, scoreSample(task, 3, a, 'sparse', { ...k }).reward);
});

test('the blocked latency tokens have the bits of the readable definition, for many prompts and sizes', () => {
  // dModel 37 (rows of the block not a multiple of 4), 128, 256 and 2048, odd and even counts of
  // prompts (blocks of 16 and a prompt left over), against referenceLatencyTokens bit for bit.
  for (const [dModel, count] of [
    [37, 101],
    [128, 35],
    [256, 40],
    [2048, 3], // the seed's size
  ] as const) {
    const t = makeTask({ dModel, hidden: 8 }, 7, count);
    const ids = Array.from({ length: count }, (_, i) => (i * 7) % count);
    const blocked = blockedLatencyTokens(t, ids);
    ids.forEach((id, k) => {
      const want = referenceLatencyTokens(t, id);
      assert.deepEqual(new Uint32Array(blocked[k]!.buffer), new Uint32Array(want.buffer), `dModel ${dModel}, prompt ${id}`);
    });
  }
});

test("latencyToken gives the definition's bits whether prompts were kept one by one or a step at a time", () => {
  for (const dModel of [32, 160]) {
    const t = makeTask({ dModel, hidden: 8 }, 3, 48);
    cacheLatencyTokens(t, [5, 9, 9, 40, 5, 17]);
    const out = new Float32Array(dModel);
    for (const id of [5, 9, 40, 17, 2]) {
      const ref = referenceLatencyTokens(t, id);
      for (let p = 1; p <= 5; p++) {
        latencyToken(t, id, p, out, 0);
        assert.deepEqual(out, ref.subarray((p - 1) * dModel, p * dModel), `dModel ${dModel}, prompt ${id}, p ${p}`);
      }
    }
  }
});
