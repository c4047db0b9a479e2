// `npm run bench [-- name ...]`: runs every bench/*.bench.ts (or those whose name contains
// one of the arguments). Each module's default export prints its own side-by-side table;
// figures are ratios measured in the same run, because these machines are noisy.
import { readdirSync } from 'node:fs';
import os from 'node:os';
import process from 'node:process';

const filters = process.argv.slice(2);
const dir = new URL('./', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
for (const file of files) {
  console.log(`\n## ${file.replace('.bench.ts', '')}`);
  const mod = (await import(new URL(file, dir).href)) as { default: () => Promise<void> | void };
  await mod.default();
}
process.exit(0);
