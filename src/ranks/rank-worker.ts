// The default entry of a rank's worker: the ranks' own programs (bench, dynamic, seeds) and any
// module given by URL. An application with programs of its own starts its worlds on its own entry
// (World.start's `worker`; src/train/rank-worker.ts for the training loop).
import { serveRank } from './serve.ts';

await serveRank();
