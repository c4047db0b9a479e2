// The views besides the explorer, listed once: each one's element and module. The page routes
// `?view=…` to them (view-route.ts), the embeddable library defines them all (lib.ts), and the
// tours mount them (tour/tour-panel.ts). No side effects: importing this list routes nothing.

/** The views' names (`?view=…`): a table keyed by them (the catalogues' tab titles) must name every view. */
export type ViewName = 'train' | 'schedule' | 'dynamic' | 'steps' | 'async' | 'advantages' | 'framework';

/** Each view: its element and its module (a dynamic import, a separate chunk in the build). */
export const VIEWS: Record<ViewName, { tag: string; load: () => Promise<unknown> }> = {
  train: { tag: 'grpo-train', load: () => import('./train/train-dashboard.ts') },
  schedule: { tag: 'grpo-schedule', load: () => import('./schedule/schedule-view.ts') },
  dynamic: { tag: 'grpo-dynamic', load: () => import('./dynamic/dynamic-view.ts') },
  steps: { tag: 'grpo-steps', load: () => import('./steps/steps-view.ts') },
  async: { tag: 'grpo-async', load: () => import('./async/async-view.ts') },
  advantages: { tag: 'grpo-advantages', load: () => import('./compare/advantages-view.ts') },
  framework: { tag: 'grpo-framework', load: () => import('./frameworks/framework-view.ts') },
};

/** The view a URL asks for, or null for the explorer (no `view`, or one this page does not have). */
export function viewOf(search: string): ViewName | null {
  const view = new URLSearchParams(search).get('view');
  return view !== null && Object.hasOwn(VIEWS, view) ? (view as ViewName) : null;
}
