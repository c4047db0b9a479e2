// One IntersectionObserver for every embedded view on a page: a view starts (its first build,
// its animation, its workers) when it comes within MARGIN of the viewport and pauses when it
// leaves it, so an article with five views costs nothing until the reader scrolls to them.
// The state is written to `data-grpo-lazy` (waiting → started ⇄ paused) so a page or a test can see it.

/** What the controller drives: the convention every grpo element follows. */
export interface Startable extends HTMLElement {
  start(): void;
  pause(): void;
}

/** How near the viewport (px, every side) a view starts. */
export const MARGIN = 200;

let observer: IntersectionObserver | null = null;
const watched = new WeakSet<Element>();

function changed(entries: IntersectionObserverEntry[]): void {
  for (const e of entries) {
    const el = e.target as Startable;
    if (e.isIntersecting) {
      if (el.dataset.grpoLazy === 'started') continue;
      el.dataset.grpoLazy = 'started';
      el.start();
    } else if (el.dataset.grpoLazy === 'started') {
      el.dataset.grpoLazy = 'paused';
      el.pause();
    }
  }
}

/** Starts `el` when it scrolls near, pauses it when it leaves (idempotent). */
export function watch(el: Startable): void {
  if (watched.has(el)) return;
  watched.add(el);
  el.dataset.grpoLazy ??= 'waiting';
  if (typeof IntersectionObserver === 'undefined') {
    // Nothing to observe with: start at once rather than never.
    el.dataset.grpoLazy = 'started';
    el.start();
    return;
  }
  observer ??= new IntersectionObserver(changed, { rootMargin: `${MARGIN}px` });
  observer.observe(el);
}

/** Stops watching `el` (it left the page); it is paused if it was running. */
export function unwatch(el: Startable): void {
  if (!watched.delete(el)) return;
  observer?.unobserve(el);
  if (el.dataset.grpoLazy === 'started') {
    el.dataset.grpoLazy = 'paused';
    el.pause();
  }
}

/**
 * Watches every element named in `tags` that is or will be in the document (for elements that
 * do not register themselves). Returns a function that stops looking for new ones.
 */
export function watchTags(tags: readonly string[], root: ParentNode & Node = document): () => void {
  const selector = tags.join(',');
  const take = (node: ParentNode) => {
    for (const el of node.querySelectorAll<HTMLElement>(selector)) if (isStartable(el)) watch(el);
  };
  const visit = (n: Node) => {
    if (!(n instanceof HTMLElement)) return;
    if (n.matches(selector) && isStartable(n)) watch(n);
    take(n);
  };
  take(root);
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      r.addedNodes.forEach(visit);
      r.removedNodes.forEach((n) => {
        if (n instanceof HTMLElement && n.matches(selector) && isStartable(n) && !n.isConnected) unwatch(n);
      });
    }
  });
  mo.observe(root, { childList: true, subtree: true });
  return () => mo.disconnect();
}

function isStartable(el: Element): el is Startable {
  const s = el as Partial<Startable>;
  return typeof s.start === 'function' && typeof s.pause === 'function';
}
