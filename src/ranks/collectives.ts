// The collectives one rank calls, torch.distributed-style, over the shared arena. Every
// collective starts the same way: the rank posts a header (what it calls, with which shape),
// all ranks meet at a barrier, and every rank checks every header. So a mismatch (uneven
// shapes, a rank in a different collective) raises the same clear error on every rank at
// once instead of corrupting data or hanging. Payloads are written only after that check,
// into the data region, and read back after a second barrier.
//
// Waiting never spins: a rank sleeps in Atomics.wait on the barrier word ('block' mode, for
// worker threads with no GPU promise pending) or awaits Atomics.waitAsync ('async' mode, for
// a rank that must keep its event loop running, e.g. while a GPU readback is in flight, and for
// logical ranks: several ranks of one world on one thread, which take turns). The ranks of one
// thread share one Atomics.waitAsync per word, and the last of them to arrive wakes the others
// directly (a promise, no thread wake-up), so a collective among them costs microtasks.
import { ConfigError } from '../core/errors.ts';
import { REDUCE_OPS, type ReduceOp } from '../core/reduce-op.ts';
import { waitAsync } from '../core/wait-async.ts';
import {
  ABORT,
  ABORT_LOCKED,
  ABORT_RANK,
  ARRIVED,
  AbortReason,
  Arena,
  GEN,
  H_ARG,
  H_BYTES,
  H_DIMS,
  H_DTYPE,
  H_KIND,
  H_NDIMS,
  H_PREFIX,
  H_SEQ,
  H_TENSOR,
  kindCode,
  kindName,
  MAX_DIMS,
  Phase,
  ST_KIND,
  ST_PHASE,
  ST_SEQ,
  type CollectiveKind,
} from './arena.ts';
import { type BackendBehaviour, detailMismatchMessage, glooMismatch, ncclHangReport, type PostedCollective } from './backend.ts';
import { allocate, ctorOf, dtypeCode, dtypeFromCode, dtypeOf, viewOf, type DType, type TypedArray } from './dtype.ts';
import {
  CollectiveError,
  CollectiveMismatchError,
  CollectiveTimeoutError,
  describeRanks,
  groupByLabel,
  rankList,
  RankFailedError,
  ShapeMismatchError,
  WatchdogTimeoutError,
} from './faults.ts';
import { LocalGroup } from './local-group.ts';
import { decodeObject, encodeObject } from './objects.ts';
import { Tensor, type DeviceName } from './tensor.ts';

export type WaitMode = 'block' | 'async';

/** One Atomics.waitAsync that the ranks of this thread waiting on the same word and value share. */
interface SharedWait {
  promise: Promise<void>;
  resolve(): void;
  /** When its timeout ends (Date.now() milliseconds). */
  until: number;
}

// This thread's shared waits, by arena and word (a worker thread holds the ranks of one world).
const sharedWaits = new WeakMap<SharedArrayBuffer, Map<number, Map<number, SharedWait>>>();

/** The shared waits on word `index` of `buffer`, by expected value. */
function waitsOn(buffer: SharedArrayBuffer, index: number): Map<number, SharedWait> {
  let byWord = sharedWaits.get(buffer);
  if (!byWord) sharedWaits.set(buffer, (byWord = new Map()));
  let byValue = byWord.get(index);
  if (!byValue) byWord.set(index, (byValue = new Map()));
  return byValue;
}

/**
 * Resolves when `c[index]` may differ from `expected`, a notify reaches this thread, `wakeLocal` is called, or
 * about `ms` pass; waiters of this thread on the same word and value share one Atomics.waitAsync.
 */
function waitShared(c: Int32Array, index: number, expected: number, ms: number): Promise<void> | null {
  const waits = waitsOn(c.buffer as SharedArrayBuffer, index);
  const now = Date.now();
  const found = waits.get(expected);
  // Join a wait that ends no later than this one should (a few ms of slack); else start one.
  if (found && found.until <= now + ms + 5) return found.promise;
  const r = waitAsync(c, index, expected, ms);
  if (!r.async) return null;
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  const entry: SharedWait = { promise, resolve, until: now + ms };
  if (!found) waits.set(expected, entry);
  const done = () => {
    if (waits.get(expected) === entry) waits.delete(expected);
    resolve();
  };
  (r.value as Promise<string>).then(done, done);
  return promise;
}

/** Wakes this thread's waiters on word `index` at once (they re-check the word). */
function wakeLocal(c: Int32Array, index: number): void {
  const waits = sharedWaits.get(c.buffer as SharedArrayBuffer)?.get(index);
  if (!waits?.size) return;
  const all = [...waits.values()];
  waits.clear();
  for (const w of all) w.resolve();
}

/** A collective's payload: a typed array (shape [length]) or a Tensor. */
export type Payload = TypedArray | Tensor;

export interface CommunicatorOptions {
  rank: number;
  size: number;
  /** A collective with no progress for this long raises a diagnosis on every waiting rank. */
  timeoutMs: number;
  waitMode: WaitMode;
  device: DeviceName;
  /** How a collective whose ranks disagree ends (src/ranks/backend.ts); default 'sandbox'. */
  backend?: BackendBehaviour;
  /** nccl: how long a mismatched collective hangs before the simulated watchdog fires (default 2000 ms). */
  watchdogMs?: number;
  /** The ranks of the world this thread hosts, this one among them (default: this rank alone). */
  local?: LocalGroup;
}

export interface RankMetrics {
  rank: number;
  /** Collectives this rank completed. */
  collectives: number;
  /** Payload bytes this rank wrote into the arena / copied out of it. */
  bytesWritten: number;
  bytesRead: number;
  /** Milliseconds spent waiting for other ranks. */
  waitMs: number;
}

