// The gathered batch's advantages once per thread. Every rank of a step gathers the same rewards and
// prompt ids, and a scheme's advantages are a function of them alone (with k and the world size), so
// the ranks of one thread (its block, src/ranks/local-group.ts) need not each evaluate their slots'
// groups over the whole gathered batch: the first to come computes every slot's advantages (float64,
// slotAdvantages over all positions: the bits of each rank's own slots) and the others take their
// slots from them. A rank reuses them only when its own input has the same bits as the input they
// were computed from (compared word by word, far cheaper than the groups), so a rank whose gathered
// batch differs (a fault, its own data) computes its own, as alone.
import { type AdvantageScratch, slotAdvantages } from '../core/grpo/slot-advantages.ts';
import type { TrainScheme } from '../core/grpo/schemes.ts';
import type { LocalGroup } from '../ranks/local-group.ts';
import type { Workspace } from './workspace.ts';

/** What the advantages are a function of: the gathered rewards and prompt ids, the group size and the world size. */
export interface GatheredInput {
  rewards: Float32Array;
  promptIds: Int32Array;
  k: number;
  ranks: number;
}

/** The advantages a thread's ranks share, with a copy of the input they were computed from. */
interface Held {
  scheme: TrainScheme;
  k: number;
  ranks: number;
  rewards: Uint32Array;
  promptIds: Int32Array;
  advantages: Float64Array;
}

const heldBy = new WeakMap<LocalGroup, Held>();

/** Whether `a` and `b` hold the same 32-bit words. */
function sameWords(a: Uint32Array | Int32Array, b: Uint32Array | Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const words = (x: Float32Array) => new Uint32Array(x.buffer, x.byteOffset, x.length);

/**
 * Every gathered position's advantage under `scheme` (float64, slotAdvantages' bits), computed once for
 * the ranks of `local` whose input has the same bits; null where the thread hosts one rank (the caller
 * computes its own slots alone, as it always did). Valid until the thread's next call with another
 * input: read it before awaiting anything. `scratch`: the calling rank's workspace.
 */
export function threadAdvantages(
  local: LocalGroup,
  scheme: TrainScheme,
  input: GatheredInput,
  scratch: AdvantageScratch,
): Float64Array | null {
  if (local.ranks.length < 2) return null;
  const n = input.rewards.length;
  const rewards = words(input.rewards);
  const h = heldBy.get(local);
  if (
    h &&
    h.scheme === scheme &&
    h.k === input.k &&
    h.ranks === input.ranks &&
    sameWords(h.rewards, rewards) &&
    sameWords(h.promptIds, input.promptIds)
  )
    return h.advantages;
  const fits = h && h.advantages.length === n;
  const held: Held = {
    scheme,
    k: input.k,
    ranks: input.ranks,
    rewards: fits ? h.rewards : new Uint32Array(n),
    promptIds: fits ? h.promptIds : new Int32Array(n),
    advantages: fits ? h.advantages : new Float64Array(n),
  };
  // Forgotten first: an input that fails its checks leaves nothing behind.
  heldBy.delete(local);
  slotAdvantages(scheme, input, 0, held.advantages, scratch);
  held.rewards.set(rewards);
  held.promptIds.set(input.promptIds);
  heldBy.set(local, held);
  return held.advantages;
}

/**
 * The advantages of gathered positions [rowOffset, rowOffset + rows) as float32 (as the loss reads them), in
 * `ws`'s 'advantages'; and where the rank reports its metrics (`report`), every position's (float64, the batch's
 * std), in `ws`'s 'advantages.gathered', else null. The thread's shared advantages where it hosts several ranks
 * (threadAdvantages), else this rank's own slots alone (slotAdvantages over its range; over every position when it reports).
 */
export function rankAdvantages(
  local: LocalGroup,
  scheme: TrainScheme,
  input: GatheredInput,
  rowOffset: number,
  rows: number,
  ws: Workspace,
  report: boolean,
): { advantages: Float32Array; all: Float64Array | null } {
  const n = input.rewards.length;
  const thread = threadAdvantages(local, scheme, input, ws);
  let all: Float64Array | null = null;
  if (report) {
    all = ws.f64('advantages.gathered', n);
    if (thread) all.set(thread);
    else slotAdvantages(scheme, input, 0, all, ws);
  }
  const from = thread ?? all;
  if (!from) return { advantages: slotAdvantages(scheme, input, rowOffset, ws.f32('advantages', rows), ws), all };
  const advantages = ws.f32('advantages', rows);
  for (let r = 0; r < rows; r++) advantages[r] = from[rowOffset + r]!;
  return { advantages, all };
}
