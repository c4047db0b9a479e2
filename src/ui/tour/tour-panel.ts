// <grpo-tour-panel>: plays a guided tour (tours.ts) over the live views. Each step shows its
// text, pauses, then acts ("text, a pause, then the action"): it mounts the view the step needs in
// place of the one on the page (the explorer, or a view of views.ts) and sets what the steps so
// far set there (tour-state.ts). The address bar holds `tour=` and `step=` (pushState per step,
// so Back steps back); a link to step n opens there at once, as if steps 1…n had run. ← → step,
// Esc closes. While a tour is open the explorer leaves the address bar to it (url-sync.ts).
// The panel never covers what its step points at (the step's `target`): it docks at the foot of
// the window, the page gets that much room below its end, and the page scrolls the target into
// the free area above the panel (the panel folds to its header first when the target is taller,
// and docks beside it, in the page's margin, when even that is not enough). A change of the
// window's size (a phone turned, a window resized) places the step again from the start: docked at
// the foot and unfolded first, as if the step had opened at that size.
import { LitElement, css, html, nothing } from 'lit';
import type { ExplorerApp } from '../explorer-app.ts';
import type { TrainDashboard } from '../train/train-dashboard.ts';
import { VIEWS } from '../views.ts';
import { explorerSearch, readTourLink, stepState, tourSearch } from './tour-state.ts';
import { stepText, type Tour, tourNames, tourTitle, tourUi, type TourView } from './tours.ts';

/** The pause between a step's text and its action, at speed 1 (ms). */
export const PAUSE_MS = 1500;
/** How long a step waits for its target to appear (a run on the rank workers, a training run's result), ms. */
const TARGET_WAIT_MS = 180_000;
/** Gap kept between the target and the window's top or the panel (px). */
const GAP = 8;
/** The narrowest the panel docks beside a target (px). */
const SIDE_MIN = 240;

/** The first element matching `selector` in `root` or in any shadow root below it. */
export function deepQuery(root: ParentNode, selector: string): HTMLElement | SVGElement | null {
  const hit = root.querySelector<HTMLElement | SVGElement>(selector);
  if (hit) return hit;
  for (const el of root.querySelectorAll('*')) {
    if (!el.shadowRoot) continue;
    const inner = deepQuery(el.shadowRoot, selector);
    if (inner) return inner;
  }
  return null;
}

const VIEW_TAGS = ['grpo-explorer', ...Object.values(VIEWS).map((v) => v.tag)];
const tagOf = (view: TourView) => (view === 'explorer' ? 'grpo-explorer' : VIEWS[view]!.tag);

/** The page's `speed=` (0 < speed ≤ 8, as the explorer reads it): the pauses shrink with it. */
function speedOf(search: string): number {
  const s = Number(new URLSearchParams(search).get('speed'));
  return s > 0 && s <= 8 ? s : 1;
}

export class TourPanel extends LitElement {
  static override properties = {
    tour: { state: true },
    index: { state: true },
    stage: { state: true },
    unknown: { state: true },
    folded: { state: true },
    placed: { state: true },
    dock: { reflect: true },
  };

  declare tour: Tour | null;
  declare index: number;
  /** 'pause': the text is shown, the action waits; 'done': the action has been applied. */
  declare stage: 'pause' | 'done';
  declare unknown: string | null;
  /** Only the header and the buttons show (the reader's choice, or a target taller than the room above the panel). */
  declare folded: boolean;
  /** Where the step's target is: still awaited, in the free area above the panel ('yes'), or not ('no': taller than the room). */
  declare placed: 'pending' | 'yes' | 'no';
  /** Where the panel sits: at the window's foot, or beside a target too tall for the room above it (in the page's margin beside it). */
  declare dock: 'bottom' | 'left' | 'right';
  /** Folded by the reader (kept across steps), as against folded for one step's tall target. */
  private foldedByReader = false;
  private resize: ResizeObserver | null = null;
  /** The current step's target, once found. */
  private target: Element | null = null;
  /** Bumped by every search for the target (a step shown, the window resized): an older search stops. */
  private search = 0;

