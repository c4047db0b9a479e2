// Node entry of a rank's worker thread: registers tsx so the TypeScript rank program loads,
// whether the parent was started with `node --import tsx` (tests; the hook is then registered
// twice, which is harmless) or through bin/grpo-sandbox.js (which registers tsx in-process,
// and in-process hooks do not reach worker threads).
import { register } from 'tsx/esm/api';

register();
await import('./rank-worker.ts');
