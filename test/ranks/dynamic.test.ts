import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONFIG, type DynamicConfig } from '../../src/core/dynamic/index.ts';
import type { ConsumeResult, PlanSummary } from '../../src/ranks/programs/dynamic.ts';
import { World, WorldFailure } from '../../src/ranks/world.ts';

const collect = { module: 'builtin:dynamic', name: 'collect' };
const consume = { module: 'builtin:dynamic', name: 'consume' };

test('real ranks: no deadlock when one rank never has a valid group; every rank decides the same', async () => {
  const world = await World.start({ size: 4, timeoutMs: 2000 });
  try {
    const config: DynamicConfig = { ...DEFAULT_CONFIG, perRank: 8, k: 2, policy: 'fallback' };
    const rewards = {
      kind: 'script',
      valid: [
        [4, 4, 0, 4],
        [4, 4, 0, 4],
      ],
    };
    const plans = await world.run<PlanSummary>(collect, { config, rewards });
    for (const plan of plans) assert.deepEqual(plan, plans[0]);
    assert.equal(plans[0]!.outcome, 'full');
    assert.deepEqual(
      plans[0]!.events.map((e) => e.addedByRank),
      [
        [8, 8, 0, 8],
        [8, 8, 0, 8],
      ],
    );
    // Pool: ranks 0, 1, 3 of batch 0, then of batch 1; rank 2's slice [16:24] was made on rank 3.
    assert.deepEqual(plans[0]!.slices[2]!.origins, [3, 3, 3, 3, 3, 3, 3, 3]);
    const results = await world.run<ConsumeResult>(consume, { deviceFix: true });
    assert.deepEqual(
      results.map((r) => r.device),
      ['sim:0', 'sim:1', 'sim:2', 'sim:3'],
    );
    assert.deepEqual(results[2]!.origins, ['sim:3']);
  } finally {
    await world.stop();
  }
});

test('real ranks: the unfixed pool raises the device error on stack; naive raises the shape mismatch on gather', async () => {
  const config: DynamicConfig = { ...DEFAULT_CONFIG, perRank: 8, k: 2, policy: 'naive', maxResampleTimes: 0 };
  // Pool 30 of 32: rank 0's slice [0:8] holds 2 of rank 1's samples; rank 3's [24:30] has 6.
  const rewards = { kind: 'script', valid: [[3, 4, 4, 4]] };
  for (const [deviceFix, expected] of [
    [false, /rank 0: DeviceMismatchError: Expected all tensors to be on the same device, but found tensors on sim:1 and sim:0/],
    [true, /ShapeMismatchError: allGather #\d+: shape mismatch: ranks 0–2 sent \[8, 1\]; rank 3 sent \[6, 1\]/],
  ] as const) {
    const world = await World.start({ size: 4, timeoutMs: 2000 });
    try {
      await world.run(collect, { config, rewards });
      await assert.rejects(world.run(consume, { deviceFix }), (err: unknown) => {
        assert.ok(err instanceof WorldFailure);
        assert.match(err.message, expected);
        return true;
      });
    } finally {
      await world.stop();
    }
  }
});
