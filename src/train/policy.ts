// The controller as a policy over one rank's rows, written against an ops backend
// (src/ops/backend.ts) so the same code runs on the CPU reference, a fast CPU backend or a
// rank's WebGPU device:
//   rollout: stage 1 → sample tier, insertion → latency token of that insertion + one-hot →
//            stage 2 → sample top-K, knob 3 (masked) — keeping what the backward pass needs;
//   backward: d loss / d logp of each action → gradients of every parameter (one flat vector).
// Row r of a rank's rows is the sample at gathered position rowOffset + r: its random draws are
// keyed by that global position (rank 0 in the key), so they do not depend on the rank count.
// The heads (which stage, which columns, which Philox stream) come from core/env/controller.ts.
import {
  ACTIONS_PER_CONFIG,
  controllerLayout,
  HEAD_LIST,
  headShape,
  KNOB3_WIDTH,
  STAGE_WIDTH,
  stageInputs,
  type ControllerDims,
  type HeadName,
  type HeadSpec,
} from '../core/env/controller.ts';
import { cacheLatencyTokens, latencyToken, type Task } from '../core/env/task.ts';
import type { OpsBackend } from '../ops/backend.ts';
import type { DenseOut, DenseShape } from '../ops/cpu/dense.ts';
import { simdLatencyTokens } from '../ops/fast/latencyTokens.ts';
import { type DistinctRows, distinctRows, type SharedRows, type TrunkInput, trunkForward, trunkWeightGrad } from './distinct-rows.ts';
import { sampleSharedHeads } from './shared-heads.ts';
import { Workspace } from './workspace.ts';

interface Sampled {
  actions: Uint32Array;
  logp: Float32Array;
  probs: Float32Array;
}

/** What one rank sampled for its rows, and the activations its backward pass reuses. */
export interface Rollout {
  rows: number;
  promptIds: readonly number[];
  /**
   * Stage 1's input of a row is its prompt's row of this bank (the task's prompt features, shared,
   * never copied per row): row inputIds[0][r] = promptIds[r]. Stage 2's inputs are x2's rows.
   */
  stage1Bank: Float32Array;
  x2: Float32Array;
  /**
   * Each row's input to stage 1 and to stage 2 as an id: rows with the same id have the same input
   * (stage 1: the prompt; stage 2: the prompt and the insertion stage 2 ran after). The trunks run
   * once per distinct input (distinct-rows.ts).
   */
  inputIds: [Uint32Array, Uint32Array];
  hidden: [Float32Array, Float32Array];
  preact: [Float32Array, Float32Array];
  heads: Record<HeadName, Sampled>;
  knob3Mask: Float32Array;
  /** rows × 4 log-probabilities of the sampled actions: the loss's "tokens". */
  logpTokens: Float32Array;
}

type TensorName = 'w1' | 'b1' | 'w1h' | 'b1h' | 'w2' | 'b2' | 'w2h' | 'b2h';

/** controllerLayout of each dims object a run uses (a run keeps one), computed once. */
const layouts = new WeakMap<ControllerDims, ReturnType<typeof controllerLayout>>();

export function layoutOf(dims: ControllerDims): ReturnType<typeof controllerLayout> {
  let layout = layouts.get(dims);
  if (!layout) layouts.set(dims, (layout = controllerLayout(dims)));
  return layout;
}

/** A named tensor of the flat parameter vector, as a view. */
function tensor(params: Float32Array, dims: ControllerDims, name: TensorName): Float32Array {
  const t = layoutOf(dims).tensors[name];
  return params.subarray(t.offset, t.offset + t.length);
}

/** Each head's workspace names (built once: a step asks for them every time). */
const HEAD_ARRAYS = Object.fromEntries(
  HEAD_LIST.map((h) => [
    h.name,
    { actions: `${h.name}.actions`, logp: `${h.name}.logp`, probs: `${h.name}.probs`, soft: `${h.name}.softLogp` },
  ]),
) as Record<HeadName, { actions: string; logp: string; probs: string; soft: string }>;

