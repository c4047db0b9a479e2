// The heads' softmax once per distinct input of a thread whose ranks hold one replica (src/train/shared-heads.ts,
// on the fast backend): every rank's samples (actions, their log-probabilities, the probabilities the backward
// reads) have the bits it has alone, the softmax runs on each distinct input of the thread once, and a rank
// whose head weights alone differ, or a step under moved head weights, never reads rows computed under other
// weights (a shared value must not hide a rank's divergence). drawRows draws as the fast sampler does, rows
// without a valid option included. Runs under Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DIMS, HEAD_LIST, initControllerParams } from '../../src/core/env/controller.ts';
import { makeTask } from '../../src/core/env/task.ts';
import { fastBackend, type OpsBackend } from '../../src/ops/backend.ts';
import { categoricalSample } from '../../src/ops/fast/categoricalSample.ts';
import { drawRows } from '../../src/ops/fast/drawRows.ts';
import { maskedSoftmax } from '../../src/ops/fast/maskedSoftmax.ts';
import { LocalGroup } from '../../src/ranks/local-group.ts';
import { layoutOf, rollout, type Rollout } from '../../src/train/policy.ts';
import { joinReplica, ownState, sharedRows, updateOnce } from '../../src/train/replicas.ts';
import type { TrainState } from '../../src/train/step.ts';
import { Workspace } from '../../src/train/workspace.ts';

const dims = DEFAULT_DIMS;
const task = makeTask(dims, 3, 64);
const initial = initControllerParams(dims, 3);

/** Rows each kind of head op ran on: the per-row sampler, and the softmax alone (the shared heads'). */
const ran = { sampled: 0, softmax: 0 };
const counting: OpsBackend = {
  ...fastBackend,
  categoricalSample: (logits, mask, h, k, out) => {
    ran.sampled += h.rows;
    return fastBackend.categoricalSample(logits, mask, h, k, out);
  },
  maskedSoftmax: (logits, mask, h, out) => {
    ran.softmax += h.rows;
    return fastBackend.maskedSoftmax(logits, mask, h, out);
  },
};

const fresh = (): TrainState => ({
  params: initial.slice(),
  m: new Float32Array(initial.length),
  v: new Float32Array(initial.length),
  ref: null,
  step: 0,
});

/** Rank r's prompts: each prompt's copies spread over the ranks, so the ranks' inputs overlap. */
const idsOf = (r: number) => Array.from({ length: 32 }, (_, i) => (5 * i + 3 * r) % 20);

function roll(state: TrainState, r: number, shared: boolean): Promise<Rollout> {
  const key = { seed: 3, step: 0, rowOffset: 32 * r };
  return rollout(counting, task, state.params, idsOf(r), key, undefined, new Workspace(), shared ? sharedRows(state, task) : null);
}

function assertSameSamples(got: Rollout, want: Rollout, what: string) {
  for (const h of HEAD_LIST) {
    assert.deepEqual(got.heads[h.name].actions, want.heads[h.name].actions, `${what}: ${h.name} actions`);
    assert.deepEqual(got.heads[h.name].logp, want.heads[h.name].logp, `${what}: ${h.name} log-probabilities`);
    assert.deepEqual(got.heads[h.name].probs, want.heads[h.name].probs, `${what}: ${h.name} probabilities`);
  }
  assert.deepEqual(got.logpTokens, want.logpTokens, `${what}: log-probability tokens`);
  assert.deepEqual(got.knob3Mask, want.knob3Mask, `${what}: knob-3 mask`);
}

/** A replica held by ranks 0–2 of one thread. */
function replica(): TrainState {
  const block = new LocalGroup([0, 1, 2]);
  const state = joinReplica(block, 0, 'fast', fresh());
  for (const r of [1, 2]) assert.equal(joinReplica(block, r, 'fast', fresh()), state);
  return state;
}

