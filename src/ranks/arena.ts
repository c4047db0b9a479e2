// The one SharedArrayBuffer every rank of a world shares. Control words (Atomics) come first,
// then a bulk data region that collectives write into and read from; nothing bulky ever
// travels in a message. Layout (Int32 words unless noted):
//
//   [0..16)                  world words: barrier generation, arrivals, abort state
//   state   W × 4            per rank: collective kind, sequence number, phase (for diagnoses)
//   headers 2 × W × 16       per rank, what it posted for its current collective (kind, seq,
//                            dtype, byte length, argument, shape); two banks by seq parity so
//                            a fast rank posting collective n+1 never overwrites what a slow
//                            rank still checks for collective n
//   entered W × Float64      per rank, Date.now() when it entered its current collective
//   abort message            UTF-8 text of the first fault, read by every rank it releases
//   data (64-byte aligned)   payloads; grows on demand up to maxByteLength

export const MAX_WORLD = 256;
export const MAX_DIMS = 8;

// World words.
export const GEN = 0; // barrier generation, bumped by the last arriver
export const ARRIVED = 1; // ranks arrived at the current barrier
export const ABORT = 2; // 0 = healthy, ABORT_LOCKED while the message is written, else an AbortReason
export const ABORT_RANK = 3; // the rank that failed or detected the fault
export const ABORT_MSG_BYTES = 4; // length of the abort message
const WORLD_WORDS = 16;

export const ABORT_LOCKED = -1;
export enum AbortReason {
  Timeout = 1,
  RankFailed = 2,
  /** The simulated NCCL watchdog fired on a collective whose ranks disagree. */
  Watchdog = 3,
}

// Per-rank state words.
export const ST_KIND = 0;
export const ST_SEQ = 1;
export const ST_PHASE = 2;
const STATE_WORDS = 4;
export enum Phase {
  /** Its step has not begun (the run message has not reached the worker yet). */
  Never = 0,
  In = 1,
  /** Between collectives, its step still running. */
  Done = 2,
  Failed = 3,
  /** Its step began and has not entered a collective yet. */
  Started = 4,
  /** Its step returned. */
  Finished = 5,
}

// Header words.
export const H_KIND = 0;
export const H_SEQ = 1;
export const H_DTYPE = 2;
export const H_BYTES = 3;
export const H_ARG = 4; // root, dst or reduce op, depending on the collective
export const H_NDIMS = 5;
export const H_DIMS = 6; // MAX_DIMS words
export const H_TENSOR = 14; // 1 when the payload was a Tensor (broadcast rebuilds one)
export const H_PREFIX = 15; // allReduce, rank 0's header: the ranks whose reduction rank 0's slot holds (collectives.ts)
const HEADER_WORDS = 16;

const ABORT_MSG_CAPACITY = 4096;

/** Collective kinds as header codes (0 = none). */
export const KINDS = ['barrier', 'broadcast', 'allGather', 'allGatherVariable', 'allGatherObject', 'gatherObject', 'allReduce'] as const;
export type CollectiveKind = (typeof KINDS)[number];
export const kindCode = (k: CollectiveKind): number => KINDS.indexOf(k) + 1;
export const kindName = (code: number): string => KINDS[code - 1] ?? `collective#${code}`;

const align = (n: number, to: number): number => Math.ceil(n / to) * to;

// ES2024 growable SharedArrayBuffer, typed here because the project's lib is ES2023.
type GrowableBuffer = SharedArrayBuffer & { readonly growable?: boolean; readonly maxByteLength?: number; grow?(byteLength: number): void };
// Read off globalThis: a page that is not cross-origin isolated has no SharedArrayBuffer global, and a bare
// reference here would throw while the module loads (breaking every view that imports the ranks, not just the run).
const GrowableSab = globalThis.SharedArrayBuffer as unknown as new (
  byteLength: number,
  options?: { maxByteLength: number },
) => GrowableBuffer;

/** Bytes of control region for a world of `size` ranks (the data region starts there). */
export function controlBytes(size: number): number {
  const words = WORLD_WORDS + size * STATE_WORDS + 2 * size * HEADER_WORDS;
  const entered = align(words * 4, 8) + size * 8;
  return align(entered + ABORT_MSG_CAPACITY, 64);
}

