// Loads WGSL from shaders/*.wgsl, the same way in every runtime and with no build step:
// the file's URL is `new URL('../../shaders/<name>.wgsl', import.meta.url)`.
//   Node and Deno: a file: URL, read with node:fs.
//   Browser (Vite dev server or build): an http(s) URL; Vite serves the file in dev and, because
//   the URL is a `new URL(template, import.meta.url)` expression, emits every matching .wgsl as
//   an asset in a build. Read with fetch.
// A line `//#include other.wgsl` is replaced by that file (once per shader), so helpers such as
// Philox live in one file and WGSL stays valid WGSL (the directive is a comment).

const cache = new Map<string, Promise<string>>();

/** The URL of shaders/<name>.wgsl relative to this module. */
export function shaderUrl(name: string): URL {
  // Bundles (bin/cached-bundle.js) keep each module's own import.meta.url, so this holds there too.
  return new URL(`../../shaders/${name}.wgsl`, import.meta.url);
}

async function readText(url: URL): Promise<string> {
  if (url.protocol === 'file:') {
    const fsName = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    return fs.readFile(url, 'utf8');
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`cannot load shader ${url.href}: HTTP ${res.status}`);
  return res.text();
}

async function expand(name: string, seen: Set<string>): Promise<string> {
  const out: string[] = [];
  for (const line of (await readText(shaderUrl(name))).split('\n')) {
    const m = /^\s*\/\/#include\s+([\w-]+)\.wgsl\s*$/.exec(line);
    if (!m) {
      out.push(line);
      continue;
    }
    const dep = m[1]!;
    if (seen.has(dep)) continue;
    seen.add(dep);
    out.push(`// ---- ${dep}.wgsl`, await expand(dep, seen), `// ---- end of ${dep}.wgsl`);
  }
  return out.join('\n');
}

/** The source of shaders/<name>.wgsl with its includes expanded (cached per name). */
export function loadShader(name: string): Promise<string> {
  let text = cache.get(name);
  if (!text) {
    text = expand(name, new Set([name]));
    cache.set(name, text);
  }
  return text;
}