  /** Bumped by every step change: a pending action of an older step is dropped. */
  private token = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The element the current run of steps drives, and the index of that run's first step. */
  private segment: { from: number; el: HTMLElement } | null = null;
  /** Steps whose training run has been started on the segment's element. */
  private started = new Set<number>();

  static override styles = css`
    /* Docked at the foot of the window, as wide as a line is readable; the page gets the same room below its end (body padding). */
    :host { position: fixed; left: 0; right: 0; bottom: 0; z-index: 1000; display: flex; justify-content: center; pointer-events: none;
      font: 14px/1.5 system-ui, sans-serif; color: #1d1d1f; }
    section { pointer-events: auto; box-sizing: border-box; width: min(880px, calc(100vw - 16px)); margin: 0 8px 8px; max-height: 45vh; overflow: auto;
      background: #fff; border: 1px solid #4e79a7; border-radius: 10px; box-shadow: 0 6px 24px rgba(0, 0, 0, 0.18); padding: 10px 14px; }
    :host([dock='left']) { justify-content: flex-start; }
    :host([dock='right']) { justify-content: flex-end; }
    :host([dock='left']) section, :host([dock='right']) section { width: var(--tour-width); max-height: 70vh; }
    header .fold { margin-left: auto; border: 1px solid #bbb; background: #fff; border-radius: 4px; font-size: 12px; cursor: pointer;
      color: #333; padding: 0 6px; }
    section.folded h2, section.folded ol, section.folded p.text, section.folded nav .keys { display: none; }
    section.folded nav { margin-top: 6px; }
    @media (max-width: 600px) { nav .keys, ol { display: none; } section { padding: 8px 10px; } p.text { min-height: 0; } }
    header { display: flex; align-items: baseline; gap: 8px; font-size: 12px; color: #555; }
    header strong { color: #1f3b5a; text-transform: uppercase; letter-spacing: 0.04em; }
    header .close { margin-left: 0; border: none; background: none; font-size: 18px; line-height: 1; cursor: pointer; color: #555; padding: 0 4px; }
    h2 { font-size: 14px; margin: 4px 0 6px; font-weight: 650; }
    p.text { margin: 0 0 10px; min-height: 3em; }
    p.text.pause::after { content: ' …'; color: #4e79a7; }
    nav { display: flex; align-items: center; gap: 8px; }
    nav button { font: inherit; font-size: 13px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 3px 10px; cursor: pointer; }
    nav button:disabled { cursor: default; opacity: 0.5; }
    nav button:focus-visible, header .close:focus-visible { outline: 2px solid #4e79a7; outline-offset: 1px; }
    nav .keys { margin-left: auto; font-size: 11px; color: #777; }
    ol { display: flex; gap: 4px; list-style: none; margin: 0 0 8px; padding: 0; }
    ol li { width: 18px; height: 4px; border-radius: 2px; background: #d9dee6; }
    ol li.done { background: #4e79a7; }
  `;

  constructor() {
    super();
    this.tour = null;
    this.index = 0;
    this.stage = 'done';
    this.unknown = null;
    this.folded = false;
    this.placed = 'pending';
    this.dock = 'bottom';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('keydown', this.onKey, { capture: true });
    window.addEventListener('popstate', this.onPop);
    window.addEventListener('resize', this.onWindowResize);
    this.resize = new ResizeObserver(this.onResize);
    this.resize.observe(this);
    this.onPop();
  }

  override firstUpdated(): void {
    this.resize?.observe(this.renderRoot.querySelector('section')!);
  }

  override updated(): void {
    this.reserveRoom();
  }

  /** The page gets the panel's height of room below its end, so its foot can scroll above the panel. */
  private reserveRoom(): void {
    const box = this.renderRoot.querySelector('section')?.getBoundingClientRect();
    if (box) document.body.style.paddingBottom = `${Math.ceil(box.height) + 2 * GAP}px`;
  }

