// The trunks run once per distinct input row (src/train/distinct-rows.ts): the forward gives the
// bits of the dense op over every row, the weight gradient the dense backward's within float32
// summation, on the reference and the fast backend alike; a rollout's input ids describe its rows
// wherever the rows go. Runs under Node and Deno.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initControllerParams, stageInputs, type ControllerDims } from '../../src/core/env/controller.ts';
import { makeTask } from '../../src/core/env/task.ts';
import { cpuBackend, fastBackend, type OpsBackend } from '../../src/ops/backend.ts';
import { distinctRows, trunkForward, trunkWeightGrad } from '../../src/train/distinct-rows.ts';
import { forwardActions, rollout, selectRows, type Rollout } from '../../src/train/policy.ts';
import { logpUnder } from '../../src/train/step.ts';
import { Workspace } from '../../src/train/workspace.ts';

/** Deterministic values in [−1, 1). */
function values(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
}

test('distinctRows numbers the ids in order of first appearance, each row pointing at its own', () => {
  const ids = Uint32Array.from([7, 3, 7, 7, 0, 3, 2 ** 32 - 1, 0]);
  const d = distinctRows(ids, new Workspace(), 't');
  assert.equal(d.count, 4);
  assert.deepEqual([...d.first], [0, 1, 4, 6]);
  assert.deepEqual([...d.of], [0, 1, 0, 0, 2, 1, 3, 2]);
  // Many ids, many collisions in the table: every row's distinct input has its id.
  const many = Uint32Array.from({ length: 3000 }, (_, r) => (r * 7919) % 1021);
  const m = distinctRows(many, new Workspace(), 't');
  assert.equal(m.count, 1021);
  for (let r = 0; r < many.length; r++) assert.equal(many[m.first[m.of[r]!]!], many[r]);
});

for (const ops of [cpuBackend, fastBackend])
  test(`${ops.name}: a trunk over shared rows gives the dense op's bits, and its weight gradient within float32 summation`, async () => {
    const [inDim, outDim] = [37, 19];
    const prompts = 6;
    const ids = Uint32Array.from([0, 3, 3, 5, 1, 0, 0, 2, 4, 3, 5, 5]);
    const rows = ids.length;
    const bank = values(prompts * inDim, 1);
    const x = new Float32Array(rows * inDim);
    ids.forEach((id, r) => x.set(bank.subarray(id * inDim, (id + 1) * inDim), r * inDim));
    const w = values(inDim * outDim, 2);
    const b = values(outDim, 3);
    const shape = { rows, inDim, outDim, activation: 'tanh' as const };
    const out = { z: new Float32Array(rows * outDim), y: new Float32Array(rows * outDim) };
    const every = await ops.dense(x, w, b, shape);
    // the rows given row by row, or (stage 1) as the bank's rows by id: the same bits
    for (const input of [{ rows: x }, { bank }]) {
      const shared = await trunkForward(ops, input, ids, w, b, shape, new Workspace(), 'trunk', out);
      assert.deepEqual(shared.z, every.z);
      assert.deepEqual(shared.y, every.y);
    }

    const dz = values(rows * outDim, 4);
    const grad = { dw: new Float32Array(inDim * outDim), db: new Float32Array(outDim) };
    const want = await ops.denseBackwardWeight(x, dz, shape);
    const byRows = await trunkWeightGrad(ops, { rows: x }, dz, ids, shape, new Workspace(), 'trunk', grad);
    const got = { dw: byRows.dw.slice(), db: byRows.db.slice() };
    // Each entry sums `rows` products |x·dz| ≤ 1 in another order: float32 rounding, at most (rows + 1)·2⁻²⁴ per term.
    for (let i = 0; i < want.dw.length; i++) assert.ok(Math.abs(got.dw[i]! - want.dw[i]!) <= (rows + 1) * rows * 2 ** -24, `dw[${i}]`);
    for (let j = 0; j < outDim; j++) assert.ok(Math.abs(got.db[j]! - want.db[j]!) <= (rows + 1) * rows * 2 ** -24, `db[${j}]`);
    assert.notDeepEqual(got.dw, new Float32Array(inDim * outDim));
    // the bank's rows by id: the same distinct rows in the same order, so the same bits
    assert.deepEqual(await trunkWeightGrad(ops, { bank }, dz, ids, shape, new Workspace(), 'trunk', grad), got);
  });