test("a thread's ranks on one replica take each head's softmax once per distinct input, each with its own samples' bits", async () => {
  const state = replica();
  const alone: Rollout[] = [];
  for (const r of [0, 1, 2]) alone.push(await roll(state, r, false));
  // Stage 1's distinct inputs of the thread: its prompts; stage 2's: the prompts with the insertions sampled after them.
  const stage1 = new Set(alone.flatMap((ro) => [...ro.inputIds[0]])).size;
  const stage2 = new Set(alone.flatMap((ro) => [...ro.inputIds[1]])).size;
  for (const together of [false, true]) {
    state.step++; // a new step: the rows held so far are dropped (the sampling key stays roll's)
    [ran.sampled, ran.softmax] = [0, 0];
    const rolls = together
      ? await Promise.all([0, 1, 2].map((r) => roll(state, r, true)))
      : [await roll(state, 0, true), await roll(state, 1, true), await roll(state, 2, true)];
    for (const r of [0, 1, 2]) assertSameSamples(rolls[r]!, alone[r]!, `rank ${r} sharing${together ? ', taking turns' : ''}`);
    assert.equal(ran.sampled, 0, 'no head samples its rows with its own softmax');
    // tier and insertion once per stage-1 input, topK and knob 3 once per stage-2 input.
    assert.equal(ran.softmax, 2 * stage1 + 2 * stage2, together ? 'taking turns' : 'one after the other');
  }
  assert.ok(stage1 < 96 && stage2 < 96, `distinct inputs ${stage1}, ${stage2} of 96 rows`);
});

test("a rank whose head weights alone differ, and a step under moved head weights, never read the others' softmax", async () => {
  const state = replica();
  const { w1h, w2h, b2h } = layoutOf(dims).tensors;
  // Rank 2 changes its replica alone: its own copy, the heads' weights nudged (the trunks' rows are unchanged).
  const own = ownState(state, 2);
  own.params[w1h.offset]! += 0.25;
  own.params[w2h.offset + 3]! -= 0.25;
  for (const r of [0, 1]) await roll(state, r, true);
  const diverged = await roll(own, 2, true);
  assertSameSamples(diverged, await roll(own, 2, false), 'the diverged rank');
  assert.notDeepEqual(diverged.heads.tier.probs, (await roll(state, 2, false)).heads.tier.probs, "the nudge shows in rank 2's tier");

  // The shared replica's update moves the heads' weights alone: the next step's softmax is computed under the new ones.
  await updateOnce(state, 0, () => {
    state.step++;
    state.params[w2h.offset]! += 0.5;
    state.params[b2h.offset + 1]! -= 0.5;
    state.params[w1h.offset + 1]! += 0.5;
  });
  for (const r of [0, 1]) assertSameSamples(await roll(state, r, true), await roll(state, r, false), `rank ${r} after the update`);
});

test('drawRows draws from a softmax computed once as the fast sampler draws from its own, rows without a valid option included', () => {
  const rows = 40;
  const width = 6;
  const stride = 9;
  const offset = 2;
  let s = 17;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const logits = Float32Array.from({ length: rows * stride }, () => 8 * next() - 4);
  const mask = Float32Array.from({ length: rows * width }, () => (next() < 0.3 ? 0 : 1));
  // Row 3 has no valid option; row 5's valid options are all −∞ (no probability either); row 7 one valid option.
  mask.fill(0, 3 * width, 4 * width);
  for (let j = 0; j < width; j++) logits[5 * stride + offset + j] = -Infinity;
  mask.fill(0, 7 * width, 8 * width);
  mask[7 * width + 4] = 1;
  const h = { rows, stride, offset, width };
  for (const m of [null, mask]) {
    const key = { seed: 9, rank: 0, step: 4, rowOffset: 100, stream: 2 };
    const want = categoricalSample(logits, m, h, key);
    // Each row's softmax once, laid out as the shared heads hold it, then the rows drawn from it in another order.
    const soft = maskedSoftmax(logits, m, h);
    const order = Uint32Array.from({ length: rows }, (_, r) => (r * 7) % rows);
    const held = { probs: new Float32Array(rows * stride), logp: new Float32Array(rows * stride) };
    for (let r = 0; r < rows; r++)
      for (let j = 0; j < width; j++) {
        held.probs[order[r]! * stride + offset + j] = soft.probs[r * width + j]!;
        held.logp[order[r]! * stride + offset + j] = soft.logp[r * width + j]!;
      }
    const got = { actions: new Uint32Array(rows), logp: new Float32Array(rows), probs: new Float32Array(rows * width) };
    drawRows(held.probs, held.logp, order, { stride, offset }, m, width, got.probs, { key, actions: got.actions, logp: got.logp });
    assert.deepEqual(got.actions, want.actions, `actions, ${m ? 'masked' : 'unmasked'}`);
    assert.deepEqual(got.logp, want.logp, `log-probabilities, ${m ? 'masked' : 'unmasked'}`);
    assert.deepEqual(got.probs, want.probs, `probabilities, ${m ? 'masked' : 'unmasked'}`);
  }
});
