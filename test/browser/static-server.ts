// A plain static file server over a `vite build` output, as a static host would serve it: no
// Vite. `isolated` sends the COOP/COEP headers that SharedArrayBuffer needs (vite.config.ts sends
// the same in dev and preview); without them the page is an ordinary, non-isolated site.
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

/** Content types by extension. `.ts`: the test build names the modules that tests import in the page after their sources. */
const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.ts': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
};

export const isolationHeaders = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export interface StaticServer {
  /** Base URL without a trailing slash, e.g. `http://localhost:41234`. */
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Send COOP/COEP with every response. */
  isolated: boolean;
  /** A path without a file extension that names no file gets index.html (a single-page site, as `vite preview` does). */
  spaFallback?: boolean;
  /** Extra pages by path (e.g. `/frame.html`), served with the same headers. */
  pages?: Record<string, string>;
}

/** Serves `dir` on a free port of localhost (a secure context, so WebGPU works). */
export async function serveDir(dir: string, { isolated, spaFallback = false, pages = {} }: ServeOptions): Promise<StaticServer> {
  const headers = isolated ? isolationHeaders : {};
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const page = pages[path];
    if (page !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/html', ...headers });
      res.end(page);
      return;
    }
    let file = join(dir, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (spaFallback && !existsSync(file) && extname(path) === '') file = join(dir, 'index.html');
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404, headers);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', ...headers });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
