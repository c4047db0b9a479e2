#!/usr/bin/env node
// Entry point for `npx grpo-sandbox`: runs the TypeScript sources directly through tsx,
// so a fresh clone needs no build step. Deno runs the same entry: `deno run -A src/cli/bin.ts`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/bin.ts');