interface Posted {
  dtype?: DType;
  bytes?: number;
  arg?: number;
  shape?: readonly number[];
  tensor?: boolean;
}

/**
 * allReduce: up to this many element additions per rank (elements × (ranks − 1)), every rank reduces
 * the whole payload itself (one barrier after the payloads); above it, a reduce-scatter (each rank a
 * chunk, a second barrier, then every rank reads the result). ~0.2 ms of adds, less than a wake-up
 * across threads on a busy machine.
 */
const LOCAL_REDUCE_ADDS = 1 << 18;

/**
 * `acc[lo, hi)` becomes the reduction of `parts` in their order (`onto`: of acc's own values, then `parts`),
 * each step rounded (float32) or wrapped (ints) as the typed array stores it. The first two parts are
 * combined in one pass (x0 + x1 stored, as x0 stored then x0 + x1 stored: the same bits).
 */
function combine(acc: TypedArray, parts: readonly TypedArray[], op: ReduceOp, lo: number, hi: number, onto = false): void {
  if (op !== 'max' && acc instanceof Float32Array && parts.every((p) => p instanceof Float32Array)) {
    sumF32(acc, parts as readonly Float32Array[], lo, hi, onto);
    return;
  }
  let from = 0;
  if (!onto) {
    const x0 = parts[0]!;
    const x1 = parts[1];
    if (!x1) {
      if (acc !== x0) acc.set(x0.subarray(lo, hi) as never, lo);
    } else if (op === 'max') for (let i = lo; i < hi; i++) acc[i] = Math.max(x0[i]!, x1[i]!);
    else for (let i = lo; i < hi; i++) acc[i] = x0[i]! + x1[i]!;
    from = 2;
  }
  for (let p = from; p < parts.length; p++) {
    const s = parts[p]!;
    if (op === 'max') for (let i = lo; i < hi; i++) acc[i] = Math.max(acc[i]!, s[i]!);
    else for (let i = lo; i < hi; i++) acc[i] = acc[i]! + s[i]!;
  }
}

/**
 * combine's float32 sum on float32 arrays only (one shape for V8 to compile), in blocks of elements that
 * stay in cache while every part is added: the same additions in the same order, so the same bits.
 */
function sumF32(acc: Float32Array, parts: readonly Float32Array[], lo: number, hi: number, onto: boolean): void {
  const first = onto ? acc : parts[0]!;
  const rest = onto ? parts : parts.slice(1);
  const n = rest.length;
  if (n === 0) {
    if (acc !== first) acc.set(first.subarray(lo, hi), lo);
    return;
  }
  // Blocks of elements, so every part's block stays in cache while its sums run.
  const BLOCK = 2048;
  for (let b = lo; b < hi; b += BLOCK) {
    const e = Math.min(hi, b + BLOCK);
    const x = rest[0]!;
    for (let i = b; i < e; i++) acc[i] = first[i]! + x[i]!;
    for (let p = 1; p < n; p++) {
      const y = rest[p]!;
      for (let i = b; i < e; i++) acc[i] = acc[i]! + y[i]!;
    }
  }
}

/** The mean's division, `acc[lo, hi)` by the world's size. */
function divide(acc: TypedArray, size: number, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) acc[i] = acc[i]! / size;
}

const fmtBytes = (n: number): string =>
  n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;

function unpack(kind: CollectiveKind, x: unknown): { data: TypedArray; shape: readonly number[]; tensor: Tensor | null } {
  if (x instanceof Tensor) return { data: x.data, shape: x.shape, tensor: x };
  if (ArrayBuffer.isView(x) && !(x instanceof DataView)) {
    dtypeOf(x);
    return { data: x as TypedArray, shape: [(x as TypedArray).length], tensor: null };
  }
  throw new TypeError(
    `${kind} expects a typed array or a Tensor, got ${x === null ? 'null' : typeof x === 'object' ? (x.constructor?.name ?? 'object') : typeof x}`,
  );
}

function checkOptions(kind: CollectiveKind, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new ConfigError(`unknown option '${key}' for ${kind}; known options: ${known.join(', ') || 'none'}`);
  }
}

/** One rank's end of the world's collectives. */
export class Communicator {
  readonly rank: number;
  readonly size: number;
  readonly device: DeviceName;
  timeoutMs: number;
  waitMode: WaitMode;
  readonly backend: BackendBehaviour;
  readonly watchdogMs: number;
  /** The ranks of the world this thread hosts (logical ranks), this one among them. */
  readonly local: LocalGroup;
  private readonly arena: Arena;
  private seq = 0;
  private current: CollectiveKind | null = null;
  private readonly counters = { collectives: 0, bytesWritten: 0, bytesRead: 0, waitMs: 0 };

  constructor(buffer: SharedArrayBuffer, options: CommunicatorOptions) {
    this.arena = new Arena(buffer, options.size);
    this.rank = options.rank;
    this.size = options.size;
    this.timeoutMs = options.timeoutMs;
    this.waitMode = options.waitMode;
    this.device = options.device;
    this.backend = options.backend ?? 'sandbox';
    this.watchdogMs = options.watchdogMs ?? 2000;
    this.local = options.local ?? new LocalGroup([options.rank]);
    if (!this.local.ranks.includes(this.rank))
      throw new Error(`rank ${this.rank} is not in its local group (${this.local.ranks.join(', ')})`);
  }

  /** Counters since the rank started. */
  metrics(): RankMetrics {
    return { rank: this.rank, ...this.counters };
  }

  // ---- public collectives -------------------------------------------------------------

