// The worker entry of training worlds: the ranks' own programs plus the training loop's, run as
// `builtin:train` (program.ts). The training code registers its program here, so src/ranks knows
// nothing of it; run.ts starts its worlds on this entry (worker.ts).
import { serveKernelHelper } from '../ops/fast/kernel-helper.ts';
import { joinKernelHelpers } from '../ops/fast/kernel-team.ts';
import { serveRank } from '../ranks/serve.ts';
import * as train from './program.ts';

// Helper threads (World.start's `helpers`) run rows of the fast matmul's large products.
await serveRank({ train }, { serve: serveKernelHelper, join: joinKernelHelpers });
