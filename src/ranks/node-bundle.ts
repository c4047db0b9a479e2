// Node only: the rank worker bundled into plain JavaScript (esbuild), so each of up to 256 worker
// threads starts without registering tsx. Through tsx every worker compiled the rank program's
// TypeScript itself: ~30 MB and 0.1–0.2 s CPU per worker, and a world of 256 never finished. The
// bundle is kept across processes in node_modules/.cache/grpo-sandbox/ by a fingerprint of the
// sources (bin/cached-bundle.js, the same cache as the CLI's), so a process builds it only after a
// source changed. Without esbuild or a writable cache folder, spawn.ts falls back to the tsx bootstrap.

interface CachedBundleModule {
  cachedBundle(entry: string, name: string, define?: Record<string, string>): Promise<string | null>;
}

/** Bundles by entry file (one per entry a process starts worlds on, and per program module given by URL). */
const bundles = new Map<string, Promise<URL | null>>();

/** A `file:` URL of the rank worker entry `entry` bundled, or null when it cannot be built here. */
export function rankWorkerBundle(entry: URL): Promise<URL | null> {
  return bundled(entry, { 'globalThis.GRPO_BUNDLED_RANK_WORKER': 'true' });
}

/**
 * A program module given by URL (a TypeScript file of rank programs: a test's, a user's), bundled into
 * plain JavaScript once in this process, or null when it cannot be built here. The bundled worker then
 * imports it as it is; without it every worker thread registered tsx to compile the module itself
 * (a 12-collective step of 8 ranks took 1.0 s instead of 0.1, most of it that).
 */
export function programBundle(module: URL): Promise<URL | null> {
  return bundled(module, {});
}

function bundled(entry: URL, define: Record<string, string>): Promise<URL | null> {
  let bundle = bundles.get(entry.href);
  if (!bundle) {
    bundle = build(entry, define).catch(() => null);
    bundles.set(entry.href, bundle);
  }
  return bundle;
}

async function build(entry: URL, define: Record<string, string>): Promise<URL | null> {
  // Variable specifiers keep Vite from bundling Node-only modules (or this file) into the browser build.
  const names = { url: 'node:url', process: 'node:process', cache: '../../bin/cached-bundle.js' };
  const { fileURLToPath, pathToFileURL } = (await import(/* @vite-ignore */ names.url)) as typeof import('node:url');
  const process = ((await import(/* @vite-ignore */ names.process)) as { default: NodeJS.Process }).default;
  if (process.env.GRPO_RANK_WORKER_TSX === '1') return null; // the slow path, for comparison (bench/ranks-world)
  const { cachedBundle } = (await import(/* @vite-ignore */ new URL(names.cache, import.meta.url).href)) as CachedBundleModule;
  const [dir, file] = fileURLToPath(entry).split(/[\\/]/).slice(-2) as [string, string];
  const name = `${dir}-${file.replace(/\.ts$/, '')}`; // ranks-rank-worker, train-worker
  const out = await cachedBundle(fileURLToPath(entry), name, define);
  return out ? pathToFileURL(out) : null;
}