  /** Waits until every rank has called barrier. */
  async barrier(): Promise<void> {
    await this.collective('barrier', {}, async () => undefined);
  }

  /**
   * Sends `root`'s payload to every rank; returns it (same dtype and shape). Non-root ranks
   * may pass `undefined`, or a payload whose dtype and shape must match the root's.
   */
  async broadcast<T extends Payload>(x: T | undefined, root = 0): Promise<T> {
    this.checkRank('broadcast', 'root', root);
    const mine = x === undefined ? null : unpack('broadcast', x);
    const posted: Posted = {
      arg: root,
      ...(mine && { dtype: dtypeOf(mine.data), bytes: mine.data.byteLength, shape: mine.shape, tensor: !!mine.tensor }),
    };
    return this.collective('broadcast', posted, async (seq) => {
      this.checkArgs(seq, 'broadcast', 'root', (a) => String(a));
      const a = this.arena;
      const c = a.ctrl;
      const dtype = dtypeFromCode(Atomics.load(c, a.header(seq, root, H_DTYPE)));
      const bytes = Atomics.load(c, a.header(seq, root, H_BYTES));
      const shape = this.postedShape(seq, root);
      const labels = this.ranks().map((r) => (Atomics.load(c, a.header(seq, r, H_DTYPE)) === 0 ? '' : this.describePost(seq, r)));
      const bad = labels.map((l, r) => (l !== '' && l !== labels[root] ? r : -1)).filter((r) => r >= 0);
      if (bad.length)
        throw new ShapeMismatchError(
          `broadcast #${seq}: root rank ${root} sends ${labels[root]} but ${bad.map((r) => `rank ${r} expects ${labels[r]}`).join(', ')}; ` +
            "pass undefined or a payload of the root's dtype and shape",
        );
      this.reserve(seq, 'broadcast', bytes, `${fmtBytes(bytes)} from rank ${root}`);
      if (this.rank === root) this.write(mine!.data, 0);
      await this.arrive(seq);
      const out = this.rank === root ? mine!.data.slice() : this.read(dtype, 0, bytes);
      const wasTensor = Atomics.load(c, a.header(seq, root, H_TENSOR)) === 1;
      return (wasTensor ? new Tensor(out, shape, this.device) : out) as T;
    });
  }

  /**
   * Gathers equal-shape payloads from every rank in rank order. A typed array of n elements
   * gives W·n elements; a Tensor of shape [s0, …] gives [W·s0, …] (torch's gather/cat on dim 0).
   * `out`: an array of W·n elements of the same dtype to write into instead of allocating one
   * (torch's all_gather_into_tensor).
   */
  async allGather<T extends Payload>(x: T, options: { out?: TypedArray } = {}): Promise<T> {
    checkOptions('allGather', options, ['out']);
    const { data, shape, tensor } = unpack('allGather', x);
    const dtype = dtypeOf(data);
    const { out } = options;
    if (out !== undefined && (!ArrayBuffer.isView(out) || dtypeOf(out) !== dtype || out.length !== this.size * data.length)) {
      const got = ArrayBuffer.isView(out) ? `${dtypeOf(out)} of ${out.length}` : typeof out;
      throw new ConfigError(
        `allGather: out must be a ${dtype} array of ${this.size} × ${data.length} = ${this.size * data.length} elements, got ${got}`,
      );
    }
    return this.collective('allGather', { dtype, bytes: data.byteLength, shape }, async (seq) => {
      this.checkSameShape(
        seq,
        'allGather',
        'Use allGatherVariable for uneven sizes, or give every rank the same batch size (seed-002 fix options 1–3).',
      );
      const bytes = data.byteLength;
      this.reserve(seq, 'allGather', this.size * bytes, `${this.size} ranks × ${fmtBytes(bytes)}`);
      this.write(data, this.rank * bytes);
      await this.arrive(seq);
      const gathered = this.read(dtype, 0, this.size * bytes, out);
      if (!tensor) return gathered as T;
      const gatheredShape = shape.length === 0 ? [this.size] : [this.size * shape[0]!, ...shape.slice(1)];
      return new Tensor(gathered, gatheredShape, this.device) as T;
    });
  }

  /** Gathers 1-D payloads of different lengths in rank order; `lengths[r]` is rank r's element count. */
  async allGatherVariable<T extends TypedArray>(x: T): Promise<{ data: T; lengths: number[] }> {
    const { data } = unpack('allGatherVariable', x);
    const parts = await this.variable('allGatherVariable', data, -1);
    return { data: parts!.data as T, lengths: parts!.lengths };
  }

  /** Gathers one structured value per rank (plain data, typed arrays, Tensors) in rank order; tensors keep their origin device. */
  async allGatherObject<T>(value: T): Promise<T[]> {
    const parts = await this.variable('allGatherObject', encodeObject(value), -1);
    return this.decodeParts(parts!) as T[];
  }

  /** Like allGatherObject, but only rank `dst` receives the list; the others get undefined. */
  async gatherObject<T>(value: T, dst = 0): Promise<T[] | undefined> {
    this.checkRank('gatherObject', 'dst', dst);
    const parts = await this.variable('gatherObject', encodeObject(value), dst);
    return parts ? (this.decodeParts(parts) as T[]) : undefined;
  }

