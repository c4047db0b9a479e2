// Intra-op threads for the fast matmul: a thread that owns a kernel (a rank's thread) may be joined
// by helper threads (kernel-helper.ts) that run on the same shared WebAssembly memory. A large
// product's rows of c are split between the owner and its helpers, each running the same kernel
// over its own rows, so every output has the bits it has on one thread (a tile of c reads only
// its rows of a and its columns of b). PyTorch's CPU ops do the same with their intra-op threads.
// The threads claim rows from a shared counter, so a slower or later thread takes fewer (the cores
// of a VM need not run at one speed). Only a thread that may block (a worker; Node's and Deno's
// main threads) can own a team.
import { SHARED_MAX_PAGES } from './wasm-asm.ts';

/** A kernel export (byte offsets; see kernelModule in simd.ts). */
export type MatmulFn = (...args: number[]) => void;

/** The exports a thread runs rows of a product with: packA packs a's rows, matmul multiplies them. */
export interface RowKernels {
  matmul: MatmulFn;
  packA: MatmulFn;
}

/** One product as the kernel runs it: byte offsets into the module's memory and the sizes. */
export interface MatmulJob {
  relaxed: boolean;
  /** a as given: element (i, k) at a + i·sam + k·sak bytes. */
  a: number;
  sam: number;
  sak: number;
  /** The rows packA packs together (4, or 16 where a's rows are adjacent floats): claims start on a multiple. */
  packRows: number;
  /** a packed (4-row blocks), row i's run at panel + i·pstride bytes. */
  panel: number;
  pstride: number;
  /** b (K rows of n floats), c (rows np floats apart), the bias. */
  b: number;
  c: number;
  bias: number;
  np: number;
  n: number;
  K: number;
  /** Rows of b a k block spans (the block stays in the core's cache while the rows of c pass over it). */
  kBlock: number;
}

/**
 * Rows [r0, r1) of c (r0 a multiple of job.packRows, r1 of 4): their rows of a packed (only these rows'
 * tiles read them, so each thread packs the rows it claimed), then the k blocks in order, c carrying
 * the sums from one block to the next (float32 either way: the bits of one pass). The packing runs to
 * the next multiple of packRows; past the product's last row that is the panel's padding.
 */
export function matmulRows(kernels: RowKernels, job: MatmulJob, r0: number, r1: number): void {
  const packed = Math.ceil((r1 - r0) / job.packRows) * job.packRows;
  kernels.packA(job.a + r0 * job.sam, job.sam, job.sak, packed, job.K, job.panel + r0 * job.pstride);
  for (let k0 = 0; k0 < job.K; k0 += job.kBlock) {
    const kc = Math.min(job.kBlock, job.K - k0);
    kernels.matmul(
      job.panel + r0 * job.pstride + 16 * k0,
      job.pstride,
      job.b + 4 * k0 * job.n,
      job.c + 4 * r0 * job.np,
      r1 - r0,
      job.np,
      kc,
      job.bias,
      job.n,
      k0 > 0 ? 1 : 0,
    );
  }
}

/**
 * The control words: the job (one for all threads); `claim`, the job's tag (its sequence number, 15
 * bits) above the next 4-row block no thread has claimed (16 bits); `done`, the rows computed so far;
 * `seq`, the job the helpers are woken for.
 */
export const WORD = {
  relaxed: 0,
  panel: 1,
  pstride: 2,
  b: 3,
  c: 4,
  bias: 5,
  np: 6,
  n: 7,
  K: 8,
  kBlock: 9,
  mp: 10,
  threads: 11,
  claim: 12,
  done: 13,
  seq: 14,
  failed: 15,
  a: 16,
  sam: 17,
  sak: 18,
  packRows: 19,
  words: 20,
} as const;

const BLOCK_BITS = 16;
/** Most rows a shared product may have (its 4-row blocks must fit the claim word's 16 bits). */
const MAX_SHARED_ROWS = 4 * ((1 << BLOCK_BITS) - 1);
const tagOf = (seq: number) => (seq & 0x7fff) << BLOCK_BITS;

