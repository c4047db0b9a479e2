// The seed-003 two-stage controller (docs/scenarios.md), as a definition both backends and both
// trainers share: its knobs, its heads (the one table every size comes from), the shape of its
// two MLPs in one flat parameter vector, the dynamic knob-3 options, the sampling streams, the
// simulated inputs and the accuracy/latency model that scores a configuration.
//
//   stage 1: [lang_feat ‖ budget_feat] (2·dModel) → tanh(hidden) → tier (3) ‖ insertion (5) logits
//   stage 2: [latency_token (dModel) ‖ onehot(insertion) (5)] → tanh(hidden) → topK (5) ‖ knob3 (16) logits
//
// knob 3 is "how many of the remaining 16 − p blocks to run" (0…15), valid when the total active
// blocks p + n is in 12…16: p = 1 → 11…15, p = 3 → 9…13. Its 16 logits are masked per row.
import { philox4x32, philoxKey, unitFloat } from '../rng/philox.ts';

/** Image tiers and the crops each allows. */
export const TIERS = ['low', 'medium', 'high'] as const;
export const TIER_CROPS = [3, 6, 12] as const;
/** Insertion positions: Stage 2 runs after block p. */
export const INSERTION_POSITIONS = [1, 2, 3, 4, 5] as const;
/** MoE top-K choices (knob 2). */
export const TOP_K = [4, 5, 6, 7, 8] as const;
export const TOTAL_BLOCKS = 16;
export const MIN_ACTIVE_BLOCKS = 12;
/** Knob 3's head width: n ∈ 0…15 further blocks (the mask keeps the valid five). */
export const KNOB3_WIDTH = TOTAL_BLOCKS;

/** The four action heads, in action order; each is a column slice of its stage's logits. */
export type HeadName = 'tier' | 'insertion' | 'topK' | 'knob3';
export interface HeadSpec {
  name: HeadName;
  /** Which MLP's output holds the head (1 or 2). */
  stage: 1 | 2;
  /** First column inside the stage's logits. */
  offset: number;
  /** Options of the head. */
  width: number;
  /** The action's column in the per-configuration log-probabilities (rows × ACTIONS_PER_CONFIG). */
  column: number;
  /** The Philox stream the head samples from (the last word of the sampling counter). */
  stream: number;
}

/** Lays the heads out side by side per stage, in action order; widths come from the knob tables. */
function layOutHeads(): { heads: Record<HeadName, HeadSpec>; stageWidth: { 1: number; 2: number } } {
  const order: [HeadName, 1 | 2, number][] = [
    ['tier', 1, TIERS.length],
    ['insertion', 1, INSERTION_POSITIONS.length],
    ['topK', 2, TOP_K.length],
    ['knob3', 2, KNOB3_WIDTH],
  ];
  const stageWidth = { 1: 0, 2: 0 };
  const heads = {} as Record<HeadName, HeadSpec>;
  order.forEach(([name, stage, width], i) => {
    heads[name] = { name, stage, offset: stageWidth[stage], width, column: i, stream: i };
    stageWidth[stage] += width;
  });
  return { heads, stageWidth };
}
const laidOut = layOutHeads();
/** Stage 1 writes tier ‖ insertion (3 + 5 logits), stage 2 topK ‖ knob3 (5 + 16). */
export const HEADS: Readonly<Record<HeadName, Readonly<HeadSpec>>> = laidOut.heads;
/** Logits per row of each stage's output: 8 and 21. */
export const STAGE_WIDTH: Readonly<{ 1: number; 2: number }> = laidOut.stageWidth;
/** The heads in action order (tier, insertion, topK, knob3). */
export const HEAD_LIST: readonly Readonly<HeadSpec>[] = Object.values(HEADS).sort((a, b) => a.column - b.column);
/** Actions per configuration, i.e. "tokens" per sequence for the loss: tier, insertion, topK, knob3. */
export const ACTIONS_PER_CONFIG = HEAD_LIST.length;

/** A head as the ops take it: rows of the stage's logits, `stride` apart. */
export function headShape(name: HeadName, rows: number): { rows: number; stride: number; offset: number; width: number } {
  const h = HEADS[name];
  return { rows, stride: STAGE_WIDTH[h.stage], offset: h.offset, width: h.width };
}