  /**
   * Element-wise reduction of equal-shape payloads over all ranks (sum, mean or max). The
   * order is always rank 0, 1, …, W−1 for every element, so results are bit-identical run to
   * run; float32 rounds after every addition, as torch's float32 reductions do. `out`: an array of
   * the payload's dtype and length to write the result into instead of allocating one (it may be
   * the payload itself: torch's all_reduce works in place). `shared`: instead of an array of its own,
   * every rank of this thread gets the same result array, which it must only read and which the next
   * shared allReduce of that dtype and length overwrites (no copy per rank; not with `out`).
   */
  async allReduce<T extends Payload>(x: T, options: { op?: ReduceOp; out?: TypedArray; shared?: boolean } = {}): Promise<T> {
    checkOptions('allReduce', options, ['op', 'out', 'shared']);
    const shared = options.shared === true;
    if (shared && options.out !== undefined)
      throw new ConfigError("allReduce: 'shared' gives every rank of a thread one result array; it takes no 'out'");
    const op = options.op ?? 'sum';
    if (!REDUCE_OPS.includes(op)) throw new ConfigError(`unknown allReduce op '${String(op)}'; use one of ${REDUCE_OPS.join(', ')}`);
    const { data, shape, tensor } = unpack('allReduce', x);
    const dtype = dtypeOf(data);
    const { out: into } = options;
    if (into !== undefined && (!ArrayBuffer.isView(into) || dtypeOf(into) !== dtype || into.length !== data.length)) {
      const got = ArrayBuffer.isView(into) ? `${dtypeOf(into)} of ${into.length}` : typeof into;
      throw new ConfigError(`allReduce: out must be a ${dtype} array of ${data.length} elements, got ${got}`);
    }
    return this.collective('allReduce', { dtype, bytes: data.byteLength, shape, arg: REDUCE_OPS.indexOf(op) }, async (seq) => {
      this.checkArgs(seq, 'allReduce', 'op', (a) => REDUCE_OPS[a] ?? String(a));
      this.checkSameShape(seq, 'allReduce', 'Every rank must reduce a payload of the same dtype and shape.');
      if (op === 'mean' && !dtype.startsWith('float'))
        throw new ConfigError(`allReduce #${seq}: op 'mean' needs a float dtype, got ${dtype}; use 'sum' and divide, or send float32`);
      const n = data.length;
      const bytes = data.byteLength;
      this.reserve(seq, 'allReduce', (this.size + 1) * bytes, `${this.size} ranks × ${fmtBytes(bytes)} plus the result`);
      if (this.size === 1) {
        // One rank: its payload is the reduction (x / 1 is x), as NCCL returns at once on a world of one; no trip through the arena.
        await this.arrive(seq);
        const out = shared ? data : (into ?? allocate(dtype, n));
        if (out !== data) out.set(data as never);
        return (tensor ? new Tensor(out, shape, this.device) : out) as T;
      }
      const result = await this.reduce(seq, op, dtype, data, shared);
      let out = result;
      if (!shared) {
        // Each rank's own copy (the block's result array is shared, and reused by its next allReduce).
        out = into ?? allocate(dtype, n);
        out.set(result as never);
      }
      return (tensor ? new Tensor(out, shape, this.device) : out) as T;
    });
  }

  /**
   * The all-reduce proper, every element reduced in rank order 0, 1, …, W−1 whatever thread a rank
   * is on. The ranks of this thread (its block, local-group.ts) meet in plain memory, and the last of
   * them to arrive does the block's work for all, arriving at the barriers after the first for the whole
   * block (the others await its result: the barriers that the ranks of a thread need not pay). A block that
   * holds the whole world reduces its payloads in place, with no trip through the arena. Otherwise the
   * block of rank 0 reduces its own payloads, the order's first ranks, straight into rank 0's arena slot
   * (a prefix, posted in rank 0's header); every other block copies its ranks' payloads into their slots,
   * the only data that crosses threads. Then, after a barrier: a small payload is reduced whole by each
   * block; a large one is reduce-scattered, each block its ranks' chunks, and read back once per block
   * after a second barrier. Returns the block's result array (the thread's, reused by its next call).
   */
  private async reduce(seq: number, op: ReduceOp, dtype: DType, data: TypedArray, shared: boolean): Promise<TypedArray> {
    const g = this.local;
    const n = data.length;
    const bytes = data.byteLength;
    const whole = g.ranks.length === this.size;
    const small = n * (this.size - 1) <= LOCAL_REDUCE_ADDS;
    const meeting = g.meet<TypedArray, TypedArray>(seq, this.rank, data);
    if (!meeting.values) {
      // Not the last of the block: the last arrives at the barriers for the whole block; take its result.
      try {
        return await meeting.result;
      } catch (err) {
        // Released by the world's abort: say so for this rank, as its own barrier would have.
        this.throwIfAborted(`was waiting in ${this.current} #${seq}`);
        throw err;
      }
    }
    const payloads = meeting.values;
    try {
      const acc = g.buffer(`${shared ? 'shared' : 'scratch'}:${dtype}:${n}`, () => allocate(dtype, n));
      if (whole) {
        combine(acc, payloads, op, 0, n);
        if (op === 'mean') divide(acc, this.size, 0, n);
        this.counters.bytesRead += payloads.length * bytes;
        meeting.resolve(acc);
        return acc;
      }
      const a = this.arena;
      const buf = a.buffer;
      const base = a.dataOffset;
      const slot = (r: number) => viewOf(dtype, buf, base + r * bytes, n);
      if (g.first === 0) {
        combine(slot(0), payloads, op, 0, n);
        Atomics.store(a.ctrl, a.header(seq, 0, H_PREFIX), g.ranks.length);
        this.counters.bytesWritten += bytes;
      } else for (const r of g.ranks) this.write(payloads[g.indexOf(r)]!, r * bytes);
      await this.arrive(seq, g.ranks.length);
      // Slot 0 holds the reduction of ranks [0, prefix); the slots after it, one rank each.
      const prefix = Atomics.load(a.ctrl, a.header(seq, 0, H_PREFIX));
      const rest = Array.from({ length: this.size - prefix }, (_, i) => slot(prefix + i));
      if (small) {
        // Every block reduces every element itself, in the same order (the same bits), with no second barrier:
        // the slots stay as they are until every block has read them (the next collective writes after its first barrier).
        acc.set(slot(0) as never);
        combine(acc, rest, op, 0, n, true);
        if (op === 'mean') divide(acc, this.size, 0, n);
        this.counters.bytesRead += (1 + rest.length) * bytes;
        meeting.resolve(acc);
        return acc;
      }
      // Reduce-scatter: this block reduces its ranks' chunks of elements into the result region.
      const result = viewOf(dtype, buf, base + this.size * bytes, n);
      const chunk = Math.ceil(n / this.size);
      const lo = Math.min(n, g.first * chunk);
      const hi = Math.min(n, (g.last + 1) * chunk);
      if (hi > lo) {
        result.set(slot(0).subarray(lo, hi) as never, lo);
        combine(result, rest, op, lo, hi, true);
        if (op === 'mean') divide(result, this.size, lo, hi);
      }
      await this.arrive(seq, g.ranks.length);
      this.read(dtype, this.size * bytes, bytes, acc);
      meeting.resolve(acc);
      return acc;
    } catch (err) {
      meeting.reject(err);
      throw err;
    }
  }

