// The worker entry of training worlds: the ranks' own programs plus the training loop's, run as
// `builtin:train` (program.ts). The training code registers its program here, so src/ranks knows
// nothing of it; run.ts starts its worlds on this entry (worker.ts).
import { serveRank } from '../ranks/serve.ts';
import * as train from './program.ts';

await serveRank({ train });
