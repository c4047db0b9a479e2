// What every rank's worker runs, the same code in Node (worker_threads), Deno and the browser (Web
// Workers): serveRank(programs) answers the main thread over comlink (init, run a step on every
// hosted rank, read metrics, close). A worker thread hosts one or more ranks of the world (logical
// ranks), which take turns on it, each awaiting its collectives. Bulk data goes through the arena
// only. A worker entry file calls it once with the rank programs it bundles: rank-worker.ts (the
// ranks' own programs) or an application's entry that adds its own (src/train/rank-worker.ts adds
// `builtin:train`), so this folder imports nothing above it.
import * as Comlink from 'comlink';
import { ConfigError } from '../core/errors.ts';
import type { WaitMode } from './collectives.ts';
import type { BackendBehaviour } from './backend.ts';
import { LocalGroup } from './local-group.ts';
import { Rank, type RankProgram } from './rank.ts';
import { CollectiveError, CollectiveTimeoutError, RankFailedError } from './faults.ts';
import * as bench from './programs/bench.ts';
import * as dynamic from './programs/dynamic.ts';
import * as seeds from './programs/seeds.ts';
import { isTypeScriptFile } from './typescript-file.ts';

/** A module of rank programs: its exported functions are `(rank, args) => result`. */
export type ProgramModule = Record<string, unknown>;

/**
 * What an entry's helper threads do (World.start's `helpers`), given by the entry as its programs are:
 * `serve` makes this worker a helper of the rank thread at the other end of `port`; `join` gives a rank
 * thread its helpers' ports.
 */
export interface HelperHooks {
  serve(port: MessagePort): void;
  join(ports: MessagePort[]): void;
}

/** The ranks' own program modules, bundled into every worker entry. */
const RANKS_PROGRAMS: Record<string, ProgramModule> = { bench, dynamic, seeds };

export interface RankInit {
  buffer: SharedArrayBuffer;
  /** The ranks this worker thread hosts (logical ranks: one or more, in rank order). */
  ranks: number[];
  size: number;
  timeoutMs: number;
  waitMode: WaitMode;
  backend: BackendBehaviour;
  watchdogMs: number;
  /** Request a GPUDevice for each hosted rank (src/gpu/device.ts). */
  gpu: boolean;
}

/** How one hosted rank's step ended (errors as plain data: name and message). */
/** `backendWorded`: the rank's error is a collective's mismatch or watchdog, worded as the world's backend behaviour shows it. */
export type RankSettled = { ok: true; value: unknown } | { ok: false; name: string; message: string; backendWorded: boolean };

let ranks: Rank[] = [];

function mine(): Rank[] {
  if (!ranks.length) throw new Error('rank worker used before init()');
  return ranks;
}

/**
 * Serves this worker's rank: program modules bundled into the worker run as `{ module: 'builtin:<name>',
 * name }`, the ranks' own (bench, dynamic, seeds) and `programs`. A module given by URL is imported at
 * run time instead, which works in Node, Deno and Vite's dev server but not from a production build
 * (Vite does not bundle what it cannot see).
 */
export async function serveRank(programs: Record<string, ProgramModule> = {}, helpers?: HelperHooks): Promise<void> {
  const builtin = { ...RANKS_PROGRAMS, ...programs };
  const api = makeApi(builtin, helpers);
  if (isNode) {
    // Variable specifiers keep Vite from trying to bundle Node-only modules for the browser.
    const threads = 'node:worker_threads';
    const adapter = 'comlink/dist/esm/node-adapter.mjs';
    const { parentPort } = (await import(/* @vite-ignore */ threads)) as typeof import('node:worker_threads');
    const nodeEndpoint = ((await import(/* @vite-ignore */ adapter)) as { default: (p: unknown) => Comlink.Endpoint }).default;
    Comlink.expose(api, nodeEndpoint(parentPort));
  } else {
    Comlink.expose(api);
  }
}

/** The exported rank program `name` of module `url` (a `builtin:` name or a URL), or a ConfigError naming what there is. */
async function findProgram(BUILTIN: Record<string, ProgramModule>, url: string, name: string): Promise<RankProgram> {
  if (isTypeScriptFile(url)) await loadTypeScript();
  const mod = url.startsWith('builtin:') ? BUILTIN[url.slice(8)] : ((await import(/* @vite-ignore */ url)) as Record<string, unknown>);
  if (!mod)
    throw new ConfigError(
      `no built-in rank program module '${url}'; built-in: ${Object.keys(BUILTIN)
        .map((k) => `builtin:${k}`)
        .join(', ')}`,
    );
  const program = mod[name];
  if (typeof program !== 'function') {
    throw new ConfigError(
      `${url} has no exported rank program '${name}'; exported functions: ${
        Object.keys(mod)
          .filter((k) => typeof mod[k] === 'function')
          .join(', ') || 'none'
      }`,
    );
  }
  return program as RankProgram;
}