  /** Marks the start and the end of this rank's step, so a timeout tells a slow rank from one that skipped a collective. */
  stepStarted(): void {
    Atomics.store(this.arena.ctrl, this.arena.state(this.rank, ST_PHASE), Phase.Started);
  }

  stepFinished(): void {
    Atomics.store(this.arena.ctrl, this.arena.state(this.rank, ST_PHASE), Phase.Finished);
  }

  /**
   * Marks this rank failed and releases every waiting rank with an error naming it. Called by
   * the rank's worker when its step throws; a no-op if the world already aborted.
   */
  fail(error: unknown): void {
    const c = this.arena.ctrl;
    Atomics.store(c, this.arena.state(this.rank, ST_PHASE), Phase.Failed);
    if (error instanceof RankFailedError || error instanceof CollectiveTimeoutError || error instanceof WatchdogTimeoutError) return;
    const e = error as { name?: string; message?: string };
    const where = this.current ? ` in ${this.current} #${this.seq}` : '';
    this.abort(AbortReason.RankFailed, `rank ${this.rank} failed${where}: ${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`);
  }

  // ---- protocol -----------------------------------------------------------------------

  private ranks(): number[] {
    return Array.from({ length: this.size }, (_, r) => r);
  }

  private checkRank(kind: CollectiveKind, what: string, r: number): void {
    if (!Number.isInteger(r) || r < 0 || r >= this.size)
      throw new ConfigError(`${kind}: ${what} must be a rank from 0 to ${this.size - 1}, got ${r}`);
  }

  /** Posts the header, meets the other ranks, checks they all called the same collective, runs `body`. */
  private async collective<R>(kind: CollectiveKind, posted: Posted, body: (seq: number) => Promise<R>): Promise<R> {
    this.throwIfAborted(`was about to enter ${kind} #${this.seq + 1}`);
    const a = this.arena;
    const c = a.ctrl;
    const seq = ++this.seq;
    const shape = posted.shape ?? [];
    if (shape.length > MAX_DIMS)
      throw new ConfigError(`${kind}: payloads may have at most ${MAX_DIMS} dimensions, got [${shape.join(', ')}]`);
    if ((posted.bytes ?? 0) > 0x7fffffff)
      throw new ConfigError(`${kind}: one rank's payload may be at most 2 GiB, got ${fmtBytes(posted.bytes!)}`);
    Atomics.store(c, a.header(seq, this.rank, H_KIND), kindCode(kind));
    Atomics.store(c, a.header(seq, this.rank, H_SEQ), seq);
    Atomics.store(c, a.header(seq, this.rank, H_DTYPE), posted.dtype ? dtypeCode(posted.dtype) : 0);
    Atomics.store(c, a.header(seq, this.rank, H_BYTES), posted.bytes ?? 0);
    Atomics.store(c, a.header(seq, this.rank, H_ARG), posted.arg ?? 0);
    Atomics.store(c, a.header(seq, this.rank, H_TENSOR), posted.tensor ? 1 : 0);
    Atomics.store(c, a.header(seq, this.rank, H_NDIMS), shape.length);
    shape.forEach((d, i) => Atomics.store(c, a.header(seq, this.rank, H_DIMS + i), d));
    Atomics.store(c, a.state(this.rank, ST_KIND), kindCode(kind));
    Atomics.store(c, a.state(this.rank, ST_SEQ), seq);
    a.entered[this.rank] = Date.now();
    Atomics.store(c, a.state(this.rank, ST_PHASE), Phase.In);
    this.current = kind;
    try {
      await this.arrive(seq);
      let result: R;
      try {
        this.checkSameCollective(seq);
        result = await body(seq);
      } catch (err) {
        // The checks run before any payload is written: a disagreement ends as the chosen backend shows it.
        if (err instanceof ShapeMismatchError || err instanceof CollectiveMismatchError) throw await this.asBackend(seq, err);
        throw err;
      }
      this.counters.collectives++;
      return result;
    } finally {
      this.current = null;
      if (Atomics.load(c, a.state(this.rank, ST_PHASE)) === Phase.In) Atomics.store(c, a.state(this.rank, ST_PHASE), Phase.Done);
    }
  }

