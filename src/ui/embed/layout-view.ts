// <grpo-layout> and <grpo-compare>: the explorer's layout picture and story for one
// configuration, configured by attributes named like the explorer's URL keys
// (`<grpo-layout preset="seed-000" phase="scatter">`, `ranks`, `k`, `regroup`, `compare` …).
// The attributes are read exactly as a link would be (parseState of url-state.ts) and drawn by the
// explorer's own pieces (deriveView, <grpo-layout-canvas>, <grpo-story-controls>, the captions);
// this file only wires them for a page that is not the explorer. Nothing is built until the lazy
// loader (lazy.ts) calls start(), when the element scrolls near; pause() stops the story playing.
import { M, section, whenCatalogue } from '../i18n/index.ts';
import { LitElement, css, html, nothing } from 'lit';
import { defaultConfig } from '../../core/samplers/index.ts';
import { presets } from '../../core/presets.ts';
import { LAYOUT_SETTINGS } from '../../core/settings.ts';
import { regroupMethods } from '../../core/layout/regroup.ts';
import { deriveView, type ExplorerView } from '../explorer-model.ts';
import { parseState, stateToSearch, speeds, type ExplorerState } from '../url-state.ts';
import { caption, phaseIds, phaseTitles } from '../story.ts';
import { StoryController } from '../story-controller.ts';
import { errorText, withCode } from '../core-text.ts';
import { checkView } from '../view-budget.ts';
import type { LayoutCanvas } from '../layout-canvas.ts';
import type { StoryAction } from '../story-controls.ts';
import type { LayoutConfig } from '../../core/layout/types.ts';
import { paintFigure, type FigurePicture } from './layout-figure.ts';
import type { PaintContext } from './svg-context.ts';
import { watch, unwatch } from './lazy.ts';
import { explorerUrl } from './base.ts';
import '../layout-canvas.ts';
import '../story-controls.ts';
import './export-control.ts';

const MSG = section('embed');

/**
 * The attributes read (the explorer's URL keys); `autoplay` plays the story once started; `figure`
 * shows an article's figure: the caption, the picture and one button (the next phase), no settings or export.
 */
export const layoutAttributes = [
  'preset',
  ...LAYOUT_SETTINGS.map((s) => s.param),
  'phase',
  'gather',
  'regroup',
  'compare',
  'rewards',
  'scale',
  'speed',
  'prompt',
] as const;

const label = (m: ExplorerState['regroup']) => MSG.regrouped(M().core.regroup[m] ?? regroupMethods.find((r) => r.method === m)?.label ?? m);

export class GrpoLayout extends LitElement {
  static override properties = { started: { state: true }, state: { state: true } };
  static override get observedAttributes(): string[] {
    // biome-ignore lint/complexity/noThisInStatic: Lit's getter must run for this class (it finalises its properties)
    return [...super.observedAttributes, ...layoutAttributes, 'autoplay', 'figure'];
  }

  declare started: boolean;
  declare state: ExplorerState;
  readonly story: StoryController;
  /** `compare` when the attributes name none (<grpo-compare> shows two pictures by default). */
  protected defaultCompare: ExplorerState['regroup'] | null = null;
  private resumeOnStart = false;
  private cached: { key: string; view: ExplorerView } | null = null;

  static override styles = css`
    :host { display: block; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #1d1d1f; background: #fff;
      border: 1px solid #e2e2dc; border-radius: 8px; padding: 10px 12px; }
    .waiting { min-height: 240px; display: grid; place-items: center; color: #595959; }
    .caption { margin: 8px 0; min-height: 3em; }
    .caption strong { display: block; font-size: 12px; text-transform: uppercase; letter-spacing: 0.05em; color: #666; }
    .warn, .stale { color: #8b1a1a; font-size: 13px; }
    .notice { border: 1px solid #4e79a7; background: #eef3f9; border-radius: 6px; padding: 4px 10px; font-size: 13px; color: #1f3b5a; }
    .notice ul { margin: 2px 0; padding-left: 18px; }
    /* Side by side while each picture has 560 px (a group of 2k with its tiles' values), else one above the other. */
    .pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 560px), 1fr)); gap: 12px; }
    figure { margin: 0; min-width: 0; }
    figcaption { font-size: 12px; font-weight: 600; color: #333; margin-bottom: 4px; }
    .compare-text { margin: 0 0 8px; font-size: 14px; border-left: 3px solid #b07aa1; padding-left: 8px; }
    footer button.next { font: inherit; font-size: 13px; border: 1px solid #4e79a7; background: #fff; color: #1f3b5a; border-radius: 4px;
      padding: 4px 12px; cursor: pointer; }
    footer { display: flex; flex-wrap: wrap; gap: 8px; justify-content: space-between; align-items: center; margin-top: 8px; font-size: 12px; }
  `;

