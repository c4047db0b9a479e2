// Starts one rank worker thread (it hosts one or more ranks) in whichever runtime we are in and
// wraps it with comlink:
//   Node: worker_threads on the rank worker bundled once per process (node-bundle.ts), or through
//   rank-worker.node.js (which registers tsx) where the bundle cannot be built;
//   Deno and browsers: a module Web Worker on rank-worker.ts. The `new Worker(new URL(...,
//   import.meta.url), { type: 'module' })` line is written literally so Vite can bundle it.
// A world may run another entry (RankWorkerEntry): an application's own, which adds its rank
// programs to the ranks' (src/train/worker.ts); it writes its Worker line literally likewise.
import * as Comlink from 'comlink';
import type { RankApi } from './serve.ts';
import { isTypeScriptFile } from './typescript-file.ts';

/** A worker entry file: where Node bundles it from, and how Deno and browsers start it (a literal `new Worker(new URL(…))`). */
export interface RankWorkerEntry {
  /** The entry's TypeScript file (Node bundles it, or loads it through tsx). */
  url: URL;
  /** Starts a module Web Worker on the entry. */
  web(name: string): Worker;
}

/** The ranks' default entry: their own programs only. */
export const RANK_WORKER: RankWorkerEntry = {
  url: new URL('./rank-worker.ts', import.meta.url),
  web: (name) => new Worker(new URL('./rank-worker.ts', import.meta.url), { type: 'module', name }),
};

/** A started rank worker. */
export interface RankWorker {
  api: Comlink.Remote<RankApi>;
  /** Rejects if the worker dies or fails to load (never resolves otherwise). */
  crashed: Promise<never>;
  /** Ends the worker (even one blocked in Atomics.wait); resolves once it is gone. */
  terminate(): Promise<void>;
}

let live = 0;

/** `rank 3` or `ranks 0–3`. */
const label = (ranks: string) => (/^\d+$/.test(ranks) ? `rank ${ranks}` : `ranks ${ranks}`);

/** Rank workers started and not yet terminated, across all worlds of this thread (for leak checks). */
export function liveRankWorkers(): number {
  return live;
}

interface NodeProcessLike {
  versions?: { node?: string };
  execArgv?: string[];
}
const isNode = !('Deno' in globalThis) && !!(globalThis as { process?: NodeProcessLike }).process?.versions?.node;

/**
 * Starts the worker thread of `ranks` (a label such as `0` or `0–3`) in a world of `threads` worker threads, on `entry`;
 * `helper` names a helper thread of theirs instead (`helper 1`: `rank 0 helper 1`).
 */
export async function spawnRankWorker(
  ranks: string,
  threads = 1,
  entry: RankWorkerEntry = RANK_WORKER,
  helper?: string,
): Promise<RankWorker> {
  const name = helper ? `${label(ranks)} ${helper}` : label(ranks);
  return isNode ? spawnNode(name, threads, entry) : spawnWeb(name, entry);
}

/**
 * The address the rank workers import a program module from: a `builtin:` name or a URL, as given; in
 * Node a TypeScript file is bundled once per process first (node-bundle.ts), so the bundled workers
 * import plain JavaScript instead of each registering tsx (it stays the fallback where no bundle can
 * be built).
 */
export async function programUrl(module: string | URL): Promise<string> {
  const url = String(module);
  if (!isNode || !isTypeScriptFile(url)) return url;
  const { programBundle } = await import('./node-bundle.ts');
  return (await programBundle(new URL(url)))?.href ?? url;
}