  /** Central barrier on the generation word, arriving for `count` ranks (this one's block, in allReduce); raises a diagnosis on timeout or abort. */
  private async arrive(seq: number, count = 1): Promise<void> {
    const c = this.arena.ctrl;
    const gen = Atomics.load(c, GEN);
    if (Atomics.add(c, ARRIVED, count) === this.size - count) {
      Atomics.store(c, ARRIVED, 0);
      Atomics.add(c, GEN, 1);
      Atomics.notify(c, GEN);
      wakeLocal(c, GEN);
      return;
    }
    const t0 = performance.now();
    let deadline = Date.now() + this.timeoutMs;
    try {
      for (;;) {
        if (Atomics.load(c, GEN) !== gen) return;
        this.throwIfAborted(`was waiting in ${this.current} #${seq}`);
        const left = deadline - Date.now();
        if (left <= 0) {
          // The clock runs from the moment every rank has begun its step: on a busy machine a
          // world of 256 workers starts over seconds, and a rank not yet started skipped nothing.
          if (this.ranks().some((r) => Atomics.load(c, this.arena.state(r, ST_PHASE)) === Phase.Never)) {
            deadline = Date.now() + this.timeoutMs;
            continue;
          }
          this.timedOut(seq, gen);
        }
        await this.sleep(c, GEN, gen, left > 0 ? left : 1);
      }
    } finally {
      this.counters.waitMs += performance.now() - t0;
    }
  }

  /** Sleeps until `c[index]` may differ from `expected`, a notify, or `ms` pass. */
  private async sleep(c: Int32Array, index: number, expected: number, ms: number): Promise<void> {
    if (this.waitMode === 'block') {
      Atomics.wait(c, index, expected, ms);
      return;
    }
    const shared = waitShared(c, index, expected, ms);
    if (shared) await shared;
  }

  /** Claims the abort, writes its message and wakes every waiting rank. False if another rank aborted first. */
  private abort(reason: AbortReason, message: string): boolean {
    const c = this.arena.ctrl;
    if (Atomics.compareExchange(c, ABORT, 0, ABORT_LOCKED) !== 0) return false;
    this.arena.writeMessage(message);
    Atomics.store(c, ABORT_RANK, this.rank);
    Atomics.store(c, ABORT, reason);
    Atomics.notify(c, ABORT);
    Atomics.notify(c, GEN);
    wakeLocal(c, ABORT);
    wakeLocal(c, GEN);
    return true;
  }

  /** Throws the world's fault if it has aborted; `doing` says what this rank was doing. */
  private throwIfAborted(doing: string): void {
    const c = this.arena.ctrl;
    let reason = Atomics.load(c, ABORT);
    if (reason === 0) return;
    // The aborting rank, on another thread (abort() never yields), is writing its message: wait for
    // it, by time, not by a count of loads. A blocking rank sleeps on the word (the writer notifies);
    // an async rank may not block its thread for long, and the write takes microseconds, so it spins.
    const until = performance.now() + 1000;
    while (reason === ABORT_LOCKED && performance.now() < until) {
      if (this.waitMode === 'block') Atomics.wait(c, ABORT, ABORT_LOCKED, 10);
      reason = Atomics.load(c, ABORT);
    }
    const message = this.arena.readMessage();
    const suffix = `\n  (rank ${this.rank} ${doing} and was released; the world is shut down)`;
    if (reason === AbortReason.Timeout) throw new CollectiveTimeoutError(message + suffix);
    if (reason === AbortReason.Watchdog) throw new WatchdogTimeoutError(message + suffix);
    throw new RankFailedError(message + suffix);
  }

  /**
   * No progress within the timeout: diagnose every rank's state, abort the world, throw. Ranks
   * not in this collective are told apart: one that finished its step or waits in another
   * collective skipped this one (a hang); one still computing between collectives is slow (or
   * looping). Every rank is named once, from one snapshot of the states.
   */
  private timedOut(seq: number, gen: number): void {
    const a = this.arena;
    const c = a.ctrl;
    const kind = this.current!;
    // One snapshot of every rank's state, read before the barrier's generation is checked: a rank seen in a
    // later collective has passed this barrier, which then has completed and the check returns. (The states
    // were once read after the check, so a rank that left this completed barrier in between was blamed for
    // skipping it, on a healthy step under a 1 ms timeout.)
    const phases = this.ranks().map((r) => Atomics.load(c, a.state(r, ST_PHASE)) as Phase);
    const seqs = this.ranks().map((r) => Atomics.load(c, a.state(r, ST_SEQ)));
    const kinds = this.ranks().map((r) => kindName(Atomics.load(c, a.state(r, ST_KIND))));
    // The barrier may have completed while the states were read: then there is nothing to diagnose.
    if (Atomics.load(c, GEN) !== gen) return;
    const here = (r: number) => phases[r] === Phase.In && seqs[r] === seq && kinds[r] === kind;
    const missing = this.ranks().filter((r) => !here(r) && phases[r] !== Phase.Failed);
    // In an earlier collective is behind (still leaving it), not skipping: only a rank that has
    // returned, or waits in a collective at or past this one, skipped it.
    const skipped = missing.filter((r) => phases[r] === Phase.Finished || (phases[r] === Phase.In && seqs[r]! >= seq));
    const busy = missing.filter((r) => !skipped.includes(r));
    const lines = describeRanks(a);
    const hints: string[] = [];
    if (skipped.length) {
      const how = skipped.every((r) => phases[r] === Phase.Finished) ? 'finished the step without it' : 'went on to another collective';
      hints.push(
        `${rankList(skipped)} skipped ${kind} #${seq} (${how}). Every rank must call the same collectives in the same order; ` +
          'a rank that skips one (e.g. because it already has enough samples — the seed-004 V2 deadlock) leaves the others waiting forever.',
      );
    }
    if (busy.length)
      hints.push(
        `${rankList(busy)} ${busy.length === 1 ? 'has' : 'have'} not reached ${kind} #${seq} after ${this.timeoutMs} ms ` +
          '(still computing, or still leaving an earlier collective): slow, or stuck in a loop; if only slow, raise timeoutMs.',
      );
    if (!missing.length)
      hints.push(
        `every rank is in ${kind} #${seq} but the barrier did not complete; raise timeoutMs (now ${this.timeoutMs} ms) if ranks are only slow.`,
      );
    const verdict = skipped.length ? 'a hang, diagnosed' : 'ranks too slow for the timeout';
    const message =
      `collective timeout: no progress for ${this.timeoutMs} ms in ${kind} #${seq} (${verdict})\n` +
      `  ${lines.join('\n  ')}\n  → ${hints.join(' ')}`;
    if (this.abort(AbortReason.Timeout, message)) throw new CollectiveTimeoutError(message);
    this.throwIfAborted(`was waiting in ${kind} #${seq}`);
    throw new CollectiveTimeoutError(message);
  }

