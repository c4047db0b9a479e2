import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

// SharedArrayBuffer (the rank collectives) needs cross-origin isolation, in dev and preview alike.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** The modules a file imports statically: relative `import … from` and `export … from`, not types nor import(). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm)].map((m) =>
    resolve(dirname(file), m[1]!),
  );
}

/**
 * What the explorer's first picture runs: the modules that the page's own modules (the entry
 * src/ui/main.ts and the modules it imports, which route the page and define <grpo-explorer>)
 * import, transitively. Those page modules stay in the entry's chunk: the library and the lazy
 * views import this chunk too, and must not route the page or define the explorer.
 */
function firstPictureModules(entry: string): Set<string> {
  const page = new Set([entry, ...importsOf(entry)]);
  const found = new Set<string>();
  const visit = (file: string) => {
    if (found.has(file) || page.has(file)) return;
    found.add(file);
    for (const next of importsOf(file)) visit(next);
  };
  for (const file of page) for (const next of importsOf(file)) visit(next);
  return found;
}

const firstPicture = firstPictureModules(fileURLToPath(new URL('src/ui/main.ts', import.meta.url)));
const LIT = /[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit[\\/][^\\/]+)[\\/]/;

/**
 * V8's explicit compile hint on the first picture's chunks (the explorer chunk and the page's entry): their
 * functions are compiled while the file streams in, on a background thread, not one by one on the
 * main thread when the first render calls them (https://v8.dev/blog/explicit-compile-hints).
 */
function compileHints(): Plugin {
  return {
    name: 'grpo-compile-hints',
    apply: 'build',
    // After Vite's own generateBundle, which puts its preload helper's first line at the top of a chunk: the hint must be the file's first line.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          const page = chunk.type === 'chunk' && chunk.isEntry && chunk.facadeModuleId?.endsWith('/index.html');
          if (chunk.type === 'chunk' && (page || (!chunk.isEntry && chunk.name === 'explorer')))
            chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
        }
      },
    },
  };
}

/** Prints where the explorer is (`npm start`, `npm run preview`), with seed-000 preselected. */
function explorerUrl(): Plugin {
  const announce = (urls: { local: string[] } | null, log: (msg: string) => void) => {
    const url = urls?.local[0];
    if (url) log(`\n  grpo-sandbox explorer: ${url}?preset=seed-000  (cross-origin isolated: COOP/COEP sent)\n`);
  };
  return {
    name: 'grpo-explorer-url',
    configureServer(server) {
      server.httpServer?.once('listening', () => setTimeout(() => announce(server.resolvedUrls, (m) => server.config.logger.info(m))));
    },
    configurePreviewServer(server) {
      server.httpServer.once('listening', () => setTimeout(() => announce(server.resolvedUrls, (m) => server.config.logger.info(m))));
    },
  };
}

/** Under the dev server (`npm start`), /grpo-sandbox.js is the library's source, so public/embed.html works there too. */
function libraryInDev(): Plugin {
  return {
    name: 'grpo-library-in-dev',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url?.split('?')[0] === '/grpo-sandbox.js') req.url = '/src/ui/lib.ts';
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [explorerUrl(), libraryInDev(), compileHints()],
  server: {
    headers: isolation,
    // The Python environment of the bridge tests (.venv, ~35 000 files of torch and transformers) and training
    // runs' output are not the app's sources: without this the dev server's watcher walked every one of them,
    // and the first page load under `npm start` waited ~20 s for the stat calls and their garbage.
    watch: { ignored: ['**/.venv/**', '**/runs/**', '**/bench-results/**'] },
  },
  preview: { headers: isolation },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    rolldownOptions: {
      // The site (index.html) and the embeddable library: one build, shared chunks.
      // The library's entry keeps a fixed name so a page can load it with one tag:
      // <script type="module" src=".../grpo-sandbox.js">; its chunks are imported relative to it.
      input: { index: 'index.html', 'grpo-sandbox': 'src/ui/lib.ts' },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'grpo-sandbox' ? 'grpo-sandbox.js' : 'assets/[name]-[hash].js'),
        // What the explorer's first picture runs, in one chunk: one request instead of a dozen, which
        // a browser would queue behind its six connections per host (bench/README.md, ui-first).
        codeSplitting: { groups: [{ name: 'explorer', test: (id) => firstPicture.has(id) || LIT.test(id) }] },
      },
      // Without this the library entry's exports (exportFigure, isolationProblem …) could be tree-shaken away.
      preserveEntrySignatures: 'exports-only',
    },
  },
});
