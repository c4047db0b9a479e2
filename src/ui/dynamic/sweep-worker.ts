// The sparsity sweep off the main thread: core's runSweep runs thousands of in-process steps
// whose collectives resolve as microtasks, so on the page's thread it would never yield and the
// page would freeze. This worker runs it and posts progress (at most every 100 ms) and the result.
import { runSweep, type SweepConfig } from '../../core/dynamic/index.ts';

export type SweepMessage =
  | { type: 'progress'; units: number; totalUnits: number }
  | { type: 'done'; result: Awaited<ReturnType<typeof runSweep>>; ms: number }
  | { type: 'error'; message: string };

self.onmessage = async (e: MessageEvent<SweepConfig>) => {
  const post = (m: SweepMessage) => (self as unknown as Worker).postMessage(m);
  const t0 = performance.now();
  let last = 0;
  try {
    const result = await runSweep(e.data, (p) => {
      const now = performance.now();
      if (now - last < 100) return;
      last = now;
      post({ type: 'progress', units: p.units, totalUnits: p.totalUnits });
    });
    post({ type: 'done', result, ms: performance.now() - t0 });
  } catch (err) {
    post({ type: 'error', message: (err as Error).message });
  }
};
