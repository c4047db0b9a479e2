// When a page's first picture reached the screen. A requestAnimationFrame callback runs before its
// frame is painted, rastered, composited and presented (on a 2-core machine without a GPU that took
// about 150 ms: bench/README.md); the browser's own figure for the first frame with content on
// screen is Paint Timing's `first-contentful-paint`, the frame's presentation time.

/** Longest wait for the browser's report (a machine that is busy enough may take seconds). */
const REPORT_LIMIT_MS = 10_000;

/**
 * The time (ms after navigation start) at which the page's first contentful frame was presented, as
 * the browser reports it (`first-contentful-paint`), when that frame is the one begun at `frameMs` (a
 * requestAnimationFrame callback's `performance.now()`) or later; null where the browser reports no
 * paint timing, where an earlier frame had content (a page that painted before an embedded picture)
 * or where no report came within REPORT_LIMIT_MS.
 */
export function presentedAfter(frameMs: number): Promise<number | null> {
  if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint')) return Promise.resolve(null);
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      const paint = list.getEntriesByName('first-contentful-paint')[0];
      if (paint) finish(paint.startTime >= frameMs ? paint.startTime : null);
    });
    const timer = setTimeout(() => finish(null), REPORT_LIMIT_MS);
    const finish = (ms: number | null) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(ms);
    };
    observer.observe({ type: 'paint', buffered: true });
  });
}
