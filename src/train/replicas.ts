// Replicas shared by the logical ranks of one thread while they are bit-identical. Every rank of a
// data-parallel step applies the same clip and Adam step to the same all-reduced gradient, so ranks
// that start a step with the same parameters and Adam moments end it with the same bits: the ranks
// of a thread (its block, src/ranks/local-group.ts) that start with equal states hold one state
// object, whose update the first of them to reach it runs for all (`updateOnce`), and whose checksum
// is computed once a step (`checksumOnce`); their rollouts run each trunk's forward and each head's
// softmax once per distinct input of the thread (`sharedRows`: the rows under these parameters have the
// same bits whichever rank computes them; each rank's draws and backward stay its own). Only the CPU
// path shares (a rank's own WebGPU device keeps its own state). A rank whose state may differ from the
// others' (the replica check's test nudging one rank) takes a private copy first (`ownState`), so the
// replica check still compares its own bits and its rollout computes its own rows.
import type { Task } from '../core/env/task.ts';
import type { LocalGroup } from '../ranks/local-group.ts';
import { type SharedRows, TrunkCache } from './distinct-rows.ts';
import type { TrainState } from './step.ts';

/** One state held by several ranks of a thread. */
interface Shared {
  /** The ranks holding it. */
  holders: Set<number>;
  /** The last update run on it: the step count it began at, and what it returned. */
  update: { before: number; result: unknown } | null;
  /** Its parameters' checksum at a step count. */
  checksum: { step: number; value: number } | null;
  /** Both trunks' and both stages' heads' rows computed by its holders under its parameters at a step count, for a task. */
  rows: { step: number; task: Task; caches: SharedRows } | null;
}

const sharedOf = new WeakMap<TrainState, Shared>();

/** A block's state being joined by its ranks (one trainInit each), until every rank of the block has come. */
interface Joining {
  key: string;
  state: TrainState;
  joined: Set<number>;
}
const joining = new WeakMap<LocalGroup, Joining>();

const sameBits = (a: Float32Array | null, b: Float32Array | null): boolean => {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
};

/**
 * The state rank `rank` of block `local` trains with: the block's shared state when an earlier rank of
 * the block, initialised with the same `key` (what else decides the step: ops, device), holds one with
 * the same bits as `own`; else `own`, which the block's later ranks may then join.
 */
export function joinReplica(local: LocalGroup, rank: number, key: string, own: TrainState): TrainState {
  const open = joining.get(local);
  let state = own;
  if (open && open.key === key && !open.joined.has(rank) && sameState(open.state, own)) {
    open.joined.add(rank);
    state = open.state;
    let shared = sharedOf.get(state);
    if (!shared) sharedOf.set(state, (shared = { holders: new Set(open.joined), update: null, checksum: null, rows: null }));
    shared.holders.add(rank);
  } else joining.set(local, { key, state: own, joined: new Set([rank]) });
  const now = joining.get(local)!;
  if (now.joined.size === local.ranks.length) joining.delete(local);
  return state;
}

function sameState(a: TrainState, b: TrainState): boolean {
  return a.step === b.step && sameBits(a.params, b.params) && sameBits(a.m, b.m) && sameBits(a.v, b.v) && sameBits(a.ref, b.ref);
}

/** Whether `state` is held by more than one rank. */
export function isShared(state: TrainState): boolean {
  return (sharedOf.get(state)?.holders.size ?? 0) > 1;
}

/**
 * Runs `update` (the step's clip and Adam, or a skipped step's count, advancing state.step by one)
 * once for every holder of `state`, and gives every holder its result: `before` is the step count the
 * caller's step began at. The first holder to come runs it (an async update's promise is its result,
 * which the others await, so one still running is not run twice).
 */
export function updateOnce<R>(state: TrainState, before: number, update: () => R): R {
  const shared = sharedOf.get(state);
  if (!shared || shared.holders.size < 2) return update();
  if (shared.update?.before === before) return shared.update.result as R;
  if (state.step !== before) throw new Error(`a shared replica is at step ${state.step}, but a holder's step began at ${before}`);
  const result = update();
  shared.update = { before, result };
  return result;
}

/** `checksum(state.params)` once a step for every holder of `state`. */
export function checksumOnce(state: TrainState, checksum: (params: Float32Array) => number): number {
  const shared = sharedOf.get(state);
  if (!shared || shared.holders.size < 2) return checksum(state.params);
  if (shared.checksum?.step !== state.step) shared.checksum = { step: state.step, value: checksum(state.params) };
  return shared.checksum.value;
}

/**
 * The trunks' and heads' rows its holders computed this step for `task` under `state`'s parameters (rollout's
 * `shared`), or null where no other rank holds `state`: a private state (ownState) computes its own.
 * Cleared whenever the step count moved (the update is the only writer of a shared state's parameters).
 */
export function sharedRows(state: TrainState, task: Task): SharedRows | null {
  const shared = sharedOf.get(state);
  if (!shared || shared.holders.size < 2) return null;
  const caches = (): SharedRows => ({ trunks: [new TrunkCache(), new TrunkCache()], heads: [new TrunkCache(), new TrunkCache()] });
  const t = (shared.rows ??= { step: state.step, task, caches: caches() });
  if (t.step !== state.step || t.task !== task) {
    for (const c of [...t.caches.trunks, ...t.caches.heads]) c.clear();
    [t.step, t.task] = [state.step, task];
  }
  return t.caches;
}

/**
 * Rank `rank`'s own state: `state` itself when no other rank holds it, else a copy of it that rank
 * `rank` holds alone from now on (before anything changes its state alone).
 */
export function ownState(state: TrainState, rank: number): TrainState {
  const shared = sharedOf.get(state);
  if (!shared || shared.holders.size < 2 || !shared.holders.has(rank)) return state;
  shared.holders.delete(rank);
  return { params: state.params.slice(), m: state.m.slice(), v: state.v.slice(), ref: state.ref?.slice() ?? null, step: state.step };
}