const JOB_FIELDS = ['a', 'sam', 'sak', 'packRows', 'panel', 'pstride', 'b', 'c', 'bias', 'np', 'n', 'K', 'kBlock'] as const;

/**
 * Fewest rows a thread claims at once. Each claim streams all of b through the core (its rows meet
 * every k block), so small claims turn a product whose b outgrows the cache into a memory-bound one:
 * at the seed's stage 1 (b 4 MiB, 256 rows) claims of 16 rows ran a helper at half its speed, claims
 * of 64 at its full speed.
 */
const MIN_CLAIM_ROWS = 64;

/**
 * Runs rows of job `seq` until none is left, claiming them from the claim word in shrinking chunks
 * (guided: an eighth of what is left per thread, at least MIN_CLAIM_ROWS, a multiple of the job's
 * packRows so that no two threads pack the same rows), so a thread that runs slower, or starts
 * later, takes fewer rows; adds each chunk's rows to `done` once computed, and
 * returns how many it computed. A helper that reads the job of a product already finished claims
 * nothing: the owner closes the claim word before it writes the next job's words, so whichever words
 * the helper read, the claim word it reads after them is closed or carries another tag.
 */
export function claimRows(kernels: RowKernels, ctrl: Int32Array, seq: number): number {
  const job = { relaxed: ctrl[WORD.relaxed] === 1 } as MatmulJob;
  for (const f of JOB_FIELDS) job[f] = ctrl[WORD[f]]!;
  const mp = ctrl[WORD.mp]!;
  const threads = ctrl[WORD.threads]!;
  const tag = tagOf(seq);
  let rows = 0;
  for (;;) {
    const claim = Atomics.load(ctrl, WORD.claim);
    if ((claim & ~0xffff) !== tag) return rows;
    const r0 = 4 * (claim & 0xffff);
    if (r0 >= mp) return rows;
    const guided = 4 * Math.ceil((mp - r0) / (8 * threads));
    const chunk = Math.max(MIN_CLAIM_ROWS, job.packRows * Math.ceil(guided / job.packRows));
    const r1 = Math.min(mp, r0 + chunk);
    if (Atomics.compareExchange(ctrl, WORD.claim, claim, tag | (r1 / 4)) !== claim) continue;
    matmulRows(kernels, job, r0, r1);
    rows += r1 - r0;
    Atomics.add(ctrl, WORD.done, r1 - r0);
    Atomics.notify(ctrl, WORD.done);
  }
}

/** What a helper is sent once, over its port: the memory and the control words. */
export interface HelperSetup {
  memory: WebAssembly.Memory;
  control: SharedArrayBuffer;
}

/** A message port of any runtime (Web, Deno, Node's worker_threads). */
export interface PortLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  start?(): void;
}

/**
 * Products of fewer multiply-adds run on the owner alone (about 0.4 ms of work at 20 G/s): a helper
 * blocked in Atomics.wait took 0.06 ms to a few ms to wake (measured on a 2-core VM; the helpers now
 * wait with Atomics.waitAsync, not timed alone), and a late one finds nothing left. At
 * 256 × 8, dModel 32 (products of ~2.4 M) sharing them measured no faster than the owner alone.
 */
export const TEAM_MIN_MADDS = 1 << 23;

/** How long the owner waits for a helper's rows before calling it lost. */
const HELPER_LIMIT_MS = 60_000;

/** The owner's side: the shared memory and the helpers it shares rows with. */
export class KernelTeam {
  readonly memory: WebAssembly.Memory;
  readonly helpers: number;
  private readonly ctrl: Int32Array;
  private seq = 0;
  /** Products run with the helpers, and rows the owner computed of them (tests read these: the helpers did run). */
  shared = 0;
  ownRows = 0;
  sharedRows = 0;