export function stageShapes(dims: ControllerDims, rows: number, stage: 1 | 2) {
  const trunk = { rows, inDim: stageInputs(dims)[stage], outDim: dims.hidden };
  const head = { rows, inDim: dims.hidden, outDim: STAGE_WIDTH[stage] };
  return { trunk, head };
}

/**
 * Runs both stages for `promptIds` (one row each) and samples every head. Its arrays are `ws`'s
 * (a rank's workspace, reused by its next step; by default a fresh one). `shared`: each trunk's rows,
 * and on the fast backend each stage's heads' softmax (shared-heads.ts), by input, that the other ranks
 * of this thread computed under these same parameters (replicas.ts's sharedRows), used and added to; the
 * same bits as without.
 */
export async function rollout(
  ops: OpsBackend,
  task: Task,
  params: Float32Array,
  promptIds: readonly number[],
  key: { seed: number; step: number; rowOffset: number },
  /** Evaluation only: stage 2 runs after these insertions instead of the sampled ones. */
  forcedInsertion?: Uint32Array,
  ws = new Workspace(),
  shared: SharedRows | null = null,
): Promise<Rollout> {
  const dims = task.dims;
  const rows = promptIds.length;
  const s2 = stageInputs(dims)[2];
  const bank = task.prompts.stage1Input;
  const logpTokens = ws.f32('logpTokens', rows * ACTIONS_PER_CONFIG);
  const heads = {} as Record<HeadName, Sampled>;
  const sample = async (logits: Float32Array, mask: Float32Array | null, h: Readonly<HeadSpec>) => {
    const names = HEAD_ARRAYS[h.name];
    const s = await ops.categoricalSample(
      logits,
      mask,
      headShape(h.name, rows),
      { seed: key.seed, rank: 0, step: key.step, rowOffset: key.rowOffset, stream: h.stream },
      {
        actions: ws.u32(names.actions, rows),
        logp: ws.f32(names.logp, rows),
        probs: ws.f32(names.probs, rows * h.width),
        softLogp: ws.f32(names.soft, rows * h.width),
      },
    );
    for (let r = 0; r < rows; r++) logpTokens[r * ACTIONS_PER_CONFIG + h.column] = s.logp[r]!;
    heads[h.name] = s;
  };
  const inputIds: [Uint32Array, Uint32Array] = [ws.u32('inputIds1', rows), ws.u32('inputIds2', rows)];
  // The heads' softmax per distinct input of the thread (shared-heads.ts; its draw is the fast backend's).
  const sharedHeads = shared && ops.name === 'fast' ? shared.heads : null;
  /** A stage's trunk, and its heads' logits unless the thread shares their softmax (null: sampleStage samples them). */
  const forward = async (x: TrunkInput, stage: 1 | 2): Promise<{ h: DenseOut; d: DistinctRows; logits: Float32Array | null }> => {
    const { trunk, head } = stageShapes(dims, rows, stage);
    const w = stage === 1 ? (['w1', 'b1', 'w1h', 'b1h'] as const) : (['w2', 'b2', 'w2h', 'b2h'] as const);
    const n = rows * dims.hidden;
    const hidden = { z: ws.f32(`preact${stage}`, n), y: ws.f32(`hidden${stage}`, n) };
    const d = distinctRows(inputIds[stage - 1]!, ws, `trunk${stage}`);
    const h = await trunkForward(
      ops,
      x,
      inputIds[stage - 1]!,
      tensor(params, dims, w[0]),
      tensor(params, dims, w[1]),
      { ...trunk, activation: 'tanh' },
      ws,
      `trunk${stage}`,
      hidden,
      shared?.trunks[stage - 1] ?? null,
      d,
    );
    if (sharedHeads) return { h, d, logits: null };
    const m = rows * head.outDim;
    const headOut = { z: ws.f32(`logits${stage}`, m), y: ws.f32(`logitsCopy${stage}`, m) };
    const logits = (
      await ops.dense(h.y, tensor(params, dims, w[2]), tensor(params, dims, w[3]), { ...head, activation: 'identity' }, headOut)
    ).z;
    return { h, d, logits };
  };

  /** A stage's heads from the thread's softmax per distinct input (sharedHeads). */
  const sampleStage = (stage: 1 | 2, trunk: DenseOut, distinct: DistinctRows, masks: Partial<Record<HeadName, Float32Array>>) => {
    const [w, b] = stage === 1 ? (['w1h', 'b1h'] as const) : (['w2h', 'b2h'] as const);
    const ids = inputIds[stage - 1]!;
    const rowsOf = {
      stage,
      hidden: trunk.y,
      hiddenDim: dims.hidden,
      ids,
      distinct,
      w: tensor(params, dims, w),
      b: tensor(params, dims, b),
      masks,
    };
    const out = (h: Readonly<HeadSpec>) => {
      const names = HEAD_ARRAYS[h.name];
      return (heads[h.name] = {
        actions: ws.u32(names.actions, rows),
        logp: ws.f32(names.logp, rows),
        probs: ws.f32(names.probs, rows * h.width),
      });
    };
    return sampleSharedHeads(ops, rowsOf, key, sharedHeads![stage - 1]!, ws, out, logpTokens);
  };

  for (let r = 0; r < rows; r++) inputIds[0][r] = promptIds[r]!;
  const one = await forward({ bank }, 1);
  const [tier, insertionHead, topK, knob3] = HEAD_LIST as [HeadSpec, HeadSpec, HeadSpec, HeadSpec];
  if (one.logits) {
    await sample(one.logits, null, tier);
    await sample(one.logits, null, insertionHead);
  } else await sampleStage(1, one.h, one.d, {});
  // Stage 2 sees what the first p blocks made of the input, and p itself (one-hot).
  const insertion = forcedInsertion ?? heads.insertion.actions;
  const x2 = ws.f32('x2', rows * s2);
  // the step's new prompts together (blocked; the fast backend's in WebAssembly SIMD, the same bits)
  cacheLatencyTokens(task, promptIds, ops.name === 'fast' ? simdLatencyTokens : undefined);
  for (let r = 0; r < rows; r++) latencyToken(task, promptIds[r]!, insertion[r]! + 1, x2, r * s2);
  await ops.oneHot(insertion, { rows, stride: s2, offset: dims.dModel, width: insertionHead.width }, x2);
  for (let r = 0; r < rows; r++) inputIds[1][r] = promptIds[r]! * insertionHead.width + insertion[r]!;
  const knob3Mask = await ops.knob3Mask(insertion, ws.f32('knob3Mask', rows * KNOB3_WIDTH));
  const two = await forward({ rows: x2 }, 2);
  if (two.logits) {
    await sample(two.logits, null, topK);
    await sample(two.logits, knob3Mask, knob3);
  } else await sampleStage(2, two.h, two.d, { knob3: knob3Mask });
  return {
    rows,
    promptIds,
    stage1Bank: bank,
    x2,
    inputIds,
    hidden: [one.h.y, two.h.y],
    preact: [one.h.z, two.h.z],
    heads,
    knob3Mask,
    logpTokens,
  };
}

