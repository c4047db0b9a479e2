// The seed-003 training task around the controller of controller.ts: a seeded bank of prompts,
// the Stage-2 latency token that depends on where Stage 2 is inserted, the two reward modes,
// and the exact optimum (every one of the 375 valid configurations enumerated per prompt).
import { philox4x32, philoxKey, unitFloat } from '../rng/philox.ts';
import {
  configReward,
  INSERTION_POSITIONS,
  KNOB3_WIDTH,
  knob3Valid,
  makePrompts,
  TIERS,
  TOP_K,
  type ConfigActions,
  type ControllerDims,
  type ControllerPrompts,
} from './controller.ts';

/** How a sampled configuration is scored. */
export type RewardMode = 'dense' | 'sparse';
export const REWARD_MODES: readonly RewardMode[] = ['dense', 'sparse'];

/** Default number of prompts in the bank. */
export const BANK_SIZE = 1024;

/** Every valid configuration: 3 tiers × 5 insertions × 5 top-K × 5 valid knob-3 options = 375. */
export const VALID_CONFIGS: readonly ConfigActions[] = (() => {
  const out: ConfigActions[] = [];
  for (let tier = 0; tier < TIERS.length; tier++)
    for (let insertion = 0; insertion < INSERTION_POSITIONS.length; insertion++)
      for (let topK = 0; topK < TOP_K.length; topK++)
        for (let knob3 = 0; knob3 < KNOB3_WIDTH; knob3++) if (knob3Valid(insertion + 1, knob3)) out.push({ tier, insertion, topK, knob3 });
  return out;
})();

/** The task: the prompt bank, its latency block, and each prompt's optimum. */
export interface Task {
  dims: ControllerDims;
  seed: number;
  prompts: ControllerPrompts;
  /** The fixed random block (dModel × dModel) the first p blocks apply to the token, p times. */
  block: Float32Array;
  /** Best dense (expected) reward per prompt, over all valid configurations. */
  optimumReward: Float32Array;
  /** Index into VALID_CONFIGS of each prompt's best configuration. */
  optimumConfig: Uint16Array;
  /** Mean dense reward per prompt of the uniform random policy (every valid configuration equally likely). */
  randomReward: Float32Array;
}

/** Uniform in [−1, 1) from Philox keyed by (seed, purpose, index), as controller.ts draws. */
function symmetric(seed: number, purpose: number, index: number): number {
  return 2 * unitFloat(philox4x32([index, purpose, 0, 0x7a5c], philoxKey(seed))[0]) - 1;
}

/** Builds the bank of `size` prompts from `seed`, with each prompt's exact optimum. */
export function makeTask(dims: ControllerDims, seed: number, size = BANK_SIZE): Task {
  const prompts = makePrompts(dims, size, seed);
  const block = new Float32Array(dims.dModel * dims.dModel);
  // Scaled so tanh stays out of saturation: each application mixes the token, keeping its size.
  const scale = 1.5 / Math.sqrt(dims.dModel);
  for (let i = 0; i < block.length; i++) block[i] = scale * symmetric(seed, 400, i);
  const optimumReward = new Float32Array(size);
  const optimumConfig = new Uint16Array(size);
  const randomReward = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    let best = -Infinity;
    let sum = 0;
    VALID_CONFIGS.forEach((c, j) => {
      const r = configReward(c, prompts.difficulty[i]!, prompts.budgetMs[i]!).reward;
      sum += r;
      if (r > best) {
        best = r;
        optimumConfig[i] = j;
      }
    });
    optimumReward[i] = best;
    randomReward[i] = sum / VALID_CONFIGS.length;
  }
  return { dims, seed, prompts, block, optimumReward, optimumConfig, randomReward };
}

/**
 * The Stage-2 latency token of `prompt` when Stage 2 runs after block p (1…5): the prompt's
 * token with the fixed block x ← tanh(x·B) applied p times, as "run the first p blocks" makes
 * a different hidden state at each insertion point. Written into `out` at `at` (dModel values).
 */
export function latencyToken(task: Task, prompt: number, p: number, out: Float32Array, at: number): void {
  const d = task.dims.dModel;
  out.set(latencyTokens(task, prompt).subarray((p - 1) * d, p * d), at);
}

/**
 * Every insertion's latency token of `prompt` (p = 1…5, dModel values each), computed once per
 * prompt and kept with the task: the token is a pure function of (prompt, p), and a training step
 * asks for one per row (p matrix-vector products of dModel², the largest cost of a step at
 * dModel 32 before it was kept). The chain x ← tanh(x·B) runs in float64 as it always did; each
 * p's token is that chain's value after p blocks, rounded to float32, so the bits are unchanged.
 */
function latencyTokens(task: Task, prompt: number): Float32Array {
  let cache = latencyCache.get(task);
  if (!cache) latencyCache.set(task, (cache = []));
  const have = cache[prompt];
  if (have) return have;
  const d = task.dims.dModel;
  const s2 = d + 5;
  const tokens = new Float32Array(INSERTION_POSITIONS.length * d);
  const x = Float64Array.from(task.prompts.stage2Input.subarray(prompt * s2, prompt * s2 + d));
  const y = new Float64Array(d);
  for (let step = 0; step < INSERTION_POSITIONS.length; step++) {
    y.fill(0);
    for (let i = 0; i < d; i++) {
      const xi = x[i]!;
      const row = i * d;
      for (let j = 0; j < d; j++) y[j]! += xi * task.block[row + j]!;
    }
    for (let j = 0; j < d; j++) x[j] = Math.tanh(y[j]!);
    tokens.set(x, step * d);
  }
  return (cache[prompt] = tokens);
}

/** Each task's latency tokens by prompt (filled as prompts are drawn; 5 × dModel floats each). */
const latencyCache = new WeakMap<Task, (Float32Array | undefined)[]>();

/** The Philox stream of the sparse reward's correctness draw (the heads use 0…3). */
export const CORRECTNESS_STREAM = 4;

/**
 * One sample's reward and its expected (dense) reward. `gatheredIndex` and `step` key the sparse
 * mode's correctness draw, so it does not depend on which rank scored the sample.
 *   dense:  accuracy − 0.05 · max(0, latency − budget)   (the expectation of sparse)
 *   sparse: 1[u < accuracy] − the same penalty           (groups that tie are common)
 */
export function scoreSample(
  task: Task,
  prompt: number,
  a: ConfigActions,
  mode: RewardMode,
  key: { seed: number; step: number; gatheredIndex: number },
): { reward: number; expected: number; accuracy: number } {
  const r = configReward(a, task.prompts.difficulty[prompt]!, task.prompts.budgetMs[prompt]!);
  // accuracy: what --filter-metric accuracy compares (the correctness bit when one is sampled).
  if (mode === 'dense') return { reward: r.reward, expected: r.reward, accuracy: r.accuracy };
  const u = unitFloat(philox4x32([key.gatheredIndex, key.step, 0, CORRECTNESS_STREAM], philoxKey(key.seed))[0]);
  const penalty = r.accuracy - r.reward;
  const correct = u < r.accuracy ? 1 : 0;
  return { reward: correct - penalty, expected: r.reward, accuracy: correct };
}

/** The uniform random policy's expected reward over the bank, as a fraction of the optimum's. */
export function randomPolicyFraction(task: Task): number {
  let randomSum = 0;
  let optimumSum = 0;
  for (let i = 0; i < task.prompts.count; i++) {
    randomSum += task.randomReward[i]!;
    optimumSum += task.optimumReward[i]!;
  }
  return randomSum / optimumSum;
}
