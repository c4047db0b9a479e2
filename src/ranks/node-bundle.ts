// Node only: the rank worker bundled once per process into plain JavaScript (esbuild), so each
// of up to 256 worker threads starts without registering tsx. Through tsx every worker compiled
// the rank program's TypeScript itself: ~30 MB and 0.1–0.2 s CPU per worker, and a world of 256
// never finished. The bundle lives in node_modules/.cache/grpo-sandbox/ (bare specifiers such
// as comlink's Node adapter and tsx resolve from there) and is removed when the process exits.
// Without esbuild or a writable cache folder, spawn.ts falls back to the tsx bootstrap.

/** Bundles by entry file (one per entry a process starts worlds on). */
const bundles = new Map<string, Promise<URL | null>>();

/** A `file:` URL of the rank worker entry `entry` bundled, or null when it cannot be built here. */
export function rankWorkerBundle(entry: URL): Promise<URL | null> {
  let bundle = bundles.get(entry.href);
  if (!bundle) {
    bundle = build(entry).catch(() => null);
    bundles.set(entry.href, bundle);
  }
  return bundle;
}

async function build(entry: URL): Promise<URL | null> {
  // Variable specifiers keep Vite from bundling Node-only modules into the browser build.
  const names = { module: 'node:module', fs: 'node:fs', path: 'node:path', url: 'node:url', process: 'node:process' };
  const { createRequire } = (await import(/* @vite-ignore */ names.module)) as typeof import('node:module');
  const fs = (await import(/* @vite-ignore */ names.fs)) as typeof import('node:fs');
  const path = (await import(/* @vite-ignore */ names.path)) as typeof import('node:path');
  const { fileURLToPath, pathToFileURL } = (await import(/* @vite-ignore */ names.url)) as typeof import('node:url');
  const process = ((await import(/* @vite-ignore */ names.process)) as { default: NodeJS.Process }).default;
  if (process.env.GRPO_RANK_WORKER_TSX === '1') return null; // the slow path, for comparison (bench/ranks-world)

  const require = createRequire(import.meta.url);
  const esbuildPath = require.resolve('esbuild');
  const nodeModules = esbuildPath.slice(0, esbuildPath.lastIndexOf(`${path.sep}node_modules${path.sep}`) + '/node_modules'.length);
  const esbuild = (await import(/* @vite-ignore */ pathToFileURL(esbuildPath).href)) as typeof import('esbuild');
  const dir = path.join(nodeModules, '.cache', 'grpo-sandbox');
  fs.mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `rank-worker-${process.pid}-${Date.now()}.mjs`);
  await esbuild.build({
    entryPoints: [fileURLToPath(entry)],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Native or loader packages stay outside; they resolve from node_modules at run time.
    external: ['webgpu', 'tsx', 'tsx/*', 'esbuild'],
    define: {
      'globalThis.GRPO_BUNDLED_RANK_WORKER': 'true',
      // src/gpu/shaders.ts finds shaders/ from its own URL, which bundling moves: fix it here.
      'globalThis.GRPO_SHADERS_URL': JSON.stringify(new URL('../../shaders/', import.meta.url).href),
    },
    logLevel: 'silent',
  });
  process.once('exit', () => fs.rmSync(out, { force: true }));
  return pathToFileURL(out);
}