/** A rank's failure: marks it failed (releasing the other ranks) and returns it as data. */
function failed(r: Rank, err: unknown): RankSettled {
  r.fail(err);
  const e = err as { name?: string; message?: string };
  // A collective's mismatch or watchdog is worded as the world's backend behaviour shows it; the sandbox's own
  // hang detector (a skipped collective), a release because another rank failed and the rank's own errors are not.
  const backendWorded = err instanceof CollectiveError && !(err instanceof RankFailedError) && !(err instanceof CollectiveTimeoutError);
  return { ok: false, name: e?.name ?? 'Error', message: e?.message ?? String(err), backendWorded };
}

/** The refusal when a world asks an entry without helper hooks for helpers. */
const noHelpers = () =>
  new ConfigError('this worker entry has no helper threads (serveRank was given no helper hooks); start the world with helpers: 0');

const makeApi = (BUILTIN: Record<string, ProgramModule>, helpers: HelperHooks | undefined) => ({
  /** This worker becomes a helper thread of the rank thread at the other end of `port` (it hosts no rank). */
  serveAsHelper(port: MessagePort): void {
    if (!helpers) throw noHelpers();
    helpers.serve(port);
  },

  /** This rank thread's helper threads, one port each. */
  joinHelpers(ports: MessagePort[]): void {
    if (!helpers) throw noHelpers();
    helpers.join(ports);
  },

  /** Attaches this worker's ranks to the world's arena; returns each rank's device names. */
  async init(init: RankInit): Promise<{ device: string; gpu: string | null }[]> {
    // The hosted ranks meet in this thread's memory within a collective (local-group.ts).
    const local = new LocalGroup(init.ranks);
    ranks = init.ranks.map(
      (rank) =>
        new Rank(init.buffer, {
          rank,
          size: init.size,
          timeoutMs: init.timeoutMs,
          waitMode: init.waitMode,
          backend: init.backend,
          watchdogMs: init.watchdogMs,
          device: `sim:${rank}`,
          local,
        }),
    );
    if (init.gpu) {
      const { requestGpuDevice } = await import('../gpu/device.ts');
      for (const rank of ranks) {
        const got = await requestGpuDevice();
        if (!got.ok) throw new Error(`rank ${rank.rank} could not get a GPU device: ${got.reason}`);
        rank.gpu = got.device;
        rank.gpuInfo = got.adapterInfo;
      }
    }
    return ranks.map((r) => ({ device: r.device, gpu: r.gpuInfo }));
  },

  /**
   * Runs export `name` of module `url` as the step of every rank this worker hosts, interleaved on
   * this thread (each awaits its collectives); a throw releases the other ranks. One outcome per hosted rank.
   */
  async run(url: string, name: string, args: unknown): Promise<RankSettled[]> {
    const hosted = mine();
    let program: RankProgram;
    try {
      program = await findProgram(BUILTIN, url, name);
    } catch (err) {
      return hosted.map((r) => failed(r, err));
    }
    // Every hosted rank has begun before any runs: one still queued behind another on this thread is behind, not absent.
    for (const r of hosted) r.stepStarted();
    return Promise.all(
      hosted.map(async (r): Promise<RankSettled> => {
        try {
          const value = await program(r, args);
          r.stepFinished();
          return { ok: true, value };
        } catch (err) {
          return failed(r, err);
        }
      }),
    );
  },

  /** Collective counters of each hosted rank. */
  metrics() {
    return mine().map((r) => r.metrics());
  },

  /** Releases the hosted ranks' GPU devices (Dawn would otherwise keep the process alive). */
  close(): void {
    for (const r of ranks) r.gpu?.destroy();
    ranks = [];
  },
});

export type RankApi = ReturnType<typeof makeApi>;

declare global {
  /** Set (by esbuild's define) in the Node bundle of this worker: plain JavaScript, no tsx. */
  var GRPO_BUNDLED_RANK_WORKER: boolean | undefined;
}

let tsxRegistered = false;

/**
 * In the Node bundle, a program module given as a TypeScript file needs tsx: registered once, only
 * then (the world gives a bundle of it instead where it can build one: spawn.ts, programUrl).
 */
async function loadTypeScript(): Promise<void> {
  if (!globalThis.GRPO_BUNDLED_RANK_WORKER || tsxRegistered) return;
  const tsx = 'tsx/esm/api';
  ((await import(/* @vite-ignore */ tsx)) as { register(): void }).register();
  tsxRegistered = true;
}

interface NodeProcessLike {
  versions?: { node?: string };
}
const isNode = !('Deno' in globalThis) && !!(globalThis as { process?: NodeProcessLike }).process?.versions?.node;
