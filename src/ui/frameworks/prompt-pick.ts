// Which prompt's copies a figure lights: the one under the mouse, else the one tapped (kept in the host's `prompt`
// attribute, so a link holds it). One Lit reactive controller for every view whose bars or tiles carry data-prompt.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { promptAt } from './packing-figure.ts';

export class PromptPick implements ReactiveController {
  private hover: number | null = null;

  /** `read`/`write`: the host's `prompt` attribute (null: none tapped). */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly read: () => string | null,
    private readonly write: (value: string | null) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  /** A bar under a tap or click: its prompt is selected (again: unselected). */
  readonly onTap = (e: Event): void => {
    const p = promptAt(e);
    if (p !== null) this.write(this.read() === p ? null : p);
  };

  readonly onHover = (e: PointerEvent): void => {
    if (e.pointerType !== 'mouse') return;
    const p = promptAt(e);
    this.setHover(p === null ? null : Number(p));
  };

  readonly onLeave = (): void => this.setHover(null);

  /** The prompt whose copies are lit: the one under the mouse, else the one tapped. */
  shown(): number | null {
    if (this.hover !== null) return this.hover;
    const p = this.read();
    return p !== null && p !== '' && Number.isSafeInteger(Number(p)) ? Number(p) : null;
  }

  private setHover(p: number | null): void {
    if (p === this.hover) return;
    this.hover = p;
    this.host.requestUpdate();
  }
}
