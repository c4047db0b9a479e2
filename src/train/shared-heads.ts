// A stage's heads sampled where the ranks of a thread hold one replica (replicas.ts): like its trunk
// (distinct-rows.ts's TrunkCache), each head's softmax runs once per distinct input of the thread. A row's
// logits are a function of its input and the weights alone (the head's dense computes each row alone,
// then each head's softmax each row alone; stage 2's knob-3 mask follows from the insertion, part of the
// input), so the probabilities and log-probabilities of an input under one set of weights have the same
// bits whichever rank, batch or position computes them. They are held by input id in a TrunkCache, a
// stage's heads side by side as in its logits; each row then draws its own action from its input's
// probabilities with its own uniform (keyed by its gathered position, as alone) and copies them, as
// the backward and the entropies read them per row. On the fast backend, whose draw (drawRows) it is.
import { ACTIONS_PER_CONFIG, HEAD_LIST, type HeadName, type HeadSpec, headShape, STAGE_WIDTH } from '../core/env/controller.ts';
import type { OpsBackend } from '../ops/backend.ts';
import { drawRows } from '../ops/fast/drawRows.ts';
import { copyFloats } from '../core/rows.ts';
import type { DistinctRows, TrunkCache } from './distinct-rows.ts';
import type { Workspace } from './workspace.ts';

/** Each stage's heads, in action order. */
const STAGE_HEADS = { 1: HEAD_LIST.filter((h) => h.stage === 1), 2: HEAD_LIST.filter((h) => h.stage === 2) };

/** Where a head's samples go: the action, its log-probability (rows each) and the probabilities (rows × width). */
export interface HeadSamples {
  actions: Uint32Array;
  logp: Float32Array;
  probs: Float32Array;
}

/** A stage of a rollout as its heads read it. */
export interface StageRows {
  stage: 1 | 2;
  /** The trunk's output rows (rows × hiddenDim) and each row's input id (rows with one id have one input). */
  hidden: Float32Array;
  hiddenDim: number;
  ids: Uint32Array;
  /** distinctRows of `ids`. */
  distinct: DistinctRows;
  /** The heads' dense: weight (hiddenDim × the stage's width) and bias. */
  w: Float32Array;
  b: Float32Array;
  /** Each masked head's mask (rows × its width), a function of the row's input. */
  masks: Partial<Record<HeadName, Float32Array>>;
}

/**
 * Samples every head of `s.stage` for its rows, each distinct input's softmax taken from `cache` (the thread's
 * rows under these weights) or computed and added to it; into `out(head)`'s arrays and the head's column of
 * `logpTokens` (rows × 4). `key`: the rollout's sampling key (row r draws at gathered position rowOffset + r).
 */
export async function sampleSharedHeads(
  ops: OpsBackend,
  s: StageRows,
  key: { seed: number; step: number; rowOffset: number },
  cache: TrunkCache,
  ws: Workspace,
  out: (head: Readonly<HeadSpec>) => HeadSamples,
  logpTokens: Float32Array,
): Promise<void> {
  const rows = s.ids.length;
  const width = STAGE_WIDTH[s.stage];
  const heads = STAGE_HEADS[s.stage];
  const name = `heads${s.stage}`;
  const compute = async (missing: Uint32Array, m: number) => {
    const x = ws.f32Grown(`${name}.x`, m * s.hiddenDim);
    for (let j = 0; j < m; j++) copyFloats(s.hidden, missing[j]! * s.hiddenDim, x, j * s.hiddenDim, s.hiddenDim);
    const shape = { rows: m, inDim: s.hiddenDim, outDim: width, activation: 'identity' as const };
    const dense = { z: ws.f32Grown(`${name}.logits`, m * width), y: ws.f32Grown(`${name}.logitsCopy`, m * width) };
    const logits = (await ops.dense(x, s.w, s.b, shape, dense)).z;
    const probs = ws.f32Grown(`${name}.probs`, m * width);
    const logp = ws.f32Grown(`${name}.logp`, m * width);
    for (const h of heads) {
      const rowMask = s.masks[h.name];
      let mask: Float32Array | null = null;
      if (rowMask) {
        mask = ws.f32Grown(`${name}.${h.name}.mask`, m * h.width);
        for (let j = 0; j < m; j++) copyFloats(rowMask, missing[j]! * h.width, mask, j * h.width, h.width);
      }
      const soft = await ops.maskedSoftmax(logits, mask, headShape(h.name, m), {
        logp: ws.f32Grown(`${name}.${h.name}.logp`, m * h.width),
        probs: ws.f32Grown(`${name}.${h.name}.probs`, m * h.width),
      });
      for (let j = 0; j < m; j++) {
        copyFloats(soft.probs, j * h.width, probs, j * width + h.offset, h.width);
        copyFloats(soft.logp, j * h.width, logp, j * width + h.offset, h.width);
      }
    }
    return { z: probs, y: logp };
  };
  await cache.hold(s.ids, s.distinct, width, ws.u32(`${name}.missing`, rows), compute);
  for (const h of heads) {
    const o = out(h);
    drawRows(cache.zRows, cache.yRows, s.ids, { stride: width, offset: h.offset }, s.masks[h.name] ?? null, h.width, o.probs, {
      key: { seed: key.seed, rank: 0, step: key.step, rowOffset: key.rowOffset, stream: h.stream },
      actions: o.actions,
      logp: o.logp,
    });
    for (let r = 0; r < rows; r++) logpTokens[r * ACTIONS_PER_CONFIG + h.column] = o.logp[r]!;
  }
}