/** Whether this runtime can grow a SharedArrayBuffer in place (ES2024 growable buffers). */
export function canGrow(): boolean {
  try {
    return new GrowableSab(8, { maxByteLength: 16 }).growable === true;
  } catch {
    return false;
  }
}

/** Allocates the arena: `dataBytes` of payload room now, growable up to `maxDataBytes`. */
export function createArenaBuffer(size: number, dataBytes: number, maxDataBytes: number): SharedArrayBuffer {
  if (typeof SharedArrayBuffer !== 'function') {
    throw new Error(
      'SharedArrayBuffer is unavailable: in a browser the page must be cross-origin isolated ' +
        '(serve it with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)',
    );
  }
  const base = controlBytes(size);
  if (canGrow() && maxDataBytes > dataBytes) {
    return new GrowableSab(base + dataBytes, { maxByteLength: base + maxDataBytes });
  }
  return new SharedArrayBuffer(base + Math.max(dataBytes, maxDataBytes));
}

/** Typed views over one arena, as every rank (and the main thread) sees it. */
export class Arena {
  readonly buffer: SharedArrayBuffer;
  readonly size: number;
  readonly ctrl: Int32Array;
  readonly entered: Float64Array;
  readonly dataOffset: number;
  private readonly stateBase: number;
  private readonly headerBase: number;
  /** Where the abort message starts, in bytes. */
  readonly msgOffset: number;

  constructor(buffer: SharedArrayBuffer, size: number) {
    this.buffer = buffer;
    this.size = size;
    this.stateBase = WORLD_WORDS;
    this.headerBase = this.stateBase + size * STATE_WORDS;
    const words = this.headerBase + 2 * size * HEADER_WORDS;
    this.ctrl = new Int32Array(buffer, 0, words);
    const enteredOffset = align(words * 4, 8);
    this.entered = new Float64Array(buffer, enteredOffset, size);
    this.msgOffset = enteredOffset + size * 8;
    this.dataOffset = controlBytes(size);
  }

  /** Word index of `field` in `rank`'s state. */
  state(rank: number, field: number): number {
    return this.stateBase + rank * STATE_WORDS + field;
  }

  /** Word index of `field` in `rank`'s header for a collective with sequence number `seq`. */
  header(seq: number, rank: number, field: number): number {
    return this.headerBase + ((seq & 1) * this.size + rank) * HEADER_WORDS + field;
  }

  /** Bytes of payload room the data region has now. */
  get dataBytes(): number {
    return this.buffer.byteLength - this.dataOffset;
  }

  /** The most payload room the data region can grow to. */
  get maxDataBytes(): number {
    const b = this.buffer as GrowableBuffer;
    return (b.growable ? b.maxByteLength! : b.byteLength) - this.dataOffset;
  }

  /**
   * Makes sure the data region holds `bytes`; grows the buffer if it must (any rank may, the
   * buffer's length is shared). Returns false when `bytes` exceeds the maximum.
   */
  ensure(bytes: number): boolean {
    if (bytes <= this.dataBytes) return true;
    if (bytes > this.maxDataBytes) return false;
    try {
      (this.buffer as GrowableBuffer).grow!(this.dataOffset + bytes);
    } catch {
      // Another rank grew it concurrently past our size: fine, checked below.
    }
    return bytes <= this.dataBytes;
  }

  /** Writes the abort message (truncated to the capacity). */
  writeMessage(text: string): void {
    const bytes = new TextEncoder().encode(text).subarray(0, ABORT_MSG_CAPACITY);
    new Uint8Array(this.buffer, this.msgOffset, ABORT_MSG_CAPACITY).set(bytes);
    Atomics.store(this.ctrl, ABORT_MSG_BYTES, bytes.length);
  }

  /** Reads the abort message. */
  readMessage(): string {
    const n = Atomics.load(this.ctrl, ABORT_MSG_BYTES);
    // TextDecoder refuses views of shared memory: copy out first.
    return new TextDecoder().decode(new Uint8Array(this.buffer, this.msgOffset, n).slice());
  }
}