/** Controller sizes: the seed uses dModel 2048; the sandbox defaults to small ones. */
export interface ControllerDims {
  dModel: number;
  hidden: number;
}
export const DEFAULT_DIMS: ControllerDims = { dModel: 32, hidden: 32 };
export const SEED_DIMS: ControllerDims = { dModel: 2048, hidden: 256 };

/** Input width of each stage: stage 1 reads lang_feat ‖ budget_feat, stage 2 the latency token ‖ onehot(insertion). */
export function stageInputs(d: ControllerDims): { 1: number; 2: number } {
  return { 1: 2 * d.dModel, 2: d.dModel + HEADS.insertion.width };
}

/** Whether knob-3 option n (further blocks) is allowed after insertion position p (1…5). */
export function knob3Valid(p: number, n: number): boolean {
  return n <= TOTAL_BLOCKS - p && p + n >= MIN_ACTIVE_BLOCKS && p + n <= TOTAL_BLOCKS;
}

/** One tensor inside the flat parameter vector. */
export interface ParamTensor {
  name: string;
  offset: number;
  length: number;
  rows: number;
  cols: number;
}

/** Tensors start on 64-float (256-byte) boundaries: WebGPU's minStorageBufferOffsetAlignment. */
const ALIGN = 64;

/** Where each weight and bias lives in the flat parameter (and gradient, and Adam state) vector. */
export function controllerLayout(d: ControllerDims): {
  tensors: Record<'w1' | 'b1' | 'w1h' | 'b1h' | 'w2' | 'b2' | 'w2h' | 'b2h', ParamTensor>;
  length: number;
} {
  const input = stageInputs(d);
  const shapes: [string, number, number][] = [
    ['w1', input[1], d.hidden],
    ['b1', 1, d.hidden],
    ['w1h', d.hidden, STAGE_WIDTH[1]],
    ['b1h', 1, STAGE_WIDTH[1]],
    ['w2', input[2], d.hidden],
    ['b2', 1, d.hidden],
    ['w2h', d.hidden, STAGE_WIDTH[2]],
    ['b2h', 1, STAGE_WIDTH[2]],
  ];
  const tensors: Record<string, ParamTensor> = {};
  let offset = 0;
  for (const [name, rows, cols] of shapes) {
    tensors[name] = { name, offset, length: rows * cols, rows, cols };
    offset += Math.ceil((rows * cols) / ALIGN) * ALIGN;
  }
  return { tensors: tensors as ReturnType<typeof controllerLayout>['tensors'], length: offset };
}

/** Uniform in [−1, 1) from Philox, keyed by (seed, purpose, index). */
function symmetric(seed: number, purpose: number, index: number): number {
  return 2 * unitFloat(philox4x32([index, purpose, 0, 0x5eed], philoxKey(seed))[0]) - 1;
}

/** Initial parameters: weights uniform in ±1/√fanIn (PyTorch's Linear default), biases 0. */
export function initControllerParams(d: ControllerDims, seed: number): Float32Array {
  const layout = controllerLayout(d);
  const params = new Float32Array(layout.length);
  let purpose = 1;
  for (const t of Object.values(layout.tensors)) {
    if (t.rows > 1) {
      const bound = 1 / Math.sqrt(t.rows);
      for (let i = 0; i < t.length; i++) params[t.offset + i] = bound * symmetric(seed, purpose, i);
    }
    purpose++;
  }
  return params;
}

/** One input of the task: its hidden properties and the features the controller sees. */
export interface ControllerPrompts {
  count: number;
  /** How hard each input is, in [0, 1): harder inputs need more compute for the same accuracy. */
  difficulty: Float32Array;
  /** Each input's latency budget in milliseconds, in [20, 50). */
  budgetMs: Float32Array;
  /** Stage-1 input, count × 2·dModel: lang_feat ‖ budget_feat. */
  stage1Input: Float32Array;
  /** Stage-2 input without the insertion one-hot, count × (dModel + 5): the latency token, then 5 zeros. */
  stage2Input: Float32Array;
}

/**
 * Simulated inputs: difficulty and budget drawn per input, features = a fixed random direction
 * scaled by the property plus noise (so the controller can read them), all from Philox(seed).
 */
