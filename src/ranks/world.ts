// A world of W ranks, driven from the main thread: start the workers, run a step on every
// rank, read metrics, stop. The W ranks live on T ≤ W worker threads (logical ranks: a thread
// hosts a contiguous block of ranks, which wait for their collectives by awaiting, so the ranks
// of one thread take turns on it and meet each other without a thread switch). When a step fails
// on any rank the world reports every rank's error in one WorldFailure and terminates all its
// workers, so nothing is left running.
import * as Comlink from 'comlink';
import { ConfigError } from '../core/errors.ts';
import { ABORT, ABORT_RANK, Arena, controlBytes, createArenaBuffer, MAX_WORLD, Phase, ST_PHASE } from './arena.ts';
import { BACKEND_BEHAVIOURS, type BackendBehaviour } from './backend.ts';
import type { RankMetrics, WaitMode } from './collectives.ts';
import { describeRanks, groupByLabel, rankList } from './faults.ts';
import { coreCount, programUrl, RANK_WORKER, spawnRankWorker, type RankWorker, type RankWorkerEntry } from './spawn.ts';

export interface WorldOptions {
  /** Number of ranks (1 … MAX_WORLD). */
  size: number;
  /**
   * Worker threads the ranks run on (1 … size; default size, one thread per rank). Each thread hosts a
   * contiguous block of ranks; results and collectives are the same for any count. Faults name the same root,
   * but a rank sharing a thread with the failing one may be released by its abort before its own timer fires
   * (RankFailedError instead of its own watchdog error), so the fault demos keep one thread per rank and
   * `train` asks for one, or min(ranks, cores) where a rank's products are large.
   */
  threads?: number;
  /** A collective with no progress for this many milliseconds is diagnosed as a hang (default 10 000). */
  timeoutMs?: number;
  /** Payload room allocated up front, bytes (default 1 MiB). */
  arenaBytes?: number;
  /** The arena grows on demand up to this many bytes (default 1 GiB; address space only until used). */
  maxArenaBytes?: number;
  /**
   * How ranks wait: 'block' (Atomics.wait) or 'async' (Atomics.waitAsync); default 'async' with gpu or when a thread
   * hosts several ranks (which must take turns on it), else 'block'.
   */
  waitMode?: WaitMode;
  /** Give each rank its own WebGPU device (default false; slow to start, keep it off tests that do not need it). */
  gpu?: boolean;
  /**
   * How a collective whose ranks disagree ends (src/ranks/backend.ts): 'nccl' hangs until the timeout (the watchdog),
   * 'gloo' and 'detail' raise as torch does, 'sandbox' (the default here) raises the sandbox's diagnosis at once.
   */
  backend?: BackendBehaviour;
  /** nccl: how long the ranks hang in a mismatched collective before the simulated watchdog fires (default 2000 ms). */
  watchdogMs?: number;
  /** The workers' entry: the ranks' own programs (default) or an application's, which registers its programs there. */
  worker?: RankWorkerEntry;
  /**
   * Helper threads per rank thread (default 0): more workers on the same entry, each connected to one rank
   * thread by a message port, which the entry puts to work (serveRank's `helpers`: the training entry's
   * fast matmul shares a large product's rows with them). They host no rank; the world stops them with its own.
   */
  helpers?: number;
}

const KNOWN_OPTIONS = [
  'size',
  'timeoutMs',
  'arenaBytes',
  'maxArenaBytes',
  'waitMode',
  'gpu',
  'backend',
  'watchdogMs',
  'worker',
  'threads',
  'helpers',
];

/** Most helper threads a rank thread may have. */
const MAX_HELPERS = 64;

/**
 * Which exported rank program to run: a module (`builtin:seeds` or `builtin:bench`, bundled into
 * the worker, or a URL the worker can import) and an export name.
 */
export interface ProgramRef {
  module: string | URL;
  name: string;
}