/**
 * Gradient of the loss with respect to every parameter, from d loss / d logp (rows × 4), written
 * into the first controllerLayout(dims).length entries of `grads` (the padding between tensors
 * is left as it is); intermediate arrays are `ws`'s.
 */
export async function policyBackward(
  ops: OpsBackend,
  dims: ControllerDims,
  params: Float32Array,
  ro: Rollout,
  gradLogp: Float32Array,
  ws = new Workspace(),
  grads: Float32Array = new Float32Array(layoutOf(dims).length),
): Promise<Float32Array> {
  const { tensors } = layoutOf(dims);
  const view = (name: TensorName) => grads.subarray(tensors[name].offset, tensors[name].offset + tensors[name].length);
  // On the GPU an op returns a new array rather than writing into the view: copy it in.
  const put = (name: TensorName, value: Float32Array) => {
    if (value.buffer !== grads.buffer || value.byteOffset !== grads.byteOffset + 4 * tensors[name].offset)
      grads.set(value, tensors[name].offset);
  };
  const rows = ro.rows;
  const dLogits: [Float32Array, Float32Array] = [ws.f32('dLogits1', rows * STAGE_WIDTH[1]), ws.f32('dLogits2', rows * STAGE_WIDTH[2])];
  for (const h of HEAD_LIST) {
    const s = ro.heads[h.name];
    const target = dLogits[h.stage - 1];
    const shape = headShape(h.name, rows);
    // On the GPU the op returns a new array rather than writing into `target`: copy its columns back.
    const out = await ops.logProbBackward(
      s.probs,
      s.actions,
      h.name === 'knob3' ? ro.knob3Mask : null,
      gradLogp,
      shape,
      { stride: ACTIONS_PER_CONFIG, column: h.column },
      target,
    );
    if (out !== target)
      for (let r = 0; r < rows; r++)
        for (let j = 0; j < h.width; j++) target[r * shape.stride + h.offset + j] = out[r * shape.stride + h.offset + j]!;
  }
  for (const stage of [1, 2] as const) {
    const { trunk, head } = stageShapes(dims, rows, stage);
    const [w, b, wh, bh] = stage === 1 ? (['w1', 'b1', 'w1h', 'b1h'] as const) : (['w2', 'b2', 'w2h', 'b2h'] as const);
    const x = trunkInput(ro, stage);
    const dHead = dLogits[stage - 1];
    const headGrad = await ops.denseBackwardWeight(ro.hidden[stage - 1], dHead, head, { dw: view(wh), db: view(bh) });
    put(wh, headGrad.dw);
    put(bh, headGrad.db);
    const n = rows * dims.hidden;
    const dy = await ops.denseBackwardInput(
      dHead,
      tensor(params, dims, wh),
      head as Omit<DenseShape, 'activation'>,
      ws.f32(`dHidden${stage}`, n),
    );
    const dz = await ops.activationBackward(ro.preact[stage - 1], dy, 'tanh', ws.f32(`dPreact${stage}`, n));
    const trunkGrad = await trunkWeightGrad(ops, x, dz, ro.inputIds[stage - 1]!, trunk, ws, `trunk${stage}`, { dw: view(w), db: view(b) });
    put(w, trunkGrad.dw);
    put(b, trunkGrad.db);
  }
  return grads;
}