/** The machine's logical cores as this runtime reports them (at least 1). */
export async function coreCount(): Promise<number> {
  if (isNode) {
    const os = 'node:os';
    const { availableParallelism, cpus } = (await import(/* @vite-ignore */ os)) as typeof import('node:os');
    return Math.max(1, availableParallelism?.() ?? cpus().length);
  }
  return Math.max(1, (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1);
}

/**
 * A Node worker's young generation, MiB. A training step allocates a few MiB of activations; in
 * a 2 MiB young generation they survived into the old one and every step paid a full
 * mark-compact (measured: GC was the largest part of a 256 × 8 step after the kernels). Worlds
 * of a few threads get room for a step; worlds of hundreds of threads keep the small heaps they need.
 */
const youngGenerationMb = (threadCount: number) => (threadCount <= 16 ? 32 : 2);

/**
 * The semi-space a worker's young generation starts with, MiB, in worlds of no more threads than
 * cores (the worlds that train for speed; `train`'s default). V8 starts at 1 MiB and grows it only
 * when many objects survive, which a step's short-lived arrays do not: a rank worker scavenged every
 * 4 MB, about once every two 256 × 8 steps, each a pause of the thread the other thread's ranks then
 * wait for at the next barrier (measured: 28–36 scavenges per worker in a 60-step run of 8 ranks on
 * 2 threads, 5–6 with this; ~25 MB more heap per worker). V8 reads the flag when it sets up an
 * isolate's heap, so it is set once in this process, before the first such worker starts; every
 * isolate started after it begins with it too (clearing it again as each world's workers came
 * online left some of them at V8's default: measured, not understood). The main thread keeps its own.
 */
const START_SEMI_SPACE_MB = 16;
let semiSpaceSet: Promise<void> | null = null;

async function spawnNode(name: string, threadCount: number, entryFile: RankWorkerEntry): Promise<RankWorker> {
  // Variable specifiers keep Vite from bundling Node-only modules into the browser build.
  const threads = 'node:worker_threads';
  const adapter = 'comlink/dist/esm/node-adapter.mjs';
  const { Worker } = (await import(/* @vite-ignore */ threads)) as typeof import('node:worker_threads');
  const nodeEndpoint = ((await import(/* @vite-ignore */ adapter)) as { default: (w: unknown) => Comlink.Endpoint }).default;
  // The bundled plain-JS worker when it can be built (fast, small); else the tsx bootstrap.
  const { rankWorkerBundle } = await import('./node-bundle.ts');
  const bundled = await rankWorkerBundle(entryFile.url);
  const entry = bundled ?? new URL('./rank-worker.node.js', import.meta.url);
  if (threadCount <= Math.min(16, await coreCount())) {
    const v8 = 'node:v8';
    semiSpaceSet ??= import(/* @vite-ignore */ v8).then((m: typeof import('node:v8')) =>
      m.setFlagsFromString(`--min-semi-space-size=${START_SEMI_SPACE_MB}`),
    );
    await semiSpaceSet;
  }
  // Small old generations: a rank holds a few typed arrays.
  const worker = new Worker(entry, {
    name,
    workerData: bundled ? undefined : { entry: entryFile.url.href },
    // A worker inherits the process's flags; the bundle is plain JavaScript and needs no TypeScript loader.
    ...(bundled ? { execArgv: withoutTsx((globalThis as { process?: NodeProcessLike }).process?.execArgv ?? []) } : {}),
    resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb(threadCount), maxOldGenerationSizeMb: 256 },
  });
  live++;
  let ending = false;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      live--;
      resolve();
    }),
  );
  const crashed = new Promise<never>((_, reject) => {
    worker.once('error', (err) => reject(new Error(`${name}'s worker failed: ${(err as Error).message}`)));
    worker.once('exit', (code) => {
      if (!ending) reject(new Error(`${name}'s worker exited unexpectedly (code ${code})`));
    });
  });
  crashed.catch(() => undefined);
  return {
    api: Comlink.wrap<RankApi>(nodeEndpoint(worker)),
    crashed,
    async terminate() {
      ending = true;
      await worker.terminate();
      await exited;
    },
  };
}

/**
 * `argv` without the flags that load tsx (`--import tsx`, `--import=tsx`, `--require tsx`, …): a
 * worker given them loads tsx's loader before its entry, about 0.15 CPU-s per worker (a world of 8 took
 * 0.9 s to start instead of 0.35; measured in test/README.md). The process's other flags stay.
 */
export function withoutTsx(argv: readonly string[]): string[] {
  const loads = /^(--import|--require|-r|--loader|--experimental-loader)$/;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (loads.test(flag)) {
      const value = inline ?? argv[i + 1] ?? '';
      if (/(^|[\\/])tsx([\\/]|$)/.test(value)) {
        if (inline === undefined) i++;
        continue;
      }
    }
    out.push(arg);
  }
  return out;
}

async function spawnWeb(name: string, entry: RankWorkerEntry): Promise<RankWorker> {
  const worker = entry.web(name);
  live++;
  let alive = true;
  const crashed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (ev: ErrorEvent) => {
      // Handled here: unhandled, a worker error would end a Deno process.
      ev.preventDefault();
      reject(new Error(`${name}'s worker failed: ${ev.message}`));
    });
  });
  crashed.catch(() => undefined);
  return {
    api: Comlink.wrap<RankApi>(worker),
    crashed,
    async terminate() {
      if (!alive) return;
      alive = false;
      worker.terminate();
      live--;
    },
  };
}