  /** The current step's target (the step's `target` inside the view on the page), or null. */
  findTarget(): Element | null {
    const step = this.tour?.steps[this.index];
    return step ? this.findIn(step.target) : null;
  }

  /** The first element matching `selector` in the view on the page (itself, or inside its shadow roots), or null: a step's target or a part its text cites. */
  findIn(selector: string): Element | null {
    const view = this.currentView();
    if (!view) return null;
    return view.matches(selector) ? view : deepQuery(view.shadowRoot ?? view, selector);
  }

  /** The target's box and the panel's, as the page shows them now (for tests and for placing). */
  boxes(): { target: DOMRect | null; panel: DOMRect } {
    return {
      target: this.findTarget()?.getBoundingClientRect() ?? null,
      panel: this.renderRoot.querySelector('section')!.getBoundingClientRect(),
    };
  }

  /** The panel or the target changed size: the panel's room below the page, and the target placed again. */
  private readonly onResize = () => {
    this.reserveRoom();
    if (this.target) this.place(this.target);
  };

  /**
   * The window changed size: the step is placed from the start (a dock beside the target, or a fold
   * for a tall one, chosen at the old size may be wrong at the new one: a phone turned to landscape
   * has room for the unfolded panel again).
   */
  private readonly onWindowResize = () => {
    this.reserveRoom();
    if (this.tour && this.stage === 'done') void this.awaitTarget(this.token);
  };

  /**
   * Scrolls the target into the free area above the panel: left alone when already there; else
   * its top a little below the window's top. A target taller than the free area folds the panel
   * to its header first.
   */
  private place(target: Element): void {
    const panel = this.renderRoot.querySelector('section');
    if (!panel) return;
    let box = target.getBoundingClientRect();
    if (this.dock !== 'bottom') {
      // Beside the target: its top near the window's top; the panel is out of its way sideways.
      if (box.top < GAP || box.top > innerHeight / 3) {
        window.scrollBy({ top: box.top - GAP, behavior: 'instant' });
        box = target.getBoundingClientRect();
      }
      const p = panel.getBoundingClientRect();
      this.placed = box.right <= p.left || box.left >= p.right ? 'yes' : 'no';
      return;
    }
    const free = () => panel.getBoundingClientRect().top - GAP;
    if (box.height > free() - GAP) {
      if (!this.folded) {
        this.folded = true;
        // The fold takes effect on the next render: place again then.
        void this.updateComplete.then(() => this.target === target && this.place(target));
        return;
      }
      // Taller than the room above even the folded panel: dock beside it, where the page leaves a margin wide enough.
      const width = document.documentElement.clientWidth;
      const left = box.left - 2 * GAP;
      const right = width - box.right - 2 * GAP;
      if (Math.max(left, right) >= SIDE_MIN) {
        this.dock = left >= right ? 'left' : 'right';
        this.style.setProperty('--tour-width', `${Math.floor(Math.min(460, Math.max(left, right)))}px`);
        this.folded = this.foldedByReader;
        void this.updateComplete.then(() => this.target === target && this.place(target));
        return;
      }
    }
    if (box.top < GAP || box.bottom > free()) {
      window.scrollBy({ top: box.top - GAP, behavior: 'instant' });
      box = target.getBoundingClientRect();
    }
    this.placed = box.top >= 0 && box.bottom <= free() + GAP ? 'yes' : 'no';
  }

