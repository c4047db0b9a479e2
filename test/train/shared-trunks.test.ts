// The ranks of a thread that hold one replica run each trunk's forward once per distinct input of the
// thread (replicas.ts's sharedRows, distinct-rows.ts's TrunkCache): every rank's rollout has the bits
// it has alone, the later ranks compute only the inputs the earlier ones did not, and a rank whose
// state is its own (ownState), or a step under moved parameters, never reads rows computed under
// other parameters. Runs under Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DIMS, initControllerParams, stageInputs } from '../../src/core/env/controller.ts';
import { makeTask } from '../../src/core/env/task.ts';
import { fastBackend, type OpsBackend } from '../../src/ops/backend.ts';
import { LocalGroup } from '../../src/ranks/local-group.ts';
import { layoutOf, rollout, type Rollout } from '../../src/train/policy.ts';
import { joinReplica, ownState, sharedRows, updateOnce } from '../../src/train/replicas.ts';
import type { TrainState } from '../../src/train/step.ts';
import { Workspace } from '../../src/train/workspace.ts';

const dims = DEFAULT_DIMS;
const task = makeTask(dims, 5, 64);
const initial = initControllerParams(dims, 5);

/** Rows each trunk's dense computed (stage 1 and stage 2 told apart by their input width). */
const computed = { 1: 0, 2: 0 };
const counting: OpsBackend = {
  ...fastBackend,
  dense: (x, w, b, s, out) => {
    if (s.inDim === stageInputs(dims)[1]) computed[1] += s.rows;
    else if (s.inDim === stageInputs(dims)[2]) computed[2] += s.rows;
    return fastBackend.dense(x, w, b, s, out);
  },
};

const fresh = (): TrainState => ({
  params: initial.slice(),
  m: new Float32Array(initial.length),
  v: new Float32Array(initial.length),
  ref: null,
  step: 0,
});

/** Rank r's prompts: flow_grpo-like, each prompt's copies spread over the ranks, so the ranks' inputs overlap. */
const idsOf = (r: number) => Array.from({ length: 24 }, (_, i) => (3 * i + 5 * r) % 16);

function roll(state: TrainState, r: number, shared: boolean): Promise<Rollout> {
  const key = { seed: 5, step: 0, rowOffset: 24 * r };
  return rollout(counting, task, state.params, idsOf(r), key, undefined, new Workspace(), shared ? sharedRows(state, task) : null);
}

function assertSameBits(got: Rollout, want: Rollout, what: string) {
  for (const s of [0, 1] as const) {
    assert.deepEqual(got.preact[s], want.preact[s], `${what}: stage ${s + 1} pre-activations`);
    assert.deepEqual(got.hidden[s], want.hidden[s], `${what}: stage ${s + 1} hidden rows`);
  }
  assert.deepEqual(got.logpTokens, want.logpTokens, `${what}: log-probabilities`);
  for (const h of ['tier', 'insertion', 'topK', 'knob3'] as const)
    assert.deepEqual(got.heads[h].actions, want.heads[h].actions, `${what}: ${h}`);
}

test("a thread's ranks on one replica compute each trunk input once, with every rank's own bits", async () => {
  const block = new LocalGroup([0, 1, 2]);
  const state = joinReplica(block, 0, 'fast', fresh());
  for (const r of [1, 2]) assert.equal(joinReplica(block, r, 'fast', fresh()), state);
  // Each rank alone (no sharing): the bits to match, and the rows it computes on its own.
  const alone: Rollout[] = [];
  let aloneRows = 0;
  for (const r of [0, 1, 2]) {
    computed[1] = 0;
    alone.push(await roll(state, r, false));
    aloneRows += computed[1];
  }
  // The ranks one after the other, then taking turns at every op as a thread's ranks do (each a new step: the rows
  // computed so far are dropped).
  for (const together of [false, true]) {
    computed[1] = 0;
    state.step++; // (the sampling key stays step 0: roll's)
    const rolls = together
      ? await Promise.all([0, 1, 2].map((r) => roll(state, r, true)))
      : [await roll(state, 0, true), await roll(state, 1, true), await roll(state, 2, true)];
    for (const r of [0, 1, 2]) assertSameBits(rolls[r]!, alone[r]!, `rank ${r} sharing${together ? ', taking turns' : ''}`);
    // 16 prompts in all across the three ranks: stage 1 runs once on each, against once per rank that holds it.
    assert.equal(computed[1], 16, together ? 'taking turns' : 'one after the other');
  }
  assert.ok(aloneRows > 16, `alone: ${aloneRows} stage-1 rows`);
});

test("a rank whose state is its own, and a step under moved parameters, never read the others' rows", async () => {
  const block = new LocalGroup([0, 1, 2]);
  const state = joinReplica(block, 0, 'fast', fresh());
  for (const r of [1, 2]) joinReplica(block, r, 'fast', fresh());
  // Rank 2 changes its replica alone (the replica check's test): its own copy, stage 1's weights nudged.
  const own = ownState(state, 2);
  own.params[layoutOf(dims).tensors.w1.offset]! += 1e-3;
  for (const r of [0, 1]) await roll(state, r, true);
  const diverged = await roll(own, 2, true);
  assertSameBits(diverged, await roll(own, 2, false), 'the diverged rank');
  // Its rows are not those of the shared replica (the nudge shows in stage 1).
  assert.notDeepEqual(diverged.preact[0], (await roll(state, 2, false)).preact[0]);

  // The shared replica's update moves its parameters: the next step's rows are computed under the new ones.
  await updateOnce(state, 0, () => {
    state.step++;
    state.params[layoutOf(dims).tensors.w2.offset]! -= 1e-3;
    state.params[layoutOf(dims).tensors.w1.offset]! -= 1e-3;
  });
  for (const r of [0, 1]) assertSameBits(await roll(state, r, true), await roll(state, r, false), `rank ${r} after the update`);
});
