// The seed-003 training task around the controller of controller.ts: a seeded bank of prompts,
// the Stage-2 latency token that depends on where Stage 2 is inserted, the two reward modes,
// and the exact optimum (every one of the 375 valid configurations enumerated per prompt).
import { philox4x32, philoxKey, unitFloat } from '../rng/philox.ts';
import { copyFloats } from '../rows.ts';
import {
  configReward,
  configTerms,
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
  // configReward of every valid configuration of every prompt, its per-configuration terms computed once.
  const terms = VALID_CONFIGS.map(configTerms);
  const missRate = Float64Array.from(terms, (t) => t.missRate);
  const latencyMs = Float64Array.from(terms, (t) => t.latencyMs);
  for (let i = 0; i < size; i++) {
    const difficulty = prompts.difficulty[i]!;
    const budgetMs = prompts.budgetMs[i]!;
    let best = -Infinity;
    let sum = 0;
    for (let j = 0; j < missRate.length; j++) {
      const r = 1 - difficulty * missRate[j]! - 0.05 * Math.max(0, latencyMs[j]! - budgetMs);
      sum += r;
      if (r > best) {
        best = r;
        optimumConfig[i] = j;
      }
    }
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
  copyFloats(latencyTokens(task, prompt), (p - 1) * d, out, at, d);
}

/**
 * Every insertion's latency token of `prompt` (p = 1…5, dModel values each), computed once per
 * prompt and kept with the task: the token is a pure function of (prompt, p), and a training step
 * asks for one per row (p matrix-vector products of dModel², the largest cost of a step at
 * dModel 32 before it was kept).
 */
function latencyTokens(task: Task, prompt: number): Float32Array {
  const have = latencyCache.get(task)?.[prompt];
  if (have) return have;
  cacheLatencyTokens(task, [prompt]);
  return latencyCache.get(task)![prompt]!;
}

/**
 * The definition of a prompt's latency tokens, readable: the chain x ← tanh(x·B) in float64 from
 * the prompt's Stage-2 input, y_j = Σ_i x_i·B_ij summed in order of i from 0, and each p's token the
 * chain's value after p blocks, rounded to float32. `cacheLatencyTokens` computes the same bits
 * faster (test/core/env/task.test.ts compares them over many prompts).
 */
export function referenceLatencyTokens(task: Task, prompt: number): Float32Array {
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
  return tokens;
}

/** Prompts whose chains advance together: their partial sums (PROMPT_BLOCK × dModel float64) stay in cache. */
const PROMPT_BLOCK = 16;

/** Below this dModel the reference loop is kept: the blocked loop's cold start costs more than it saves. */
const BLOCKED_FROM_DMODEL = 128;

/** A function computing `referenceLatencyTokens` of each of `ids`, with its bits, faster. */
export type LatencyTokensKernel = (task: Task, ids: readonly number[]) => Float32Array[];

/**
 * Computes and keeps the latency tokens of those of `prompts` not kept yet, with the bits of
 * `referenceLatencyTokens` (by `kernel` from dModel 128 on: `blockedLatencyTokens`, or the fast
 * backend's WebAssembly one, src/ops/fast/latencyTokens.ts). A step's rows call this for all their
 * prompts at once (src/train/policy.ts).
 */
export function cacheLatencyTokens(task: Task, prompts: ArrayLike<number>, kernel: LatencyTokensKernel = blockedLatencyTokens): void {
  let cache = latencyCache.get(task);
  if (!cache) latencyCache.set(task, (cache = []));
  const todo: number[] = [];
  for (let k = 0; k < prompts.length; k++) {
    const id = prompts[k]!;
    if (!cache[id] && !todo.includes(id)) todo.push(id);
  }
  if (todo.length === 0) return; // (a kernel may have set-up to pay, e.g. packing the block)
  if (task.dims.dModel < BLOCKED_FROM_DMODEL) for (const id of todo) cache[id] = referenceLatencyTokens(task, id);
  else kernel(task, todo).forEach((tokens, k) => (cache[todo[k]!] = tokens));
}

/**
 * `referenceLatencyTokens` of each of `ids`, the same bits, faster by blocking, not by reordering:
 * the chains of up to 16 prompts advance together, so each row of the block is read once for all of
 * them; four rows of the block are applied per pass over an output, its partial sum held in a
 * register, and two prompts share each load of the block. Every y_j still adds x_i·B_ij (a float64
 * product, then a float64 sum) in order of i from 0, as the reference does.
 */
export function blockedLatencyTokens(task: Task, ids: readonly number[]): Float32Array[] {
  const d = task.dims.dModel;
  const s2 = d + 5;
  const B = task.block;
  const all: Float32Array[] = [];
  for (let start = 0; start < ids.length; start += PROMPT_BLOCK) {
    const block = ids.slice(start, start + PROMPT_BLOCK);
    const n = block.length;
    const x = new Float64Array(n * d);
    const y = new Float64Array(n * d);
    const tokens = block.map(() => new Float32Array(INSERTION_POSITIONS.length * d));
    block.forEach((id, q) => x.set(task.prompts.stage2Input.subarray(id * s2, id * s2 + d), q * d));
    for (let step = 0; step < INSERTION_POSITIONS.length; step++) {
      y.fill(0);
      let i = 0;
      for (; i + 4 <= d; i += 4) {
        const r0 = i * d;
        const r1 = r0 + d;
        const r2 = r1 + d;
        const r3 = r2 + d;
        let q = 0;
        for (; q + 2 <= n; q += 2) {
          const xa = q * d;
          const xb = xa + d;
          const a0 = x[xa + i]!;
          const a1 = x[xa + i + 1]!;
          const a2 = x[xa + i + 2]!;
          const a3 = x[xa + i + 3]!;
          const b0 = x[xb + i]!;
          const b1 = x[xb + i + 1]!;
          const b2 = x[xb + i + 2]!;
          const b3 = x[xb + i + 3]!;
          for (let j = 0; j < d; j++) {
            const c0 = B[r0 + j]!;
            const c1 = B[r1 + j]!;
            const c2 = B[r2 + j]!;
            const c3 = B[r3 + j]!;
            let u = y[xa + j]! + a0 * c0;
            let v = y[xb + j]! + b0 * c0;
            u += a1 * c1;
            v += b1 * c1;
            u += a2 * c2;
            v += b2 * c2;
            y[xa + j] = u + a3 * c3;
            y[xb + j] = v + b3 * c3;
          }
        }
        for (; q < n; q++) {
          const xq = q * d;
          const x0 = x[xq + i]!;
          const x1 = x[xq + i + 1]!;
          const x2 = x[xq + i + 2]!;
          const x3 = x[xq + i + 3]!;
          for (let j = 0; j < d; j++) {
            let acc = y[xq + j]! + x0 * B[r0 + j]!;
            acc += x1 * B[r1 + j]!;
            acc += x2 * B[r2 + j]!;
            y[xq + j] = acc + x3 * B[r3 + j]!;
          }
        }
      }
      for (; i < d; i++) {
        const row = i * d;
        for (let q = 0; q < n; q++) {
          const xi = x[q * d + i]!;
          for (let j = 0; j < d; j++) y[q * d + j]! += xi * B[row + j]!;
        }
      }
      for (let k = 0; k < n * d; k++) x[k] = Math.tanh(y[k]!);
      for (let q = 0; q < n; q++) tokens[q]!.set(x.subarray(q * d, (q + 1) * d), step * d);
    }
    all.push(...tokens);
  }
  return all;
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