  constructor(ports: readonly PortLike[]) {
    this.memory = new WebAssembly.Memory({ initial: 1, maximum: SHARED_MAX_PAGES, shared: true });
    this.helpers = ports.length;
    const control = new SharedArrayBuffer(WORD.words * 4);
    this.ctrl = new Int32Array(control);
    for (const port of ports) port.postMessage({ memory: this.memory, control } satisfies HelperSetup);
  }

  /** Whether a product of mp rows and m·n·K multiply-adds is shared with the helpers. */
  takes(mp: number, madds: number): boolean {
    return mp >= 2 * MIN_CLAIM_ROWS && mp <= MAX_SHARED_ROWS && madds >= TEAM_MIN_MADDS;
  }

  /** Rows [0, mp) of the product, shared among the owner (`kernels`: its instance) and the helpers. */
  matmul(kernels: RowKernels, job: MatmulJob, mp: number): void {
    const ctrl = this.ctrl;
    const seq = ++this.seq;
    // the job's words, then the claim word that opens it, then the helpers' wake-up
    ctrl[WORD.relaxed] = job.relaxed ? 1 : 0;
    for (const f of JOB_FIELDS) ctrl[WORD[f]] = job[f];
    ctrl[WORD.mp] = mp;
    ctrl[WORD.threads] = this.helpers + 1;
    Atomics.store(ctrl, WORD.done, 0);
    Atomics.store(ctrl, WORD.claim, tagOf(seq));
    Atomics.store(ctrl, WORD.seq, seq);
    Atomics.notify(ctrl, WORD.seq);
    if (!ownerIdle) this.ownRows += claimRows(kernels, ctrl, seq);
    // the rows the helpers claimed are computed before c is read
    const t0 = performance.now();
    for (let done = Atomics.load(ctrl, WORD.done); done < mp; done = Atomics.load(ctrl, WORD.done)) {
      if (Atomics.load(ctrl, WORD.failed) !== 0) break;
      if (performance.now() - t0 > HELPER_LIMIT_MS) {
        // The team is lost: a helper still at work must not count its rows into a later product.
        Atomics.store(ctrl, WORD.failed, 1);
        Atomics.store(ctrl, WORD.claim, tagOf(seq) | 0xffff);
        throw new Error(`a kernel helper thread did not finish its rows of a product within ${HELPER_LIMIT_MS / 1000} s`);
      }
      Atomics.wait(ctrl, WORD.done, done, 1000);
    }
    // Closed: a helper still on its way to this job finds no row to claim, even one that reads the next
    // job's words, which are written after this (its mp may be larger than this job's last row).
    Atomics.store(ctrl, WORD.claim, tagOf(seq) | 0xffff);
    if (Atomics.load(ctrl, WORD.failed) !== 0) throw new Error('a kernel helper thread failed while running its rows of a product');
    this.shared++;
    this.sharedRows += mp;
  }
}

/**
 * Most helpers a rank thread takes by default: claims are at least 64 rows, so the seed's stage-1
 * product (256 rows) feeds at most 4 threads, and more helpers would mostly wait.
 */
export const DEFAULT_MAX_HELPERS = 3;

/** Whether this runtime can run helpers (they wait with Atomics.waitAsync). */
export const helpersRunHere = (): boolean => typeof (Atomics as { waitAsync?: unknown }).waitAsync === 'function';

let team: KernelTeam | null = null;
let ownerIdle = false;

/** Tests only: true makes a team's owner claim no rows, so every row of a shared product is a helper's. */
export function leaveRowsToHelpers(on: boolean): void {
  ownerIdle = on;
}

/**
 * This thread's kernels run their large products with helper threads from now on: each port leads to a
 * thread that called serveKernelHelper. The kernels are rebuilt on the team's shared memory.
 */
export function joinKernelHelpers(ports: readonly PortLike[]): void {
  team = ports.length ? new KernelTeam(ports) : null;
}

/** This thread's team, or null (the kernels run alone). */
export function kernelTeam(): KernelTeam | null {
  return team;
}
