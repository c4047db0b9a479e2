// Builds a layout too big for the page's main thread and sends back its overview
// (src/core/layout/overview.ts), with a progress message per stage, so the page never freezes.
// The worker lives as long as its panel's configuration: it keeps the layout it built, so choosing
// another gather or zooming into a window of ranks and steps only re-bins (no second build).
import { buildLayout } from '../core/samplers/index.ts';
import { layoutOverview, type OverviewWindow } from '../core/layout/overview.ts';
import type { Layout, LayoutConfig } from '../core/layout/types.ts';

/** Where the worker is, as facts the panel words in the page's language. */
export type OverviewStage = { step: 'starting' } | { step: 'drawing' } | { step: 'counting'; prompts: number; ranks: number };

export type OverviewMessage =
  | { kind: 'progress'; stage: OverviewStage }
  | { kind: 'done'; overview: ReturnType<typeof layoutOverview>; ms: number }
  | { kind: 'error'; message: string };

/** What the panel asks: the configuration (the same for the worker's whole life), a gather and an optional zoom window. */
export interface OverviewRequest {
  config: LayoutConfig;
  gather: number;
  zoom?: Partial<OverviewWindow>;
}

const post = (m: OverviewMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

let built: { key: string; layout: Layout } | null = null;

self.onmessage = (ev: MessageEvent<OverviewRequest>) => {
  const t0 = performance.now();
  try {
    const key = JSON.stringify(ev.data.config);
    if (built?.key !== key) {
      post({ kind: 'progress', stage: { step: 'drawing' } });
      built = { key, layout: buildLayout(ev.data.config) };
    }
    const layout = built.layout;
    post({ kind: 'progress', stage: { step: 'counting', prompts: layout.config.datasetSize, ranks: layout.config.ranks } });
    const overview = layoutOverview(layout, ev.data.gather, undefined, undefined, ev.data.zoom);
    post({ kind: 'done', overview, ms: performance.now() - t0 }, [overview.counts.buffer]);
  } catch (e) {
    post({ kind: 'error', message: (e as Error).message });
  }
};
