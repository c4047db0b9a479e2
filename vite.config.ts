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

export default defineConfig({
  plugins: [explorerUrl()],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es' },
  build: { target: 'es2022' },
});
