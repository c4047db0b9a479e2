import { readFileSync } from 'node:fs';

/** Reads test/fixtures/<name> as JSON (works under Node and Deno). */
export function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as T;
}
