// A test's temporary directory, removed when the test's process exits (Node and Deno alike), so a
// run of the suite leaves nothing behind in the system's temporary directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/** A fresh directory named `prefix` + random characters under the system's temporary directory. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  // Node emits the process's `exit`; Deno's test runner does not, and fires the global `unload` instead.
  process.on('exit', remove);
  (globalThis as { addEventListener?: (type: string, listener: () => void) => void }).addEventListener?.('unload', remove);
  return dir;
}
