// What a view draws at its element's width: the content box's width in whole pixels, measured by a ResizeObserver
// while the host is on the page. One Lit reactive controller for every view whose figure fits its column.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class ElementWidth<T = number> implements ReactiveController {
  /** What `read` made of the last width measured; `initial` until the first measurement. */
  value: T;
  private readonly observer = new ResizeObserver(([entry]) => {
    const px = Math.floor(entry?.contentRect.width ?? 0);
    if (px <= 0) return;
    const value = this.read(px);
    if (value === this.value) return;
    this.value = value;
    this.host.requestUpdate();
  });

  /**
   * `read`: what the view keeps of a width in whole pixels (above 0), by default the width itself; the host updates
   * only when that changes. `target`: the element measured, by default the host.
   */
  constructor(
    private readonly host: ReactiveControllerHost & Element,
    initial: T,
    private readonly read: (px: number) => T = (px) => px as T,
    private readonly target: Element = host,
  ) {
    this.value = initial;
    host.addController(this);
  }

  hostConnected(): void {
    this.observer.observe(this.target);
  }

  hostDisconnected(): void {
    this.observer.disconnect();
  }
}
