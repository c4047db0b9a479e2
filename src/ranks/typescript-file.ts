// Whether a program module given by URL is a TypeScript file, which Node must compile (or take
// bundled): asked by the world before it sends the URL (spawn.ts) and by a worker before it imports
// it (serve.ts). Its own module, so the worker does not import spawn.ts (and its Worker lines).

/** Whether `url` is a TypeScript file (`file:…/x.ts`, `.mts`, `.cts`). */
export function isTypeScriptFile(url: string): boolean {
  return url.startsWith('file:') && /\.[cm]?ts$/.test(new URL(url).pathname);
}