  /** Waits for step `token`'s target to appear (polling, since it may live deep in a view's shadow roots), then places it. */
  private async awaitTarget(token: number): Promise<void> {
    const search = ++this.search;
    if (this.target) this.resize?.unobserve(this.target);
    this.target = null;
    this.placed = 'pending';
    this.dock = 'bottom';
    this.folded = this.foldedByReader;
    const until = performance.now() + TARGET_WAIT_MS;
    const current = () => token === this.token && search === this.search;
    while (current() && performance.now() < until) {
      const target = this.findTarget();
      const box = target?.getBoundingClientRect();
      if (target && box && box.height > 0) {
        // The view may still be laying out: wait for two frames with the same box.
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        if (!current()) return;
        const again = target.getBoundingClientRect();
        if (again.height === box.height && again.top === box.top) {
          this.target = target;
          this.resize?.observe(target);
          await this.updateComplete;
          if (current()) this.place(target);
          return;
        }
        continue;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.onKey, { capture: true });
    window.removeEventListener('popstate', this.onPop);
    window.removeEventListener('resize', this.onWindowResize);
    this.resize?.disconnect();
    document.body.style.paddingBottom = '';
    this.token++;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Next step: its text, a pause, then its action; a new history entry. */
  next(): void {
    if (this.tour && this.index < this.tour.steps.length - 1) this.go(this.index + 1, true);
  }

  /** The step before, shown at once (its text and its view state); a new history entry. */
  back(): void {
    if (this.tour && this.index > 0) this.go(this.index - 1, false);
  }

  /** Closes the tour: the view on screen stays, and the address becomes that view's own. */
  close(): void {
    this.token++;
    const p = new URLSearchParams(location.search);
    p.delete('tour');
    p.delete('step');
    const el = this.currentView();
    const explorer = el?.localName === 'grpo-explorer' ? (el as ExplorerApp) : null;
    if (el && !explorer) {
      const view = Object.entries(VIEWS).find(([, v]) => v.tag === el.localName)?.[0];
      if (view) p.set('view', view);
      for (const a of el.getAttributeNames()) if (!a.startsWith('data-') && a !== 'class' && a !== 'style') p.set(a, el.getAttribute(a)!);
    }
    history.replaceState(null, '', `${location.pathname}${p.size > 0 ? `?${p}` : ''}`);
    this.remove();
    // The explorer writes its whole state into the address again.
    explorer?.requestUpdate();
  }

  /** The tour and step the address names, shown at once (a link, Back or Forward). */
  private readonly onPop = () => {
    if (!new URLSearchParams(location.search).has('tour')) {
      this.remove();
      return;
    }
    const link = readTourLink(location.search);
    this.tour = link.tour;
    this.unknown = link.unknown;
    if (!link.tour) return;
    // The address names the step shown (`step=` written out when missing, clamped when past the end).
    const canonical = tourSearch(location.search, link.tour.id, link.index);
    if (canonical !== location.search) history.replaceState(null, '', canonical);
    void this.show(link.index, false);
  };

  private go(index: number, pause: boolean): void {
    history.pushState(null, '', tourSearch(location.search, this.tour!.id, index));
    void this.show(index, pause);
  }

  private async show(index: number, pause: boolean): Promise<void> {
    const token = ++this.token;
    if (this.timer) clearTimeout(this.timer);
    if (this.target) this.resize?.unobserve(this.target);
    this.target = null;
    this.placed = 'pending';
    this.index = index;
    document.title = `grpo-sandbox · ${tourUi().tour} ${this.tour!.id}`;
    if (pause) {
      this.stage = 'pause';
      await new Promise<void>((resolve) => {
        this.timer = setTimeout(resolve, PAUSE_MS / speedOf(location.search));
      });
      if (token !== this.token) return;
    }
    await this.act(index, pause, token);
    if (token !== this.token) return;
    this.stage = 'done';
    await this.awaitTarget(token);
  }

  /** The view on the page now (the explorer or one of the views). */
  private currentView(): HTMLElement | null {
    return document.querySelector<HTMLElement>(VIEW_TAGS.join(','));
  }

  /** Applies step `index`'s state: its view (mounted if another is shown), its settings, its runs. */
  private async act(index: number, animate: boolean, token: number): Promise<void> {
    const tour = this.tour!;
    const s = stepState(tour, index);
    const tag = tagOf(s.view);
    let el = this.currentView();
    // A new run of steps on a view gets a fresh element; the explorer is reused (a step gives its whole state).
    const fresh = !el || el.localName !== tag || (tag !== 'grpo-explorer' && (this.segment?.el !== el || this.segment.from !== s.from));
    if (fresh) {
      const next = document.createElement(tag);
      if (el) el.replaceWith(next);
      else document.body.prepend(next);
      el = next;
      this.started.clear();
    }
    this.segment = { from: s.from, el: el! };
    if (s.view === 'explorer') {
      await customElements.whenDefined(tag);
      (el as ExplorerApp).showState(explorerSearch(s.set, new URLSearchParams(location.search).get('speed')), animate && !fresh);
      return;
    }
    for (const key of s.keys) {
      if (key in s.set) {
        if (el!.getAttribute(key) !== s.set[key]) el!.setAttribute(key, s.set[key]!);
      } else el!.removeAttribute(key);
    }
    await VIEWS[s.view]!.load();
    await customElements.whenDefined(tag);
    if (token !== this.token || s.view !== 'train') return;
    const dashboard = el as TrainDashboard;
    await dashboard.updateComplete;
    if (token !== this.token) return;
    // Back before the step that started the run: the run is undone (stopped and cleared).
    if ([...this.started].some((i) => i > index)) {
      this.started.clear();
      await dashboard.resetRun();
    }
    for (const i of s.runs) {
      if (this.started.has(i)) continue;
      this.started.add(i);
      void dashboard.startRun();
    }
  }

  private readonly onKey = (ev: KeyboardEvent) => {
    const target = ev.composedPath()[0] as HTMLElement | undefined;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'ArrowRight') this.next();
    else if (ev.key === 'ArrowLeft') this.back();
    else if (ev.key === 'Escape') this.close();
    else return;
    // The tour's keys, not the explorer's story shortcuts underneath.
    ev.preventDefault();
    ev.stopImmediatePropagation();
  };

  override render() {
    const close = html`<button type="button" class="close" aria-label=${tourUi().close} title=${tourUi().close}
      @click=${() => this.close()}>×</button>`;
    const tour = this.tour;
    if (!tour)
      return html`<section role="region" aria-label=${tourUi().tour}><header><strong>${tourUi().tour}</strong>${close}</header>
        <p class="text unknown" role="status">${tourUi().unknown(this.unknown ?? '', tourNames)}</p></section>`;
    const n = tour.steps.length;
    const last = this.index === n - 1;
    const fold = html`<button type="button" class="fold" aria-expanded=${!this.folded} title=${this.folded ? tourUi().unfold : tourUi().fold}
      @click=${() => {
        this.foldedByReader = !this.folded;
        this.folded = this.foldedByReader;
      }}>${this.folded ? '▴' : '▾'}</button>`;
    return html`<section role="region" aria-label=${`${tourUi().tour} ${tour.id}`} data-tour=${tour.id} data-step=${this.index + 1}
      data-stage=${this.stage} data-placed=${this.placed} class=${this.folded ? 'folded' : ''}>
      <header><strong>${tourUi().tour} ${tour.id}</strong><span class="count">${tourUi().stepOf(this.index + 1, n)}</span>${fold}${close}</header>
      <h2>${tourTitle(tour.id)}</h2>
      <ol aria-hidden="true">${tour.steps.map((_, i) => html`<li class=${i <= this.index ? 'done' : ''}></li>`)}</ol>
      <p class="text ${this.stage}" aria-live="polite">${stepText(tour.id, this.index)}${
        last && this.stage === 'done' ? html` <em>${tourUi().end}</em>` : nothing
      }</p>
      <nav>
        <button type="button" class="back" ?disabled=${this.index === 0} @click=${() => this.back()}>${tourUi().back}</button>
        <button type="button" class="next" ?disabled=${last} @click=${() => this.next()}>${tourUi().next}</button>
        <span class="keys">${tourUi().keys}</span>
      </nav>
    </section>`;
  }
}

if (!customElements.get('grpo-tour-panel')) customElements.define('grpo-tour-panel', TourPanel);

declare global {
  interface HTMLElementTagNameMap {
    'grpo-tour-panel': TourPanel;
  }
}