  /** What every rank posted for collective `seq` (its header). */
  private posted(seq: number): PostedCollective[] {
    const a = this.arena;
    return this.ranks().map((r) => {
      const code = Atomics.load(a.ctrl, a.header(seq, r, H_DTYPE));
      return {
        rank: r,
        seq: Atomics.load(a.ctrl, a.header(seq, r, H_SEQ)),
        kind: kindName(Atomics.load(a.ctrl, a.header(seq, r, H_KIND))),
        dtype: code ? dtypeFromCode(code) : null,
        shape: this.postedShape(seq, r),
        world: this.size,
      };
    });
  }

  /**
   * The ranks disagree in collective `seq` (`diagnosis` says how): the error this rank raises under the
   * world's backend behaviour. nccl: nothing is raised until the watchdog's timeout (the world hangs),
   * then the rank whose watchdog fires first aborts the world with the report.
   */
  private async asBackend(seq: number, diagnosis: CollectiveError): Promise<Error> {
    if (this.backend === 'sandbox') return diagnosis;
    const posted = this.posted(seq);
    const doing = `was hanging in ${this.current} #${seq}`;
    if (this.backend === 'detail') return new CollectiveError('RuntimeError', detailMismatchMessage(posted, this.rank, diagnosis.message));
    if (this.backend === 'gloo') {
      const g = glooMismatch(posted, this.rank, diagnosis.message, this.timeoutMs);
      if (g.kind === 'abort') this.abort(AbortReason.RankFailed, `rank ${this.rank}'s process aborted (${g.name})`);
      // The others raise once the aborted peer is gone, or at the process group's timeout.
      else if (g.kind === 'peer-gone') await this.hangFor(this.timeoutMs, () => true);
      else await this.hangFor(this.timeoutMs, () => false);
      return new CollectiveError(g.name, g.message);
    }
    await this.hangFor(this.watchdogMs, () => false);
    // "ran for" is the timeout itself, so the output is the same bytes run to run (a real watchdog reports a little more).
    const message = ncclHangReport(posted, this.watchdogMs, this.watchdogMs, diagnosis.message);
    if (this.abort(AbortReason.Watchdog, message)) return new WatchdogTimeoutError(message);
    this.throwIfAborted(doing);
    return new WatchdogTimeoutError(message);
  }

