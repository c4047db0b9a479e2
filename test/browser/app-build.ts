// The two production builds the browser tests load (built once per run by scripts/test.js, or
// once per test file when a file runs alone):
// - the site exactly as `npm run build` makes it (static-build and embed tests check that artifact);
// - the test app: the same config plus the test pages (test/browser/pages/*.html) and, as extra
//   entries, every module a test loads in the page by its source path (`import('/src/ranks/spawn.ts')`,
//   or a module URL given to the rank workers).
//   Each such entry is emitted under its source path, so `/src/ranks/spawn.ts` is a URL of the
//   build, and the app's own chunks import that same file: the test and the page share one module
//   instance (one list of live rank workers, one custom-element registry).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, mergeConfig, type UserConfig } from 'vite';
import siteConfig from '../../vite.config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), suffix) : e.name.endsWith(suffix) ? [join(dir, e.name)] : [],
  );
}

/** Source paths (`src/ranks/spawn.ts`) that browser tests and benches load in the page or its workers, as quoted absolute paths. */
export function inPageModules(): string[] {
  const found = new Set<string>();
  for (const file of [...files(join(root, 'test/browser'), '.ts'), ...files(join(root, 'bench'), '.ts')]) {
    // `import('/src/ranks/spawn.ts')`, and also module URLs handed to workers (`new URL('/test/ranks/programs.ts', …)`).
    for (const m of readFileSync(file, 'utf8').matchAll(/'\/((?:src|test)\/[^'\s]+\.ts)'/g)) found.add(m[1]!);
  }
  return [...found].sort();
}

/** `npm run build`: the site and the embeddable library, nothing else. */
export async function buildSite(outDir: string): Promise<void> {
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
}

/** The site plus the test pages and the in-page modules (see the top of this file). */
export async function buildTestApp(outDir: string): Promise<void> {
  const modules = inPageModules();
  const pages = files(join(root, 'test/browser/pages'), '.html').map((f) => relative(root, f));
  const input = Object.fromEntries([...modules, ...pages].map((p) => [p.replace(/\.(ts|html)$/, ''), p]));
  const names = new Set(modules.map((m) => m.replace(/\.ts$/, '')));
  const siteOutput = siteConfig.build?.rolldownOptions?.output;
  const siteEntryName = (!Array.isArray(siteOutput) && siteOutput?.entryFileNames) || 'assets/[name]-[hash].js';
  const config = mergeConfig(siteConfig, {
    root,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      rolldownOptions: {
        input,
        output: {
          entryFileNames: (chunk) =>
            names.has(chunk.name) ? `${chunk.name}.ts` : typeof siteEntryName === 'function' ? siteEntryName(chunk) : siteEntryName,
        },
      },
    },
  } satisfies UserConfig);
  await build({ ...config, configFile: false });
}
