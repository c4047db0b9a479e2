// The views besides the explorer, listed once: each one's element and module. The page routes
// `?view=…` to them (view-route.ts), the embeddable library defines them all (lib.ts), and the
// tours mount them (tour/tour-panel.ts). No side effects: importing this list routes nothing.

/** Each view: its element and its module (a dynamic import, a separate chunk in the build). */
export const VIEWS: Record<string, { tag: string; load: () => Promise<unknown> }> = {
  train: { tag: 'grpo-train', load: () => import('./train/train-dashboard.ts') },
  schedule: { tag: 'grpo-schedule', load: () => import('./schedule/schedule-view.ts') },
  dynamic: { tag: 'grpo-dynamic', load: () => import('./dynamic/dynamic-view.ts') },
  steps: { tag: 'grpo-steps', load: () => import('./steps/steps-view.ts') },
};

/** The view a URL asks for, or null for the explorer (no `view`, or one this page does not have). */
export function viewOf(search: string): string | null {
  const view = new URLSearchParams(search).get('view');
  return view !== null && Object.hasOwn(VIEWS, view) ? view : null;
}
