import { defineConfig, type Plugin } from 'vite';

// SharedArrayBuffer (the rank collectives) needs cross-origin isolation, in dev and preview alike.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

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
  plugins: [explorerUrl(), libraryInDev()],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    rolldownOptions: {
      // The site (index.html) and the embeddable library (issue 16): one build, shared chunks.
      // The library's entry keeps a fixed name so a page can load it with one tag:
      // <script type="module" src=".../grpo-sandbox.js">; its chunks are imported relative to it.
      input: { index: 'index.html', 'grpo-sandbox': 'src/ui/lib.ts' },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'grpo-sandbox' ? 'grpo-sandbox.js' : 'assets/[name]-[hash].js'),
      },
      // Without this the library entry's exports (exportFigure, isolationProblem …) could be tree-shaken away.
      preserveEntrySignatures: 'exports-only',
    },
  },
});