  constructor() {
    super();
    this.started = false;
    this.state = this.readAttributes();
    this.story = new StoryController(
      this,
      phaseIds.length,
      (phase, progress) => this.showAll(phase, progress),
      () => {
        this.dataset.phase = phaseIds[this.story.phase];
      },
    );
    this.story.reducedMotion = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    this.addEventListener('keydown', this.onKey);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    watch(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    unwatch(this);
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    // Attributes are read before the element is connected (parsing, upgrade): the story moves only once started.
    if (old === value || !this.story) return;
    this.state = this.readAttributes();
    if (this.started && (name === 'phase' || name === 'preset')) this.story.jump(phaseIds.indexOf(this.state.phase));
    this.story.speed = this.state.speed;
  }

  /** Builds and draws (first call), and resumes a story that was playing when it was paused. */
  start(): void {
    if (!this.started) {
      this.started = true;
      this.story.speed = this.state.speed;
      this.story.jump(phaseIds.indexOf(this.state.phase));
      if (this.hasAttribute('autoplay')) this.resumeOnStart = true;
    }
    if (this.resumeOnStart) {
      this.resumeOnStart = false;
      this.story.play();
    }
  }

  /** Off screen: the story stops after its current movement (and plays on when started again). */
  pause(): void {
    if (!this.story.playing) return;
    this.resumeOnStart = true;
    this.story.pause();
  }

  /** The followed picture's canvas (the figure-export convention). */
  figure(): HTMLCanvasElement | null {
    return this.canvases()[0]?.renderRoot.querySelector('canvas') ?? null;
  }

  /** Paints the picture(s) at the story's phase afresh at `width` × `height` (vector SVG, sharp PNG). */
  paintFigure(ctx: PaintContext, width: number, height: number): void {
    const v = this.view;
    const s = this.state;
    const picture = (
      method: ExplorerState['regroup'],
      rows: FigurePicture['rows'],
      advantages: FigurePicture['advantages'],
    ): FigurePicture => ({
      title: v.compare ? label(method) : null,
      gather: v.gather,
      rows,
      ranks: v.layout.config.ranks,
      method,
      colours: v.colours,
      advantages,
      highlight: s.prompt,
    });
    const pictures = [picture(s.regroup, v.rows, v.advantages)];
    if (v.compare) pictures.push(picture(v.compare.regroup, v.compare.rows, v.compare.advantages));
    paintFigure(ctx, pictures, this.story.phase, width, height);
  }

  /** What is drawn (memoised like the explorer's). */
  get view(): ExplorerView {
    const s = this.state;
    const key = JSON.stringify([s.config, s.gather, s.regroup, s.compare, s.rewards, s.scale, s.prompt]);
    if (this.cached?.key !== key) {
      const fallback: LayoutConfig = checkView(s.config) === null ? s.config : defaultConfig;
      this.cached = { key, view: deriveView(s, fallback) };
    }
    return this.cached.view;
  }

  /** The attributes read as the explorer reads a link. */
  protected readAttributes(): ExplorerState {
    const p = new URLSearchParams();
    for (const name of layoutAttributes) {
      const value = this.getAttribute(name);
      if (value !== null) p.set(name, value);
    }
    if (!p.has('compare') && this.defaultCompare) {
      const regroup = parseState(p.toString(), defaultConfig, presets).regroup;
      p.set('compare', regroup !== this.defaultCompare ? this.defaultCompare : otherThan(regroup));
    }
    return parseState(p.toString(), defaultConfig, presets, 'attributes');
  }

  override render() {
    if (!this.started) return html`<div class="waiting" part="waiting">${MSG.waiting}</div>`;
    const s = this.state;
    const v = this.view;
    const phase = phaseIds[this.story.phase]!;
    const scored = this.story.phase >= phaseIds.indexOf('advantages');
    const figureOnly = this.hasAttribute('figure');
    const last = this.story.phase === phaseIds.length - 1;
    // The pair is drawn at one scale: each picture's tiles fit the other's widest group too (peerRows).
    const canvas = (
      method: ExplorerState['regroup'],
      rows: ExplorerView['rows'],
      advantages: ExplorerView['advantages'],
      peer: ExplorerView['rows'],
    ) =>
      html`<grpo-layout-canvas .gather=${v.gather} .rows=${rows} .ranks=${v.layout.config.ranks} .method=${method} .colours=${v.colours}
        .rewards=${v.rewards} .advantages=${advantages} .highlight=${s.prompt} .peerRows=${peer} @prompt-select=${this.onSelect}></grpo-layout-canvas>`;
    return html`
      ${
        s.notices.length > 0
          ? html`<div class="notice" role="status">${MSG.attributes}<ul>${s.notices.map((n) => html`<li>${n}</li>`)}</ul></div>`
          : nothing
      }
      ${v.error ? html`<p class="stale" role="status"><strong>${MSG.stale}</strong> ${errorText(v.error)}</p>` : nothing}
      ${
        figureOnly
          ? nothing
          : html`<grpo-story-controls .phase=${this.story.phase} .playing=${this.story.playing} .speed=${this.story.speed} .hiddenParts=${new Set()}
        @story=${this.onStory} @speed=${(e: CustomEvent<number>) => (this.story.speed = e.detail)}></grpo-story-controls>`
      }
      <p class="caption" aria-live="polite" data-phase=${phase}>
        <strong>${M().explorer.phaseOf(this.story.phase + 1, phaseIds.length)} · ${phaseTitles[phase]}</strong>
        ${caption(phase, v.caption)}
        ${scored && v.advantageError ? html`<br /><span class="warn">${withCode(v.advantageError)}</span>` : nothing}
      </p>
      ${v.compare ? html`<p class="compare-text" role="status">${withCode(scored ? v.compare.text : v.compare.rowsText)}</p>` : nothing}
      <div class=${v.compare ? 'pair' : ''}>
        <figure>${v.compare ? html`<figcaption>${label(s.regroup)}</figcaption>` : nothing}
          ${canvas(s.regroup, v.rows, v.advantages, v.compare?.rows ?? [])}</figure>
        ${
          v.compare
            ? html`<figure class="compared"><figcaption>${label(v.compare.regroup)}</figcaption>
          ${canvas(v.compare.regroup, v.compare.rows, v.compare.advantages, v.rows)}</figure>`
            : nothing
        }
      </div>
      <footer>
        ${
          figureOnly
            ? html`<button type="button" class="next" @click=${() => (last ? this.story.jump(0) : this.story.forward())}>${
                last ? MSG.again : MSG.next(phaseTitles[phaseIds[this.story.phase + 1]!])
              }</button>`
            : html`<grpo-figure-export .target=${this} .name=${`grpo-${this.localName.slice(5)}-${phase}`}></grpo-figure-export>`
        }
        <a href=${this.explorerLink()} target="_blank" rel="noopener">${MSG.open}</a>
      </footer>`;
  }

  override updated(): void {
    this.showAll(this.story.phase, this.story.progress);
    this.dataset.phase = phaseIds[this.story.phase];
  }

  private canvases(): LayoutCanvas[] {
    // renderRoot exists from the first connection on.
    return this.renderRoot ? [...this.renderRoot.querySelectorAll<LayoutCanvas>('grpo-layout-canvas')] : [];
  }

  private showAll(phase: number, progress: number): void {
    for (const c of this.canvases()) c.show(phase, progress);
  }

  private explorerLink(): string {
    return `${explorerUrl()}?${stateToSearch({ ...this.state, phase: phaseIds[this.story.phase]!, embed: false, hidden: new Set(), notices: [] })}`;
  }

  private onStory = (ev: CustomEvent<{ action: StoryAction; phase?: number }>) => {
    ev.stopPropagation();
    const { action, phase } = ev.detail;
    if (action === 'jump') this.story.jump(phase ?? 0);
    else this.story[action]();
  };

  private onSelect = (ev: CustomEvent<number | null>) => {
    ev.stopPropagation();
    this.state = { ...this.state, prompt: ev.detail };
  };

  /** The explorer's shortcuts, while focus is inside this element (a page may hold several). */
  private onKey = (ev: KeyboardEvent) => {
    if (!this.started || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // Typing a figure size is not a shortcut.
    if ((ev.composedPath()[0] as HTMLElement | undefined)?.tagName === 'INPUT') return;
    const digit = Number(ev.key);
    const i = speeds.indexOf(this.story.speed as (typeof speeds)[number]);
    if (ev.key === ' ') this.story.toggle();
    else if (ev.key === 'ArrowRight') this.story.forward();
    else if (ev.key === 'ArrowLeft') this.story.back();
    else if (Number.isInteger(digit) && digit >= 1 && digit <= phaseIds.length) this.story.jump(digit - 1);
    else if (ev.key === '+' || ev.key === '=') this.story.speed = speeds[Math.min(speeds.length - 1, i + 1)]!;
    else if (ev.key === '-') this.story.speed = speeds[Math.max(0, i - 1)]!;
    else if (ev.key === 'Escape') this.state = { ...this.state, prompt: null };
    else return;
    ev.preventDefault();
    this.requestUpdate();
  };
}

function otherThan(m: ExplorerState['regroup']): ExplorerState['regroup'] {
  return regroupMethods.find((r) => r.method !== m)?.method ?? 'view';
}

/** <grpo-compare>: the same, with two regroupings side by side (`regroup` and `compare`; by default the framework's and TRL's view(-1, k)). */
export class GrpoCompare extends GrpoLayout {
  constructor() {
    super();
    this.defaultCompare = 'view';
    this.state = this.readAttributes();
  }
}

// Defined once the page's language has its words (at once in English).
whenCatalogue(() => {
  customElements.define('grpo-layout', GrpoLayout);
  customElements.define('grpo-compare', GrpoCompare);
});
