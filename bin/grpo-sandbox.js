#!/usr/bin/env node
// Entry point for `npx grpo-sandbox`: runs the CLI bundled into plain JavaScript and cached across
// runs (bin/cached-bundle.js: rebuilt when a source changes), so a start compiles nothing; where it
// cannot be built (no esbuild, a read-only node_modules) the TypeScript sources run through tsx.
// A fresh clone needs no build step either way. GRPO_CLI_TSX=1 forces tsx. Deno runs the same
// entry: `deno run -A src/cli/bin.ts`.
import { pathToFileURL } from 'node:url';
import { cliBundle } from './cached-bundle.js';

const bundle = process.env.GRPO_CLI_TSX === '1' ? null : await cliBundle();
if (bundle) await import(pathToFileURL(bundle).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/bin.ts');
}
