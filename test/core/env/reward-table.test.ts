// The reward table the fused WebGPU step looks rewards up in, against scoreSample itself: the
// configuration index formula, and every value bit for bit (dense and sparse, many draws).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DIMS, INSERTION_POSITIONS, TOP_K } from '../../../src/core/env/controller.ts';
import { REWARD_ENTRY_WORDS, rewardTable, validConfigIndex } from '../../../src/core/env/reward-table.ts';
import { CORRECTNESS_STREAM, makeTask, scoreSample, VALID_CONFIGS } from '../../../src/core/env/task.ts';
import { philox4x32, philoxKey } from '../../../src/core/rng/philox.ts';

const task = makeTask(DEFAULT_DIMS, 7, 64);

test('validConfigIndex is the position in VALID_CONFIGS', () => {
  VALID_CONFIGS.forEach((c, j) => assert.equal(validConfigIndex(c, INSERTION_POSITIONS.length, TOP_K.length), j));
});

for (const mode of ['dense', 'sparse'] as const) {
  test(`a ${mode} table lookup gives scoreSample's reward and expected reward bit for bit`, () => {
    const words = rewardTable(task, mode);
    const floats = new Float32Array(words.buffer);
    const seed = 7;
    for (let step = 0; step < 40; step++)
      for (let prompt = 0; prompt < task.prompts.count; prompt += 3) {
        const j = (prompt * 31 + step * 17) % VALID_CONFIGS.length;
        const gatheredIndex = prompt + 100 * step;
        const want = scoreSample(task, prompt, VALID_CONFIGS[j]!, mode, { seed, step, gatheredIndex });
        const at = (prompt * VALID_CONFIGS.length + j) * REWARD_ENTRY_WORDS;
        const bits = philox4x32([gatheredIndex, step, 0, CORRECTNESS_STREAM], philoxKey(seed))[0]! >>> 8;
        const reward = bits < words[at + 3]! ? floats[at + 1]! : floats[at + 2]!;
        assert.equal(reward, Math.fround(want.reward), `${mode} prompt ${prompt} config ${j} step ${step}`);
        assert.equal(floats[at]!, Math.fround(want.expected));
      }
  });
}