  /**
   * Holds this rank in its collective for `ms` from when it entered, as a real backend hangs; returns early when
   * the world aborts and `returnOnAbort` says so, else rethrows the world's abort.
   */
  private async hangFor(ms: number, returnOnAbort: () => boolean): Promise<void> {
    const c = this.arena.ctrl;
    const deadline = this.arena.entered[this.rank]! + ms;
    for (;;) {
      if (Atomics.load(c, ABORT) !== 0) {
        if (returnOnAbort()) return;
        this.throwIfAborted(`was hanging in ${this.current}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) return;
      await this.sleep(c, ABORT, 0, left);
    }
  }

  /** Whether every rank posted the same value in header words [from, to) of collective `seq` (the checks' fast path). */
  private sameWords(seq: number, from: number, to: number): boolean {
    const a = this.arena;
    const c = a.ctrl;
    for (let r = 1; r < this.size; r++)
      for (let w = from; w < to; w++) if (Atomics.load(c, a.header(seq, r, w)) !== Atomics.load(c, a.header(seq, 0, w))) return false;
    return true;
  }

  /** Every rank posted the same collective kind at the same sequence number, or all raise. */
  private checkSameCollective(seq: number): void {
    if (this.sameWords(seq, H_KIND, H_SEQ + 1)) return;
    const a = this.arena;
    const labels = this.ranks().map(
      (r) => `${kindName(Atomics.load(a.ctrl, a.header(seq, r, H_KIND)))} #${Atomics.load(a.ctrl, a.header(seq, r, H_SEQ))}`,
    );
    const groups = groupByLabel(labels);
    if (groups.length > 1) {
      throw new CollectiveMismatchError(
        `collective mismatch: ${groups.map((g) => `${rankList(g.ranks)} called ${g.label}`).join('; ')}. ` +
          'Every rank must call the same collectives in the same order ' +
          '(a rank that skips or adds one — the seed-004 V2 deadlock — would hang a real cluster).',
      );
    }
  }

  /** Every rank posted the same argument (root, dst, op), or all raise. */
  private checkArgs(seq: number, kind: CollectiveKind, what: string, show: (arg: number) => string): void {
    if (this.sameWords(seq, H_ARG, H_ARG + 1)) return;
    const a = this.arena;
    const groups = groupByLabel(this.ranks().map((r) => show(Atomics.load(a.ctrl, a.header(seq, r, H_ARG)))));
    if (groups.length > 1) {
      throw new CollectiveMismatchError(
        `${kind} #${seq}: ranks disagree on ${what}: ${groups.map((g) => `${rankList(g.ranks)} ${what} ${g.label}`).join('; ')}; ` +
          `every rank must pass the same ${what}`,
      );
    }
  }

  private postedShape(seq: number, r: number): number[] {
    const a = this.arena;
    const ndims = Atomics.load(a.ctrl, a.header(seq, r, H_NDIMS));
    return Array.from({ length: ndims }, (_, i) => Atomics.load(a.ctrl, a.header(seq, r, H_DIMS + i)));
  }

  /** `float32 [16, 1]`: what rank r posted. */
  private describePost(seq: number, r: number): string {
    const code = Atomics.load(this.arena.ctrl, this.arena.header(seq, r, H_DTYPE));
    return `${code ? dtypeFromCode(code) : 'nothing'} [${this.postedShape(seq, r).join(', ')}]`;
  }

  /** Every rank posted the same dtype and shape, or all raise a ShapeMismatchError naming each rank's. */
  private checkSameShape(seq: number, kind: CollectiveKind, fix: string): void {
    const ndims = Atomics.load(this.arena.ctrl, this.arena.header(seq, 0, H_NDIMS));
    if (this.sameWords(seq, H_DTYPE, H_DTYPE + 1) && this.sameWords(seq, H_NDIMS, H_DIMS + ndims)) return;
    const labels = this.ranks().map((r) => this.describePost(seq, r));
    const groups = groupByLabel(labels);
    if (groups.length > 1) {
      const sameDtype = new Set(labels.map((l) => l.split(' ')[0])).size === 1;
      const show = (l: string) => (sameDtype ? l.slice(l.indexOf(' ') + 1) : l);
      throw new ShapeMismatchError(
        `${kind} #${seq}: ${sameDtype ? 'shape' : 'dtype/shape'} mismatch: ${groups.map((g) => `${rankList(g.ranks)} sent ${show(g.label)}`).join('; ')}. ` +
          `Every rank must send the same ${sameDtype ? 'shape' : 'dtype and shape'}. ${fix}`,
      );
    }
  }

  /** Makes room for `bytes` of payload or raises (on every rank alike) how to size the arena. */
  private reserve(seq: number, kind: CollectiveKind, bytes: number, detail: string): void {
    if (this.arena.ensure(bytes)) return;
    throw new ConfigError(
      `${kind} #${seq} needs ${fmtBytes(bytes)} of arena (${detail}) but the arena is capped at ${fmtBytes(this.arena.maxDataBytes)}; ` +
        `start the world with maxArenaBytes of at least ${bytes}`,
    );
  }

  private write(data: TypedArray, at: number): void {
    new Uint8Array(this.arena.buffer, this.arena.dataOffset + at, data.byteLength).set(
      new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    );
    this.counters.bytesWritten += data.byteLength;
  }

  /** Copies `bytes` at data offset `at` out of the arena into `into` or a new array of `dtype`. */
  private read(dtype: DType, at: number, bytes: number, into?: TypedArray): TypedArray {
    const out = into ?? allocate(dtype, bytes / ctorOf(dtype).BYTES_PER_ELEMENT);
    new Uint8Array(out.buffer, out.byteOffset, bytes).set(new Uint8Array(this.arena.buffer, this.arena.dataOffset + at, bytes));
    this.counters.bytesRead += bytes;
    return out;
  }

  /** Gathers 1-D payloads of any length; only `dst` (or every rank when dst < 0) reads them. */
  private async variable(
    kind: CollectiveKind,
    data: TypedArray,
    dst: number,
  ): Promise<{ data: TypedArray; lengths: number[] } | undefined> {
    const dtype = dtypeOf(data);
    return this.collective(kind, { dtype, bytes: data.byteLength, shape: [data.length], arg: dst + 1 }, async (seq) => {
      if (dst >= 0) this.checkArgs(seq, kind, 'dst', (a) => String(a - 1));
      const a = this.arena;
      const dtypes = groupByLabel(this.ranks().map((r) => dtypeFromCode(Atomics.load(a.ctrl, a.header(seq, r, H_DTYPE)))));
      if (dtypes.length > 1)
        throw new ShapeMismatchError(
          `${kind} #${seq}: dtype mismatch: ${dtypes.map((g) => `${rankList(g.ranks)} sent ${g.label}`).join('; ')}; every rank must send one dtype`,
        );
      const byteLengths = this.ranks().map((r) => Atomics.load(a.ctrl, a.header(seq, r, H_BYTES)));
      const offsets: number[] = [];
      let total = 0;
      for (const b of byteLengths) {
        offsets.push(total);
        total += b;
      }
      this.reserve(seq, kind, total, `${this.size} ranks, ${fmtBytes(total)} in all`);
      this.write(data, offsets[this.rank]!);
      await this.arrive(seq);
      if (dst >= 0 && this.rank !== dst) return undefined;
      const bpe = data.BYTES_PER_ELEMENT;
      return { data: this.read(dtype, 0, total), lengths: byteLengths.map((b) => b / bpe) };
    });
  }

  private decodeParts(parts: { data: TypedArray; lengths: number[] }): unknown[] {
    const bytes = parts.data as Uint8Array;
    let at = 0;
    return parts.lengths.map((n) => {
      const value = decodeObject(bytes.subarray(at, at + n));
      at += n;
      return value;
    });
  }
}
