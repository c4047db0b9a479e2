// The explorer's keyboard shortcuts (a Lit reactive controller: listens while its host is
// connected). Space or k play/pause, ← → (j l) step, Home/End, 1…N jump to a phase (N = the
// story's phase count, at most 9), + − speed, Esc clears the highlight. Keys typed into a form
// control belong to that control; Esc there leaves the control. The focused picture handles its
// own arrow keys and Enter (layout-canvas.ts) before they reach these.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { StoryController } from './story-controller.ts';
import { speeds } from './url-state.ts';

export interface KeyboardActions {
  /** The speed the user stepped to with + or −. */
  speed(next: number): void;
  /** Esc: clear the selection. */
  escape(): void;
}

/** The speed one step up (+1) or down (−1) from `current` in `speeds`. */
export function stepSpeed(current: number, direction: 1 | -1): number {
  const i = speeds.indexOf(current as (typeof speeds)[number]);
  return speeds[Math.max(0, Math.min(speeds.length - 1, (i < 0 ? speeds.indexOf(1) : i) + direction))]!;
}

export class KeyboardController implements ReactiveController {
  constructor(
    host: ReactiveControllerHost,
    private readonly story: StoryController,
    private readonly actions: KeyboardActions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('keydown', this.onKey);
  }

  hostDisconnected(): void {
    window.removeEventListener('keydown', this.onKey);
  }

  private readonly onKey = (ev: KeyboardEvent) => {
    const target = ev.composedPath()[0] as HTMLElement | undefined;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) {
      // Esc leaves the field, so the shortcuts work again without reaching for the mouse.
      if (ev.key === 'Escape') {
        target.blur();
        ev.preventDefault();
      }
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // Space and Enter on a focused button activate that button, not the shortcut.
    if ((ev.key === ' ' || ev.key === 'Enter') && target?.tagName === 'BUTTON') return;
    const story = this.story;
    const digit = /^[1-9]$/.test(ev.key) ? Number(ev.key) : 0;
    let handled = true;
    if (ev.key === ' ' || ev.key === 'k') story.toggle();
    else if (ev.key === 'ArrowRight' || ev.key === 'l') story.forward();
    else if (ev.key === 'ArrowLeft' || ev.key === 'j') story.back();
    else if (ev.key === 'Home') story.jump(0);
    else if (ev.key === 'End') story.jump(story.phaseCount - 1);
    else if (digit > 0 && digit <= story.phaseCount) story.jump(digit - 1);
    else if (ev.key === '+' || ev.key === '=') this.actions.speed(stepSpeed(story.speed, 1));
    else if (ev.key === '-') this.actions.speed(stepSpeed(story.speed, -1));
    else if (ev.key === 'Escape') this.actions.escape();
    else handled = false;
    if (handled) ev.preventDefault();
  };
}
