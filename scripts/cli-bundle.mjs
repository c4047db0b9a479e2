// The CLI bundled into one JavaScript file (esbuild), for the test suite only. Through
// bin/grpo-sandbox.js every run registers tsx and compiles the TypeScript it imports: about
// 1.2 s per run on a 2-core machine, against 0.2 s for the bundle, and the CLI tests make several
// hundred runs. Each module keeps its own `import.meta.url` (rewritten to its source file's URL),
// so the paths it finds from it (shaders/, the rank worker's entry, uplot's files) are the same as
// through tsx. bin/grpo-sandbox.js stays what users run, and tests that spawn it by name still do.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Keeps `import.meta.url` per module: the URL of the .ts file it was written in. */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** Builds the bundle and returns its path; it is removed when this process exits. */
export async function buildCliBundle() {
  const dir = join(root, 'node_modules', '.cache', 'grpo-sandbox');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `cli-${process.pid}.mjs`);
  await esbuild.build({
    entryPoints: [join(root, 'src/cli/bin.ts')],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Native or loader packages stay outside; they resolve from node_modules at run time.
    external: ['webgpu', 'tsx', 'tsx/*', 'esbuild'],
    plugins: [ownUrl],
    logLevel: 'silent',
  });
  process.once('exit', () => rmSync(out, { force: true }));
  return out;
}