/** Sum over rows of each head's entropy −Σ p log p (valid options only; masked ones have p = 0). */
export function headEntropySums(ro: Rollout): Record<HeadName, number> {
  const out = {} as Record<HeadName, number>;
  for (const h of HEAD_LIST) {
    const probs = ro.heads[h.name].probs;
    let sum = 0;
    for (let i = 0; i < probs.length; i++) {
      const p = probs[i]!;
      if (p > 0) sum -= p * Math.log(p);
    }
    out[h.name] = sum;
  }
  return out;
}

/** The rollout's rows `rows` (in that order), every per-row array sliced; activations stay those it was sampled with. */
export function selectRows(ro: Rollout, rows: readonly number[]): Rollout {
  const pick = <A extends Float32Array | Uint32Array>(a: A): A => {
    const w = a.length / ro.rows;
    const out = new (a.constructor as new (n: number) => A)(rows.length * w);
    rows.forEach((r, i) => out.set(a.subarray(r * w, (r + 1) * w), i * w));
    return out;
  };
  const heads = {} as Record<HeadName, Sampled>;
  for (const h of HEAD_LIST) {
    const s = ro.heads[h.name];
    heads[h.name] = { actions: pick(s.actions), logp: pick(s.logp), probs: pick(s.probs) };
  }
  return {
    rows: rows.length,
    promptIds: rows.map((r) => ro.promptIds[r]!),
    stage1Bank: ro.stage1Bank,
    x2: pick(ro.x2),
    inputIds: [pick(ro.inputIds[0]), pick(ro.inputIds[1])],
    hidden: [pick(ro.hidden[0]), pick(ro.hidden[1])],
    preact: [pick(ro.preact[0]), pick(ro.preact[1])],
    heads,
    knob3Mask: pick(ro.knob3Mask),
    logpTokens: pick(ro.logpTokens),
  };
}