test("rows that are all distinct go straight to the dense op, with the caller's arrays", async () => {
  const calls: { x: Float32Array; rows: number }[] = [];
  const spy: OpsBackend = {
    ...cpuBackend,
    dense: (x, w, b, shape, out) => {
      calls.push({ x, rows: shape.rows });
      return cpuBackend.dense(x, w, b, shape, out);
    },
  };
  const ids = Uint32Array.from([4, 1, 2]);
  const x = values(3 * 5, 5);
  const w = values(5 * 2, 6);
  const b = values(2, 7);
  const shape = { rows: 3, inDim: 5, outDim: 2, activation: 'tanh' as const };
  const out = { z: new Float32Array(6), y: new Float32Array(6) };
  const h = await trunkForward(spy, { rows: x }, ids, w, b, shape, new Workspace(), 'trunk', out);
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.x, x, 'the rows themselves, not a gathered copy');
  assert.equal(calls[0]!.rows, 3);
  assert.deepEqual(h, await cpuBackend.dense(x, w, b, shape));
  // With a shared input the op runs once on the distinct rows only.
  await trunkForward(spy, { rows: x }, Uint32Array.from([4, 1, 4]), w, b, shape, new Workspace(), 'trunk', out);
  assert.equal(calls[1]!.rows, 2);
});

/**
 * Rows whose ids do not name their inputs (none is right): stage 1's id must be the row's prompt (its
 * row of the bank), and rows with the same stage-2 id must have the same stage-2 input row.
 */
function idsThatLie(ro: Rollout, dims: ControllerDims): string[] {
  const bad: string[] = [];
  for (let r = 0; r < ro.rows; r++) if (ro.inputIds[0][r] !== ro.promptIds[r]) bad.push(`stage 1, row ${r}`);
  const ids = ro.inputIds[1];
  const w = stageInputs(dims)[2];
  for (let a = 0; a < ro.rows; a++)
    for (let c = a + 1; c < ro.rows; c++) {
      if (ids[a] !== ids[c]) continue;
      for (let i = 0; i < w; i++)
        if (ro.x2[a * w + i] !== ro.x2[c * w + i]) {
          bad.push(`stage 2, rows ${a} and ${c}`);
          break;
        }
    }
  return bad;
}

for (const ops of [cpuBackend, fastBackend])
  test(`${ops.name}: a rollout's input ids name its rows' inputs (sampled, forced, selected); a second forward gives its log-probs`, async () => {
    const dims = { dModel: 16, hidden: 8 };
    const task = makeTask(dims, 3, 12);
    const params = initControllerParams(dims, 5);
    const prompts = [3, 7, 1, 7, 3, 3, 9, 1, 11, 7, 0, 0, 3, 9, 9, 1];
    const ro = await rollout(ops, task, params, prompts, { seed: 1, step: 0, rowOffset: 0 }, undefined, new Workspace());
    assert.deepEqual(idsThatLie(ro, dims), []);
    // Copies of a prompt share stage 1's id; the ids are not all distinct (else nothing here is shared).
    assert.ok(new Set(ro.inputIds[0]).size < ro.rows && new Set(ro.inputIds[1]).size < ro.rows);
    const forced = Uint32Array.from(prompts, (_, r) => (r * 3) % 5);
    assert.deepEqual(idsThatLie(await rollout(ops, task, params, prompts, { seed: 1, step: 0, rowOffset: 0 }, forced), dims), []);
    const picked = selectRows(ro, [5, 0, 4, 12, 2, 2]);
    assert.deepEqual(idsThatLie(picked, dims), []);
    // Under the parameters it was sampled with, the trunks run again on the distinct rows give the same log-probs.
    assert.deepEqual((await forwardActions(ops, dims, params, picked)).logpTokens, picked.logpTokens);
    assert.deepEqual(await logpUnder(ops, task, params, ro), ro.logpTokens);
  });
