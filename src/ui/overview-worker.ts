// Builds a layout too big for the page's main thread and sends back its overview
// (src/core/layout/overview.ts), with a progress message per stage, so the page never freezes.
import { buildLayout } from '../core/samplers/index.ts';
import { layoutOverview } from '../core/layout/overview.ts';
import type { LayoutConfig } from '../core/layout/types.ts';

export type OverviewMessage =
  | { kind: 'progress'; stage: string }
  | { kind: 'done'; overview: ReturnType<typeof layoutOverview>; ms: number }
  | { kind: 'error'; message: string };

const post = (m: OverviewMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

self.onmessage = (ev: MessageEvent<{ config: LayoutConfig; gather: number }>) => {
  const t0 = performance.now();
  try {
    post({ kind: 'progress', stage: 'drawing the permutations (the same PyTorch generator as the CLI)' });
    const layout = buildLayout(ev.data.config);
    post({
      kind: 'progress',
      stage: `counting copies of ${layout.config.datasetSize.toLocaleString('en-US')} prompts on ${layout.config.ranks.toLocaleString('en-US')} ranks`,
    });
    const overview = layoutOverview(layout, ev.data.gather);
    post({ kind: 'done', overview, ms: performance.now() - t0 }, [overview.counts.buffer]);
  } catch (e) {
    post({ kind: 'error', message: (e as Error).message });
  }
};