/** A rollout's input to a stage's trunk: stage 1's prompt bank (by prompt id), or stage 2's rows. */
const trunkInput = (ro: Rollout, stage: 1 | 2): TrunkInput => (stage === 1 ? { bank: ro.stage1Bank } : { rows: ro.x2 });

/** A stage's trunk over a rollout's rows under `params` (each distinct input once), into new arrays. */
export function stageTrunk(
  ops: OpsBackend,
  dims: ControllerDims,
  params: Float32Array,
  ro: Rollout,
  stage: 1 | 2,
  ws = new Workspace(),
): Promise<{ z: Float32Array; y: Float32Array }> {
  const { trunk } = stageShapes(dims, ro.rows, stage);
  const [w, b] = stage === 1 ? (['w1', 'b1'] as const) : (['w2', 'b2'] as const);
  const n = ro.rows * dims.hidden;
  return trunkForward(
    ops,
    trunkInput(ro, stage),
    ro.inputIds[stage - 1]!,
    tensor(params, dims, w),
    tensor(params, dims, b),
    { ...trunk, activation: 'tanh' },
    ws,
    `trunk${stage}`,
    { z: new Float32Array(n), y: new Float32Array(n) },
  );
}

/**
 * The same samples under other parameters: both stages run again on the rollout's inputs (stage 2's
 * input depends on the sampled insertion, not on the parameters) and each head's log-probability of
 * the action that was sampled is read, with the activations and probabilities the backward needs.
 * What a later optimisation pass over an older generation trains on.
 */
export async function forwardActions(ops: OpsBackend, dims: ControllerDims, params: Float32Array, ro: Rollout): Promise<Rollout> {
  const rows = ro.rows;
  const logpTokens = new Float32Array(rows * ACTIONS_PER_CONFIG);
  const heads = {} as Record<HeadName, Sampled>;
  const stages: { y: Float32Array; z: Float32Array }[] = [];
  const ws = new Workspace();
  for (const stage of [1, 2] as const) {
    const h = await stageTrunk(ops, dims, params, ro, stage, ws);
    const { head } = stageShapes(dims, rows, stage);
    const w = stage === 1 ? (['w1', 'b1', 'w1h', 'b1h'] as const) : (['w2', 'b2', 'w2h', 'b2h'] as const);
    const logits = (await ops.dense(h.y, tensor(params, dims, w[2]), tensor(params, dims, w[3]), { ...head, activation: 'identity' })).z;
    stages.push(h);
    for (const spec of HEAD_LIST.filter((s) => s.stage === stage)) {
      const soft = await ops.maskedSoftmax(logits, spec.name === 'knob3' ? ro.knob3Mask : null, headShape(spec.name, rows));
      const actions = ro.heads[spec.name].actions;
      const logp = new Float32Array(rows);
      for (let r = 0; r < rows; r++) {
        logp[r] = soft.logp[r * spec.width + actions[r]!]!;
        logpTokens[r * ACTIONS_PER_CONFIG + spec.column] = logp[r]!;
      }
      heads[spec.name] = { actions, logp, probs: soft.probs };
    }
  }
  return {
    ...ro,
    hidden: [stages[0]!.y, stages[1]!.y],
    preact: [stages[0]!.z, stages[1]!.z],
    heads,
    logpTokens,
  };
}