/** How one rank's step ended. */
/** `backendWorded`: the rank's error is a collective's mismatch or watchdog, worded as the world's backend behaviour shows it. */
export type RankOutcome =
  | { rank: number; ok: true; value: unknown }
  | { rank: number; ok: false; name: string; message: string; backendWorded: boolean };

/** A step failed on at least one rank; `ranks` has every rank's outcome. The world is stopped. */
/** While a step runs: every `everyMs`, `report` gets one line per group of ranks in the same state. */
export interface StepProgress {
  everyMs: number;
  report(lines: string[]): void;
}

export class WorldFailure extends Error {
  readonly ranks: RankOutcome[];
  /** The rank whose own error caused the failure (not one released because of another). */
  readonly root: number;
  /**
   * Whether the root cause is a collective's mismatch or watchdog, worded as the backend behaviour shows it
   * (not a hang the sandbox detected, nor a rank's own error).
   */
  readonly backendWorded: boolean;
  constructor(message: string, ranks: RankOutcome[], root: number, backendWorded: boolean) {
    super(message);
    this.name = 'WorldFailure';
    this.ranks = ranks;
    this.root = root;
    this.backendWorded = backendWorded;
  }
}

type Validated = Required<WorldOptions>;

function validate(options: WorldOptions, cores: number): Validated {
  if (typeof options !== 'object' || options === null) throw new ConfigError('World.start needs an options object such as { size: 8 }');
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key)) throw new ConfigError(`unknown world option '${key}'; known options: ${KNOWN_OPTIONS.join(', ')}`);
  }
  const { size } = options;
  if (!Number.isInteger(size) || size < 1 || size > MAX_WORLD) {
    throw new ConfigError(`world size must be a whole number from 1 to ${MAX_WORLD}, got ${String(size)}`, [
      { size: Math.min(MAX_WORLD, Math.max(1, Math.round(Number(size) || 1))) },
    ]);
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    throw new ConfigError(`timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
  const arenaBytes = options.arenaBytes ?? 2 ** 20;
  const maxArenaBytes = options.maxArenaBytes ?? Math.max(arenaBytes, 2 ** 30);
  if (!Number.isSafeInteger(arenaBytes) || arenaBytes < 0)
    throw new ConfigError(`arenaBytes must be a whole number of bytes ≥ 0, got ${String(arenaBytes)}`);
  if (!Number.isSafeInteger(maxArenaBytes) || maxArenaBytes < arenaBytes) {
    throw new ConfigError(`maxArenaBytes must be a whole number of bytes ≥ arenaBytes (${arenaBytes}), got ${String(maxArenaBytes)}`);
  }
  const gpu = options.gpu ?? false;
  if (typeof gpu !== 'boolean') throw new ConfigError(`gpu must be true or false, got ${String(gpu)}`);
  const threads = options.threads ?? size;
  if (!Number.isInteger(threads) || threads < 1 || threads > size) {
    throw new ConfigError(`threads must be a whole number from 1 to the world size ${size}, got ${String(threads)}`, [
      { threads: Math.min(size, cores) },
    ]);
  }
  const shared = threads < size;
  const waitMode = options.waitMode ?? (gpu || shared ? 'async' : 'block');
  if (waitMode !== 'block' && waitMode !== 'async') throw new ConfigError(`waitMode must be 'block' or 'async', got '${String(waitMode)}'`);
  if (waitMode === 'block' && shared) {
    throw new ConfigError(
      `waitMode 'block' needs one rank per thread, but ${size} ranks share ${threads} threads (a blocked rank would stop the others on its thread); ` +
        `use waitMode 'async' or threads: ${size}`,
    );
  }
  const backend = options.backend ?? 'sandbox';
  if (!BACKEND_BEHAVIOURS.includes(backend))
    throw new ConfigError(`backend must be one of ${BACKEND_BEHAVIOURS.join(', ')}, got '${String(backend)}'`);
  const watchdogMs = options.watchdogMs ?? 2000;
  if (!(watchdogMs > 0) || !Number.isFinite(watchdogMs))
    throw new ConfigError(`watchdogMs must be a positive number of milliseconds, got ${String(watchdogMs)}`);
  const helpers = options.helpers ?? 0;
  if (!Number.isInteger(helpers) || helpers < 0 || helpers > MAX_HELPERS)
    throw new ConfigError(
      `helpers must be a whole number from 0 to ${MAX_HELPERS} (helper threads per rank thread), got ${String(helpers)}`,
    );
  const worker = options.worker ?? RANK_WORKER;
  return { size, threads, timeoutMs, arenaBytes, maxArenaBytes, gpu, waitMode, backend, watchdogMs, worker, helpers };
}

/** The first line of a message without the per-rank "(rank n … was released)" note. */
const essence = (message: string): string =>
  message
    .split('\n')
    .filter((l) => !/^\s*\(rank \d+ .* released/.test(l))
    .join('\n');

/** The ranks each of `threads` threads hosts: contiguous blocks, the first size mod threads one larger. */
export function placeRanks(size: number, threads: number): number[][] {
  const base = Math.floor(size / threads);
  const extra = size % threads;
  const out: number[][] = [];
  let next = 0;
  for (let t = 0; t < threads; t++) {
    const n = base + (t < extra ? 1 : 0);
    out.push(Array.from({ length: n }, (_, i) => next + i));
    next += n;
  }
  return out;
}

/** A started world of ranks. */
export class World {
  readonly size: number;
  readonly timeoutMs: number;
  /** Each rank's device name (`sim:0`, …) and GPU adapter (or null). */
  readonly devices: { device: string; gpu: string | null }[];
  /** The ranks each worker thread hosts (`placement[t]`, in rank order). */
  readonly placement: readonly (readonly number[])[];
  /** The rank threads' workers (placement's order), then their helpers'. */
  private workers: RankWorker[];
  private running: string | null = null;
  private readonly buffer: SharedArrayBuffer;

  private constructor(
    size: number,
    timeoutMs: number,
    buffer: SharedArrayBuffer,
    workers: RankWorker[],
    placement: number[][],
    devices: { device: string; gpu: string | null }[],
  ) {
    this.size = size;
    this.timeoutMs = timeoutMs;
    this.buffer = buffer;
    this.workers = workers;
    this.placement = placement;
    this.devices = devices;
  }

  /** Worker threads the ranks run on. */
  get threads(): number {
    return this.placement.length;
  }

  /** Starts the world's worker threads sharing one arena; rejects (leaving no worker behind) if any fails to start. */
  static async start(options: WorldOptions): Promise<World> {
    const o = validate(options, await coreCount());
    // The Vulkan loader reads the real process environment, which a Node worker cannot change.
    if (o.gpu) await (await import('../gpu/device.ts')).prepareVulkanEnvironment();
    const buffer = createArenaBuffer(o.size, o.arenaBytes, o.maxArenaBytes);
    const placement = placeRanks(o.size, o.threads);
    const started = await Promise.allSettled(
      placement.map((ranks) => spawnRankWorker(rankList(ranks).replace(/^ranks? /, ''), o.threads, o.worker)),
    );
    const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      // Every rank's init settles before any worker is terminated: a worker stopped while it is
      // inside Dawn's requestAdapter (another rank found no adapter first) kills the whole Node
      // process with a native 'napi_throw' fatal error instead of a catchable one.
      const inits = await Promise.allSettled(
        workers.map((w, t) =>
          Promise.race([
            w.api.init({
              buffer,
              ranks: placement[t]!,
              size: o.size,
              timeoutMs: o.timeoutMs,
              waitMode: o.waitMode,
              gpu: o.gpu,
              backend: o.backend,
              watchdogMs: o.watchdogMs,
            }),
            w.crashed,
          ]),
        ),
      );
      const initFailed = inits.find((s) => s.status === 'rejected');
      if (initFailed) throw (initFailed as PromiseRejectedResult).reason;
      const devices = inits.flatMap((s) => (s as PromiseFulfilledResult<(typeof World.prototype.devices)[number][]>).value);
      if (o.helpers > 0) workers.push(...(await startHelpers(workers, placement, o)));
      return new World(o.size, o.timeoutMs, buffer, workers, placement, devices);
    } catch (err) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw err;
    }
  }

  /** Whether the world still has its workers (false after stop() or a failed step). */
  get alive(): boolean {
    return this.workers.length > 0;
  }

  /** Bytes of the shared arena now (control words plus payload room; grows on demand). */
  get arenaBytes(): number {
    return this.buffer.byteLength;
  }

  /** Bytes of control words at the front of the arena. */
  get controlBytes(): number {
    return controlBytes(this.size);
  }

  /**
   * Runs `program` on every rank with the same `args`; resolves to each rank's result in rank
   * order. If any rank fails, waits up to the timeout for the others to be released, stops the
   * world and rejects with a WorldFailure naming each rank's error.
   */
  async run<R = unknown, A = unknown>(program: ProgramRef, args?: A, progress?: StepProgress): Promise<R[]> {
    if (!this.alive) throw new Error('this world is stopped; start a new one');
    // Two steps at once would interleave their collectives on the same ranks.
    if (this.running) throw new Error(`this world is already running a step ('${this.running}'); await it before starting another`);
    this.running = program.name;
    try {
      // Every rank starts the step as "not started", so a timeout never counts a rank that has not begun as one that skipped.
      const arena = new Arena(this.buffer, this.size);
      for (let r = 0; r < this.size; r++) Atomics.store(arena.ctrl, arena.state(r, ST_PHASE), Phase.Never);
      const timer = progress && setInterval(() => progress.report(describeRanks(arena)), progress.everyMs);
      try {
        return await this.runStep<R>(program, args);
      } finally {
        if (timer) clearInterval(timer);
      }
    } finally {
      this.running = null;
    }
  }

  private async runStep<R>(program: ProgramRef, args: unknown): Promise<R[]> {
    const url = await programUrl(program.module);
    const outcomes: (RankOutcome | undefined)[] = new Array(this.size).fill(undefined);
    await new Promise<void>((resolve) => {
      let grace: ReturnType<typeof setTimeout> | undefined;
      const ranked = this.workers.slice(0, this.placement.length);
      let pending = ranked.length;
      ranked.forEach((w, t) => {
        const hosted = this.placement[t]!;
        Promise.race([w.api.run(url, program.name, args), w.crashed])
          .then(
            (settled) => {
              hosted.forEach((rank, i) => {
                const s = settled[i]!;
                outcomes[rank] = s.ok
                  ? { rank, ok: true, value: s.value }
                  : { rank, ok: false, name: s.name, message: s.message, backendWorded: s.backendWorded };
              });
            },
            (err: unknown) => {
              // The thread itself failed (it crashed, or could not be messaged): every rank it hosts failed so.
              const e = err as { name?: string; message?: string };
              for (const rank of hosted)
                outcomes[rank] = { rank, ok: false, name: e?.name ?? 'Error', message: e?.message ?? String(err), backendWorded: false };
            },
          )
          .finally(() => {
            // Released ranks raise within the timeout; one stuck outside collectives never returns.
            if (hosted.some((rank) => !outcomes[rank]?.ok)) grace ??= setTimeout(resolve, this.timeoutMs + 500);
            if (--pending === 0) {
              clearTimeout(grace);
              resolve();
            }
          });
      });
    });
    if (outcomes.every((o) => o?.ok)) return outcomes.map((o) => (o as { value: R }).value);
    const final: RankOutcome[] = outcomes.map(
      (o, rank) =>
        o ?? {
          rank,
          ok: false,
          name: 'Unresponsive',
          backendWorded: false,
          message:
            `did not return within ${this.timeoutMs + 500} ms after the world failed (busy outside any collective); ` +
            `its worker was terminated${this.sharing(rank)}`,
        },
    );
    const arena = new Arena(this.buffer, this.size);
    // The rank that aborted the world (it failed, or its watchdog fired first), when one did.
    const aborter = Atomics.load(arena.ctrl, ABORT) > 0 ? Atomics.load(arena.ctrl, ABORT_RANK) : -1;
    await this.stop();
    const failures = final.filter((o): o is Extract<RankOutcome, { ok: false }> => !o.ok);
    // The root cause: the aborting rank, else a rank's own error rather than one saying it was released because of another.
    // Ranks often fail alike at once (every waiting rank's timeout or watchdog, every rank's own device error), and which
    // of them aborted the world first is a race between threads: name the lowest rank that failed as the aborter did,
    // so the output is the same bytes run to run (Node and Deno alike).
    const aborted = failures.find((f) => f.rank === aborter);
    const root =
      (aborted ? failures.find((f) => f.name === aborted.name) : undefined) ??
      failures.find((f) => f.name !== 'RankFailedError' && f.name !== 'Unresponsive') ??
      failures[0]!;
    throw new WorldFailure(this.describeFailure(program.name, final, root), final, root.rank, root.backendWorded);
  }

  /** ` (it shares that thread with rank …)` for a rank that shares its worker thread, else ''. */
  private sharing(rank: number): string {
    const hosted = this.placement.find((p) => p.includes(rank))!;
    return hosted.length > 1 ? ` (it shares that thread with ${rankList(hosted.filter((r) => r !== rank))})` : '';
  }

  private describeFailure(name: string, outcomes: RankOutcome[], root: Extract<RankOutcome, { ok: false }>): string {
    const labels = outcomes.map((o) => (o.ok ? 'finished the step' : `${o.name}: ${essence(o.message)}`));
    const lines = groupByLabel(labels).map((g) => `${rankList(g.ranks)}: ${g.label.replace(/\n/g, '\n    ')}`);
    return `world of ${this.size} ranks failed in '${name}' (rank ${root.rank}: ${root.name}); all workers stopped\n  ${lines.join('\n  ')}`;
  }

  /** Every rank's collective counters. */
  async metrics(): Promise<RankMetrics[]> {
    return (await Promise.all(this.workers.slice(0, this.placement.length).map((w) => w.api.metrics()))).flat();
  }

  /** Releases GPU devices and terminates every worker; safe to call twice. */
  async stop(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    if (this.devices.some((d) => d.gpu)) {
      // A rank blocked in a collective cannot answer close(); terminate ends it (and its device) anyway.
      await Promise.all(workers.slice(0, this.placement.length).map((w) => withTimeout(w.api.close(), 200)));
    }
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * Each rank thread's helper threads: workers on the same entry, each handed one end of a message channel
 * whose other end goes to its rank thread. Rejects (after terminating those that started) if any fails.
 */
async function startHelpers(workers: RankWorker[], placement: number[][], o: Validated): Promise<RankWorker[]> {
  const started = await Promise.allSettled(
    placement.flatMap((ranks) =>
      Array.from({ length: o.helpers }, (_, i) =>
        spawnRankWorker(rankList(ranks).replace(/^ranks? /, ''), o.threads, o.worker, `helper ${i + 1}`),
      ),
    ),
  );
  const helpers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    await Promise.all(
      workers.map(async (w, t) => {
        const mine = helpers.slice(t * o.helpers, (t + 1) * o.helpers);
        const channels = mine.map(() => new MessageChannel());
        await Promise.all(
          mine.map((h, i) => Promise.race([h.api.serveAsHelper(Comlink.transfer(channels[i]!.port2, [channels[i]!.port2])), h.crashed])),
        );
        const ports = channels.map((c) => c.port1);
        await Promise.race([w.api.joinHelpers(Comlink.transfer(ports, ports)), w.crashed]);
      }),
    );
    return helpers;
  } catch (err) {
    await Promise.all(helpers.map((h) => h.terminate()));
    throw err;
  }
}

/** Waits for `p` at most `ms` milliseconds; never rejects; leaves no timer behind. */
async function withTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    p.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
