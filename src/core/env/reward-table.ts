// scoreSample (task.ts) as a table a kernel looks up (shaders/sampledReward.wgsl): for each prompt
// of the bank and each valid configuration (VALID_CONFIGS' order), four 32-bit words:
//   [expected reward (f32), reward when the correctness draw succeeds (f32), reward when it fails
//    (f32), threshold (u32): the draw succeeds when its 24 bits (unitFloat's) are below it].
// Each value is computed in float64 as scoreSample computes it and rounded to float32 once, as the
// CPU path stores it, so a lookup gives the CPU path's rewards bit for bit: unitFloat(bits) =
// (bits >>> 8) / 2^24 < accuracy exactly when (bits >>> 8) < ceil(accuracy · 2^24). Dense rewards
// have threshold 0 (no draw counts) and the expected reward in both reward words.
import { configReward, KNOB3_WIDTH, MIN_ACTIVE_BLOCKS, type ConfigActions } from './controller.ts';
import { VALID_CONFIGS, type RewardMode, type Task } from './task.ts';

/** 32-bit words per (prompt, configuration). */
export const REWARD_ENTRY_WORDS = 4;
/** Valid knob-3 options after any insertion: n with MIN_ACTIVE_BLOCKS ≤ p + n ≤ TOTAL_BLOCKS. */
export const KNOB3_OPTIONS = KNOB3_WIDTH - MIN_ACTIVE_BLOCKS + 1;

/** A configuration's index in VALID_CONFIGS (the formula the kernel uses: knob 3's valid options start at MIN_ACTIVE_BLOCKS − p). */
export function validConfigIndex(a: ConfigActions, insertions: number, topKs: number): number {
  return ((a.tier * insertions + a.insertion) * topKs + a.topK) * KNOB3_OPTIONS + (a.knob3 + a.insertion + 1 - MIN_ACTIVE_BLOCKS);
}

/** The bank's table: prompts × VALID_CONFIGS.length entries of REWARD_ENTRY_WORDS words. */
export function rewardTable(task: Task, mode: RewardMode): Uint32Array {
  const configs = VALID_CONFIGS.length;
  const words = new Uint32Array(task.prompts.count * configs * REWARD_ENTRY_WORDS);
  const floats = new Float32Array(words.buffer);
  for (let prompt = 0; prompt < task.prompts.count; prompt++) {
    VALID_CONFIGS.forEach((c, j) => {
      const r = configReward(c, task.prompts.difficulty[prompt]!, task.prompts.budgetMs[prompt]!);
      const at = (prompt * configs + j) * REWARD_ENTRY_WORDS;
      floats[at] = r.reward;
      if (mode === 'dense') {
        floats[at + 1] = r.reward;
        floats[at + 2] = r.reward;
        words[at + 3] = 0;
      } else {
        const penalty = r.accuracy - r.reward;
        floats[at + 1] = 1 - penalty;
        floats[at + 2] = 0 - penalty;
        words[at + 3] = Math.min(2 ** 24, Math.max(0, Math.ceil(r.accuracy * 2 ** 24)));
      }
    });
  }
  return words;
}
