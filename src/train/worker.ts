// Where training worlds' rank workers start (World.start's `worker`): rank-worker.ts, the ranks'
// entry with the training program added. The Worker line is written literally so Vite bundles the
// entry for the browser.
import type { RankWorkerEntry } from '../ranks/spawn.ts';

export const TRAIN_WORKER: RankWorkerEntry = {
  url: new URL('./rank-worker.ts', import.meta.url),
  web: (name) => new Worker(new URL('./rank-worker.ts', import.meta.url), { type: 'module', name }),
};
