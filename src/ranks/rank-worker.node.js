// Node entry of a rank's worker thread: registers tsx so the TypeScript rank program loads.
// Needed in every case: Node 20 worker threads do not inherit the parent's loader hooks, neither
// from `node --import tsx` (tests) nor from bin/grpo-sandbox.js's in-process register().
// The entry to load comes in workerData (spawn.ts): the ranks' default or an application's own.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData?.entry ?? './rank-worker.ts');
