// Says when a figure or table is wider than its box (on a phone: the schedule's Gantt charts and
// table, the dynamic view's figure, the steps timeline, the optimum's columns): the box gets
// `data-scrolls` with the side(s) that hold more ("right", "left", "both"), a line above the content
// that stays in view while it scrolls ("↔ wider than the screen: scroll sideways"), and a shadow on
// each side that holds more. A reactive controller: after each update of its host, and when a box
// is resized or scrolled, it measures the boxes that match its selector.
import { css, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { M } from './i18n/index.ts';

/** The side(s) of a box whose content continues past it, or null when it all fits. */
export function hiddenSides(box: { scrollWidth: number; clientWidth: number; scrollLeft: number }): 'left' | 'right' | 'both' | null {
  const more = box.scrollWidth - box.clientWidth;
  if (more <= 1) return null;
  const left = box.scrollLeft > 1;
  const right = box.scrollLeft < more - 1;
  return left && right ? 'both' : left ? 'left' : right ? 'right' : null;
}

/** The hint's line and shadows, for any box the controller marks (add to the host's styles). */
export const scrollHintStyles = css`
  [data-scrolls]::before {
    content: attr(data-hint);
    display: block;
    position: sticky;
    left: 0;
    width: max-content;
    max-width: 100%;
    font: 12px/1.6 system-ui, sans-serif;
    color: #555;
  }
  [data-scrolls='right'] { box-shadow: inset -10px 0 8px -8px rgba(0, 0, 0, 0.35); }
  [data-scrolls='left'] { box-shadow: inset 10px 0 8px -8px rgba(0, 0, 0, 0.35); }
  [data-scrolls='both'] { box-shadow: inset -10px 0 8px -8px rgba(0, 0, 0, 0.35), inset 10px 0 8px -8px rgba(0, 0, 0, 0.35); }
`;

export class ScrollHint implements ReactiveController {
  private readonly resize = new ResizeObserver((entries) => {
    for (const e of entries) this.mark(e.target as HTMLElement);
  });
  private watched = new WeakSet<Element>();
  /** Ends the boxes' scroll listeners when the host leaves the page. */
  private listening = new AbortController();

  constructor(
    private readonly host: ReactiveControllerHost & { renderRoot: ParentNode },
    private readonly selector: string,
  ) {
    host.addController(this);
  }

  hostUpdated(): void {
    for (const box of this.host.renderRoot.querySelectorAll<HTMLElement>(this.selector)) {
      if (!this.watched.has(box)) {
        this.watched.add(box);
        this.resize.observe(box);
        // The content may change size without the box doing so (a new figure of the same box width).
        if (box.firstElementChild) this.resize.observe(box.firstElementChild);
        box.addEventListener('scroll', () => this.mark(box), { passive: true, signal: this.listening.signal });
      }
      this.mark(box);
    }
  }

  hostDisconnected(): void {
    // A host moved in the page is connected again: its boxes are observed afresh then.
    this.resize.disconnect();
    this.listening.abort();
    this.listening = new AbortController();
    this.watched = new WeakSet();
  }

  private mark(el: Element): void {
    const box = el.matches(this.selector) ? (el as HTMLElement) : (el.parentElement as HTMLElement | null);
    if (!box) return;
    const sides = hiddenSides(box);
    if (sides === null) {
      box.removeAttribute('data-scrolls');
      return;
    }
    box.setAttribute('data-scrolls', sides);
    box.setAttribute('data-hint', M().lang.scrollHint);
  }
}
