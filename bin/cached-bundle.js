// TypeScript entries bundled into plain JavaScript (esbuild) and kept across processes, so that
// starting the CLI or a rank worker compiles nothing: through tsx every start compiled the
// TypeScript it imported (about 1.2 s per CLI start on a 2-core machine, 0.1–0.2 s per worker).
// A bundle lives in node_modules/.cache/grpo-sandbox/ (bare specifiers resolve from there), named
// by a fingerprint of everything it is built from: the paths, sizes and modification times of
// src/**, package.json and the installed packages' lock, the entry and the build options. A
// changed source gives a new name, so a stale bundle is never run; the first start after a change
// builds it (about 1 s) and writes it atomically (other processes may be building the same one).
// Each module keeps its own `import.meta.url` (rewritten to its source file's URL), so what it finds
// from it (shaders/, read at run time; the rank worker's entry; uplot's files) is the same as under
// tsx. Without esbuild or a writable cache folder, `cachedBundle` returns null and callers use tsx.
// Used by bin/grpo-sandbox.js (the CLI), src/ranks/node-bundle.ts (the rank worker) and
// scripts/test.js (the CLI tests).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles older than this, of an entry whose sources have changed since, are removed (ms). */
const STALE_MS = 60 * 60 * 1000;

/** Appends every file under `dir` (path, size, mtime) to `parts`, in a stable order. */
function listTree(dir, parts) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) listTree(path, parts);
    else addFile(path, parts);
  }
}

function addFile(path, parts) {
  try {
    const s = statSync(path);
    parts.push(`${path}\t${s.size}\t${s.mtimeMs}`);
  } catch {
    parts.push(`${path}\tmissing`);
  }
}

/** A short hash of what a bundle of `entry` with `options` is built from. */
export function fingerprint(entry, options) {
  const parts = [process.version, entry, JSON.stringify(options)];
  listTree(join(root, 'src'), parts);
  addFile(join(root, 'package.json'), parts);
  addFile(join(root, 'node_modules', '.package-lock.json'), parts);
  addFile(fileURLToPath(import.meta.url), parts);
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

/** Keeps `import.meta.url` per module: the URL of the source file it was written in. */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/**
 * The path of `entry` bundled, built now if no bundle of the current sources exists; null when it
 * cannot be built here (no esbuild, a read-only node_modules, a build error). `name` names the
 * bundle's file; `define` is esbuild's. An entry outside src/ (an application's own rank worker)
 * may import files the fingerprint does not cover: it is built for this process only, and removed
 * when the process exits.
 */
export async function cachedBundle(entry, name, define = {}) {
  try {
    const dir = join(root, 'node_modules', '.cache', 'grpo-sandbox');
    const cacheable = entry.startsWith(join(root, 'src') + sep);
    const out = join(dir, `${name}-${cacheable ? fingerprint(entry, define) : `${process.pid}-${Date.now()}`}.mjs`);
    if (cacheable)
      try {
        statSync(out);
        return out;
      } catch {}
    else process.once('exit', () => rmSync(out, { force: true }));
    const require = createRequire(import.meta.url);
    const esbuild = await import(pathToFileURL(require.resolve('esbuild')).href);
    mkdirSync(dir, { recursive: true });
    const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
    await esbuild.build({
      entryPoints: [entry],
      outfile: tmp,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // Native or loader packages stay outside; they resolve from node_modules at run time.
      external: ['webgpu', 'tsx', 'tsx/*', 'esbuild'],
      // CommonJS packages bundled into an ES module (yaml's Node build) require Node's builtins:
      // esbuild's shim calls the module's own `require`, made here.
      banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
      define,
      plugins: [ownImportMetaUrl],
      logLevel: 'silent',
    });
    renameSync(tmp, out);
    removeStale(dirname(out), name, out);
    return out;
  } catch {
    return null;
  }
}

/** Removes `name`'s other bundles (and left-over partial builds) not touched for an hour. */
function removeStale(dir, name, keep) {
  const now = Date.now();
  for (const f of readdirSync(dir)) {
    const path = join(dir, f);
    if (path === keep || !(f.startsWith(`${name}-`) || f.endsWith('.tmp'))) continue;
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {}
  }
}

/** The CLI (src/cli/bin.ts) bundled, or null. */
export function cliBundle() {
  return cachedBundle(join(root, 'src', 'cli', 'bin.ts'), 'cli');
}
