// Node entry of a rank's worker thread: registers tsx so the TypeScript rank program loads.
// Needed in every case: Node 20 worker threads do not inherit the parent's loader hooks, neither
// from `node --import tsx` (tests) nor from bin/grpo-sandbox.js's in-process register().
import { register } from 'tsx/esm/api';

register();
await import('./rank-worker.ts');
