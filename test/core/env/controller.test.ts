import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ACTIONS_PER_CONFIG,
  DEFAULT_DIMS,
  HEAD_LIST,
  HEADS,
  INSERTION_POSITIONS,
  KNOB3_WIDTH,
  STAGE_WIDTH,
  TIERS,
  TOP_K,
  controllerLayout,
  expandPrompts,
  headShape,
  makePrompts,
  stageInputs,
} from '../../../src/core/env/controller.ts';

test('the head table: tier ‖ insertion = 3 + 5 = 8 logits, topK ‖ knob3 = 5 + 16 = 21, streams and columns in action order', () => {
  assert.deepEqual(
    HEAD_LIST.map((h) => [h.name, h.stage, h.offset, h.width, h.column, h.stream]),
    [
      ['tier', 1, 0, TIERS.length, 0, 0],
      ['insertion', 1, 3, INSERTION_POSITIONS.length, 1, 1],
      ['topK', 2, 0, TOP_K.length, 2, 2],
      ['knob3', 2, 5, KNOB3_WIDTH, 3, 3],
    ],
  );
  assert.deepEqual(STAGE_WIDTH, { 1: 8, 2: 21 });
  assert.equal(ACTIONS_PER_CONFIG, 4);
  assert.deepEqual(headShape('knob3', 7), { rows: 7, stride: 21, offset: 5, width: 16 });
  // The parameter layout's head matrices have exactly the stages' widths.
  const t = controllerLayout(DEFAULT_DIMS).tensors;
  assert.equal(t.w1h.cols, STAGE_WIDTH[1]);
  assert.equal(t.w2h.cols, STAGE_WIDTH[2]);
  assert.equal(t.w2.rows, DEFAULT_DIMS.dModel + HEADS.insertion.width);
});

test('expandPrompts repeats each prompt k times in a row (repeat_interleave)', () => {
  const d = { dModel: 3, hidden: 2 };
  const p = makePrompts(d, 2, 5);
  const { x1, x2 } = expandPrompts(p, d, 3);
  const w = stageInputs(d);
  assert.equal(x1.length, 2 * 3 * w[1]);
  for (let r = 0; r < 6; r++) {
    const i = Math.floor(r / 3);
    assert.deepEqual(x1.subarray(r * w[1], (r + 1) * w[1]), p.stage1Input.subarray(i * w[1], (i + 1) * w[1]));
    assert.deepEqual(x2.subarray(r * w[2], (r + 1) * w[2]), p.stage2Input.subarray(i * w[2], (i + 1) * w[2]));
  }
});
