// The ranks of one world that one thread hosts (logical ranks, src/ranks/serve.ts): a contiguous
// block of rank numbers taking turns on the thread. Within a collective they meet here, in plain
// memory, instead of through the arena: an all-reduce sums their payloads in place on this thread
// and exchanges with the other threads only what crosses threads (collectives.ts). What they hold
// in common between collectives (a training replica shared while bit-identical, src/train/replicas.ts)
// is kept by whoever uses it, keyed by this object.

/** What the ranks of a thread registered for one collective: payloads by local index, and the result they await. */
interface Meeting {
  values: unknown[];
  arrived: number;
  result: Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class LocalGroup {
  /** The ranks this thread hosts, in rank order (a contiguous block). */
  readonly ranks: readonly number[];
  private readonly meetings = new Map<number, Meeting>();
  /** Result arrays the ranks share (allReduce's `shared`), by dtype and length. */
  private readonly buffers = new Map<string, unknown>();

  /** `ranks`: a contiguous block of rank numbers; anything else is one group per rank (the caller's job). */
  constructor(ranks: readonly number[]) {
    const sorted = [...ranks].sort((a, b) => a - b);
    if (!sorted.length || sorted.some((r, i) => r !== sorted[0]! + i))
      throw new Error(`a local group is a contiguous block of ranks, got ${ranks.join(', ')}`);
    this.ranks = sorted;
  }

  /** The lowest rank of the block. */
  get first(): number {
    return this.ranks[0]!;
  }

  /** The highest rank of the block. */
  get last(): number {
    return this.ranks[this.ranks.length - 1]!;
  }

  /** Rank `rank`'s place in the block. */
  indexOf(rank: number): number {
    return rank - this.first;
  }

  /**
   * Registers rank `rank`'s value for collective `seq`. The rank that completes the meeting (the last
   * of the block to register) gets every value in rank order (`values`), does the block's work and
   * settles `result` with `resolve` or `reject`; the others get null and await `result`.
   */
  meet<V, R>(
    seq: number,
    rank: number,
    value: V,
  ): { values: V[] | null; result: Promise<R>; resolve(v: R): void; reject(e: unknown): void } {
    let m = this.meetings.get(seq);
    if (!m) {
      let resolve!: (v: unknown) => void;
      let reject!: (e: unknown) => void;
      const result = new Promise<unknown>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // A rank that never awaits it (its own error came first) must not leave an unhandled rejection behind.
      result.catch(() => {});
      m = { values: new Array(this.ranks.length), arrived: 0, result, resolve, reject };
      this.meetings.set(seq, m);
    }
    m.values[this.indexOf(rank)] = value;
    m.arrived++;
    const complete = m.arrived === this.ranks.length;
    if (complete) this.meetings.delete(seq);
    return { values: complete ? (m.values as V[]) : null, result: m.result as Promise<R>, resolve: m.resolve, reject: m.reject };
  }

  /**
   * One array of `length` elements made by `make`, kept by the block under `key`: the result every rank of the
   * block reads of a shared allReduce, valid until the block's next shared allReduce of the same key.
   */
  buffer<T>(key: string, make: () => T): T {
    let b = this.buffers.get(key) as T | undefined;
    if (b === undefined) this.buffers.set(key, (b = make()));
    return b;
  }
}
