// What every rank's worker runs, the same code in Node (worker_threads), Deno and the browser (Web
// Workers): serveRank(programs) answers the main thread over comlink (init, run a step, read
// metrics, close). Bulk data goes through the arena only. A worker entry file calls it once with
// the rank programs it bundles: rank-worker.ts (the ranks' own programs) or an application's
// entry that adds its own (src/train/rank-worker.ts adds `builtin:train`), so this folder imports
// nothing above it.
import * as Comlink from 'comlink';
import { ConfigError } from '../core/errors.ts';
import type { WaitMode } from './collectives.ts';
import type { BackendBehaviour } from './backend.ts';
import { Rank, type RankProgram } from './rank.ts';
import * as bench from './programs/bench.ts';
import * as dynamic from './programs/dynamic.ts';
import * as seeds from './programs/seeds.ts';

/** A module of rank programs: its exported functions are `(rank, args) => result`. */
export type ProgramModule = Record<string, unknown>;

/** The ranks' own program modules, bundled into every worker entry. */
const RANKS_PROGRAMS: Record<string, ProgramModule> = { bench, dynamic, seeds };

export interface RankInit {
  buffer: SharedArrayBuffer;
  rank: number;
  size: number;
  timeoutMs: number;
  waitMode: WaitMode;
  backend: BackendBehaviour;
  watchdogMs: number;
  /** Request a GPUDevice for this rank (src/gpu/device.ts). */
  gpu: boolean;
}

let rank: Rank | null = null;

function mine(): Rank {
  if (!rank) throw new Error('rank worker used before init()');
  return rank;
}

/**
 * Serves this worker's rank: program modules bundled into the worker run as `{ module: 'builtin:<name>',
 * name }`, the ranks' own (bench, dynamic, seeds) and `programs`. A module given by URL is imported at
 * run time instead, which works in Node, Deno and Vite's dev server but not from a production build
 * (Vite does not bundle what it cannot see).
 */
export async function serveRank(programs: Record<string, ProgramModule> = {}): Promise<void> {
  const builtin = { ...RANKS_PROGRAMS, ...programs };
  const api = makeApi(builtin);
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

const makeApi = (BUILTIN: Record<string, ProgramModule>) => ({
  /** Attaches this worker to the world's arena; returns its device names. */
  async init(init: RankInit): Promise<{ device: string; gpu: string | null }> {
    rank = new Rank(init.buffer, {
      rank: init.rank,
      size: init.size,
      timeoutMs: init.timeoutMs,
      waitMode: init.waitMode,
      backend: init.backend,
      watchdogMs: init.watchdogMs,
      device: `sim:${init.rank}`,
    });
    if (init.gpu) {
      const { requestGpuDevice } = await import('../gpu/device.ts');
      const got = await requestGpuDevice();
      if (!got.ok) throw new Error(`rank ${init.rank} could not get a GPU device: ${got.reason}`);
      rank.gpu = got.device;
      rank.gpuInfo = got.adapterInfo;
    }
    return { device: rank.device, gpu: rank.gpuInfo };
  },

  /** Runs export `name` of module `url` as this rank's step; a throw releases the other ranks. */
  async run(url: string, name: string, args: unknown): Promise<unknown> {
    const r = mine();
    try {
      if (!url.startsWith('builtin:')) await loadTypeScript();
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
      r.stepStarted();
      const result = await (program as RankProgram)(r, args);
      r.stepFinished();
      return result;
    } catch (err) {
      r.fail(err);
      throw err;
    }
  },

  /** Collective counters of this rank. */
  metrics() {
    return mine().metrics();
  },

  /** Releases this rank's GPU device (Dawn would otherwise keep the process alive). */
  close(): void {
    rank?.gpu?.destroy();
    rank = null;
  },
});

export type RankApi = ReturnType<typeof makeApi>;

declare global {
  /** Set (by esbuild's define) in the Node bundle of this worker: plain JavaScript, no tsx. */
  var GRPO_BUNDLED_RANK_WORKER: boolean | undefined;
}

let tsxRegistered = false;

/** In the Node bundle, a program module given by URL is TypeScript: register tsx once, only then. */
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
