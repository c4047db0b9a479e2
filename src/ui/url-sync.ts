// Keeps the address bar equal to the explorer's state (a Lit reactive controller): after every
// update of its host the state is written as a query string. A change of phase or preset made
// by the user is a new history entry (pushState), so Back steps back through them; every other
// change, and the phases a playing story passes through, replace the current entry. Back and
// Forward hand the entry's state to the host. Nothing is written before the host is ready.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { stateToSearch, type ExplorerState } from './url-state.ts';

export interface UrlSyncHost {
  /** The state to write now (phase, gather and speed as shown). */
  current(): ExplorerState;
  /** True while the story plays on its own (its phase changes are not steps of the user). */
  playing(): boolean;
  /** Back or Forward reached an entry: show its query string. */
  restore(search: string): void;
  /**
   * False while nothing is to be written yet: the explorer's first picture is on its way (writing the
   * address is a same-document navigation that costs the browser's main thread about 10 ms).
   */
  ready(): boolean;
}

/** Whether going from `a` to `b` is a step worth a history entry. */
export function isHistoryStep(a: ExplorerState, b: ExplorerState): boolean {
  return a.phase !== b.phase || a.preset !== b.preset;
}

export class UrlSync implements ReactiveController {
  private written: ExplorerState | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly app: UrlSyncHost,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('popstate', this.onPop);
  }

  hostDisconnected(): void {
    window.removeEventListener('popstate', this.onPop);
  }

  hostUpdated(): void {
    // While a guided tour is open (tour=…&step=…) the address is the tour's: its step says what is shown.
    if (!this.app.ready() || new URLSearchParams(location.search).has('tour')) return;
    const state = this.app.current();
    const search = `?${stateToSearch(state)}`;
    const previous = this.written;
    this.written = state;
    if (search === location.search) return;
    if (previous !== null && !this.app.playing() && isHistoryStep(previous, state)) history.pushState(null, '', search);
    else history.replaceState(null, '', search);
  }

  private readonly onPop = () => {
    if (new URLSearchParams(location.search).has('tour')) return;
    this.written = null;
    this.app.restore(location.search);
  };
}
