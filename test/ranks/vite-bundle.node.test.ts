// Node-only: drives Vite's JavaScript build API (the browser path itself is tested in test/browser/ranks.test.ts).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('a production build bundles the rank worker (with its built-in programs) from the literal new Worker(new URL(...))', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'grpo-dist-bundle-'));
  after(() => rmSync(outDir, { recursive: true, force: true }));
  await build({
    configFile: false,
    root,
    logLevel: 'error',
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, copyPublicDir: false, lib: { entry: 'src/ranks/world.ts', formats: ['es'], fileName: 'world' } },
  });
  const assets = readdirSync(join(outDir, 'assets'));
  const worker = assets.find((f) => /^rank-worker-.*\.js$/.test(f));
  assert.ok(worker, `no rank-worker chunk among ${assets.join(', ')}`);
  const code = readFileSync(join(outDir, 'assets', worker), 'utf8');
  for (const name of ['skippedCollective', 'pooledStack', 'allGatherTimes'])
    assert.ok(code.includes(name), `${name} is bundled into the worker`);
  assert.match(readFileSync(join(outDir, 'world.js'), 'utf8'), /new Worker\(new URL\(/);
});