export function makePrompts(d: ControllerDims, count: number, seed: number): ControllerPrompts {
  const difficulty = new Float32Array(count);
  const budgetMs = new Float32Array(count);
  const { 1: s1, 2: s2 } = stageInputs(d);
  const stage1Input = new Float32Array(count * s1);
  const stage2Input = new Float32Array(count * s2);
  // The draws that depend on the column alone, once rather than once per prompt.
  const column = (purpose: number) => Array.from({ length: d.dModel }, (_, j) => symmetric(seed, purpose, j));
  const [c200, c201, c202, c203] = [column(200), column(201), column(202), column(203)] as [number[], number[], number[], number[]];
  for (let i = 0; i < count; i++) {
    difficulty[i] = (1 + symmetric(seed, 100, i)) / 2;
    budgetMs[i] = 35 + 15 * symmetric(seed, 101, i);
    const budgetUnit = (budgetMs[i]! - 35) / 15;
    for (let j = 0; j < d.dModel; j++) {
      stage1Input[i * s1 + j] = difficulty[i]! * c200[j]! + 0.1 * symmetric(seed, 300, i * d.dModel + j);
      stage1Input[i * s1 + d.dModel + j] = budgetUnit * c201[j]! + 0.1 * symmetric(seed, 301, i * d.dModel + j);
      // The latency token mixes both: it is what the first p blocks made of the input.
      stage2Input[i * s2 + j] = 0.5 * (difficulty[i]! * c202[j]! + budgetUnit * c203[j]!) + 0.1 * symmetric(seed, 302, i * d.dModel + j);
    }
  }
  return { count, difficulty, budgetMs, stage1Input, stage2Input };
}

/** Stage inputs repeated k times (repeat_interleave): rows = prompts · k, prompt i's copies are rows i·k … i·k + k − 1. */
export function expandPrompts(p: ControllerPrompts, d: ControllerDims, k: number): { x1: Float32Array; x2: Float32Array } {
  const { 1: s1, 2: s2 } = stageInputs(d);
  const x1 = new Float32Array(p.count * k * s1),
    x2 = new Float32Array(p.count * k * s2);
  for (let r = 0; r < p.count * k; r++) {
    const i = Math.floor(r / k);
    x1.set(p.stage1Input.subarray(i * s1, (i + 1) * s1), r * s1);
    x2.set(p.stage2Input.subarray(i * s2, (i + 1) * s2), r * s2);
  }
  return { x1, x2 };
}

/** A sampled configuration, as action indices (tier 0…2, insertion 0…4, topK 0…4, knob3 n 0…15). */
export interface ConfigActions {
  tier: number;
  insertion: number;
  topK: number;
  knob3: number;
}

/**
 * The simulated reward of a configuration on an input, in float32-friendly arithmetic that
 * shaders/controllerReward.wgsl repeats: accuracy rises with crops, top-K and active blocks
 * (more so for hard inputs); prefill latency rises with them too; going over budget costs 0.05/ms.
 */
export function configReward(
  a: ConfigActions,
  difficulty: number,
  budgetMs: number,
): { reward: number; accuracy: number; latencyMs: number } {
  const t = configTerms(a);
  const accuracy = 1 - difficulty * t.missRate;
  return { reward: accuracy - 0.05 * Math.max(0, t.latencyMs - budgetMs), accuracy, latencyMs: t.latencyMs };
}

/**
 * What configReward takes from the configuration alone: the miss rate e^(−quality) that the
 * input's difficulty scales, and the latency. Whoever scores many inputs keeps them per
 * configuration (makeTask's optimum over every valid configuration of every prompt).
 */
export function configTerms(a: ConfigActions): { missRate: number; latencyMs: number } {
  const crops = TIER_CROPS[a.tier]!;
  const p = a.insertion + 1;
  const topK = a.topK + 4;
  const blocks = p + a.knob3;
  const quality = 0.12 * crops + 0.15 * (topK - 4) + 0.2 * (blocks - 12) + 0.05 * (p - 1);
  return { missRate: Math.exp(-quality), latencyMs: p + 1.5 * crops + (blocks - p) * (1 + 0.15 * topK) };
}
