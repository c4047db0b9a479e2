// The replicas the ranks of one thread share while their bits agree (src/train/replicas.ts): joined
// only with the same bits, updated once per step for every holder, and left (a private copy) before
// one rank's state changes alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocalGroup } from '../../src/ranks/local-group.ts';
import { checksumOnce, isShared, joinReplica, ownState, updateOnce } from '../../src/train/replicas.ts';
import type { TrainState } from '../../src/train/step.ts';

const stateOf = (params: number[]): TrainState => ({
  params: Float32Array.from(params),
  m: new Float32Array(params.length),
  v: new Float32Array(params.length),
  ref: null,
  step: 0,
});

test('the ranks of a thread share a state only when its bits are theirs', () => {
  const block = new LocalGroup([4, 5, 6]);
  const a = joinReplica(block, 4, 'fast', stateOf([1, 0]));
  const b = joinReplica(block, 5, 'fast', stateOf([1, 0]));
  assert.equal(b, a);
  // -0 and 0 compare equal but are other bits: not shared.
  const c = joinReplica(block, 6, 'fast', stateOf([1, -0]));
  assert.notEqual(c, a);
  assert.ok(isShared(a) && !isShared(c));
  // Another block, or other ops: never shared.
  const other = new LocalGroup([0, 1]);
  const d = joinReplica(other, 0, 'fast', stateOf([1, 2]));
  assert.notEqual(joinReplica(other, 1, 'reference', stateOf([1, 2])), d);
});

test("a shared state's update runs once for its holders, each of whom gets its result", async () => {
  const block = new LocalGroup([0, 1, 2]);
  const s = joinReplica(block, 0, 'fast', stateOf([1]));
  for (const r of [1, 2]) assert.equal(joinReplica(block, r, 'fast', stateOf([1])), s);
  let runs = 0;
  const update = async () => {
    runs++;
    await Promise.resolve();
    s.step++;
    s.params[0]! += 1;
    return 7;
  };
  // The holders come while the first one's update still runs: it is not run again.
  const norms = await Promise.all([0, 1, 2].map(() => updateOnce(s, 0, update)));
  assert.deepEqual(norms, [7, 7, 7]);
  assert.equal(runs, 1);
  assert.deepEqual([s.step, s.params[0]], [1, 2]);
  let sums = 0;
  const sum = (p: Float32Array) => {
    sums++;
    return p[0]!;
  };
  assert.deepEqual(
    [0, 1, 2].map(() => checksumOnce(s, sum)),
    [2, 2, 2],
  );
  assert.equal(sums, 1);
});

test('a rank that changes its state alone first takes a copy; the others keep sharing', async () => {
  const block = new LocalGroup([0, 1, 2]);
  const s = joinReplica(block, 0, 'fast', stateOf([1]));
  for (const r of [1, 2]) joinReplica(block, r, 'fast', stateOf([1]));
  const own = ownState(s, 2);
  assert.notEqual(own, s);
  own.params[0]! += 1e-3;
  assert.equal(s.params[0], 1);
  assert.equal(ownState(own, 2), own, 'a state held by one rank is its own');
  // The copy is updated on its own, the shared state once for its two remaining holders.
  let runs = 0;
  const step = (t: TrainState) => async () => {
    runs++;
    t.step++;
    return t.step;
  };
  await Promise.all([updateOnce(s, 0, step(s)), updateOnce(s, 0, step(s)), updateOnce(own, 0, step(own))]);
  assert.equal(runs, 2);
  assert.deepEqual([s.step, own.step], [1, 1]);
});
