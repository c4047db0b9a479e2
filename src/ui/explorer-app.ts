// <grpo-explorer>: the whole explorer page. Owns the state, reads what to draw from the core
// through deriveView and wires the panels together. The story runs in a StoryController, the
// shortcuts in a KeyboardController (keyboard-controller.ts), the address bar in a UrlSync
// (url-sync.ts); what to follow is chosen in <grpo-follow-panel>.
import { LitElement, css, html, nothing } from 'lit';
import { defaultConfig, samplerNames, validateConfig } from '../core/samplers/index.ts';
import { presets } from '../core/presets.ts';
import { copiesOf } from '../core/layout/copies.ts';
import type { LayoutConfig } from '../core/layout/types.ts';
import { deriveView, type ExplorerView } from './explorer-model.ts';
import { parseState, stateToSearch, type ExplorerState } from './url-state.ts';
import { caption, phaseIds, phaseTitles } from './story.ts';
import { StoryController } from './story-controller.ts';
import { KeyboardController } from './keyboard-controller.ts';
import { UrlSync } from './url-sync.ts';
import type { FollowPatch } from './follow-panel.ts';
import type { LayoutCanvas } from './layout-canvas.ts';
import type { StoryAction } from './story-controls.ts';
import './layout-canvas.ts';
import './config-panel.ts';
import './story-controls.ts';
import './stats-panel.ts';
import './copies-panel.ts';
import './follow-panel.ts';

declare global {
  interface Window {
    /** performance.now() when the first picture was on screen (ms after navigation start). */
    grpoFirstViewMs?: number;
  }
}

export class ExplorerApp extends LitElement {
  static override properties = { state: { attribute: false }, hoverPrompt: { state: true } };

  declare state: ExplorerState;
  declare hoverPrompt: number | null;
  readonly story: StoryController;
  /** The last configuration the core accepted (drawn while the current one is invalid). */
  private lastValid: LayoutConfig = defaultConfig;
  private cached: { key: string; view: ExplorerView } | null = null;

  static override styles = css`
    :host { display: block; max-width: 1480px; margin: 0 auto; padding: 12px 18px 40px; }
    header { display: flex; align-items: baseline; gap: 16px; flex-wrap: wrap; margin-bottom: 10px; }
    h1 { font-size: 19px; margin: 0; font-weight: 650; }
    h1 span { color: #777; font-weight: 400; }
    header button { margin-left: auto; font: inherit; font-size: 13px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 4px 10px; cursor: pointer; }
    .isolation { border: 1px solid #e0a800; background: #fff8e1; border-radius: 6px; padding: 8px 12px; margin-bottom: 10px; font-size: 13px; }
    .grid { display: grid; grid-template-columns: 270px minmax(0, 1fr); gap: 18px; align-items: start; }
    .grid.embed { grid-template-columns: minmax(0, 1fr); }
    aside { background: #fff; border: 1px solid #e2e2dc; border-radius: 8px; padding: 12px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 14px; }
    main { display: grid; gap: 10px; min-width: 0; }
    .card { background: #fff; border: 1px solid #e2e2dc; border-radius: 8px; padding: 12px; min-width: 0; }
    .caption { font-size: 15px; line-height: 1.5; margin: 0; min-height: 3em; }
    .caption strong { display: block; font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #666; }
    .caption.waiting { color: #222; }
    .below { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 10px; }
    .warn { color: #8b1a1a; font-size: 13px; }
    .embed-link { font-size: 12px; text-align: right; }
    @media (max-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr); } .below { grid-template-columns: minmax(0, 1fr); } }
  `;

  constructor() {
    super();
    this.state = parseState(location.search, defaultConfig, presets);
    this.hoverPrompt = null;
    if (validateConfig(this.state.config) === null) this.lastValid = this.state.config;
    this.story = new StoryController(
      this,
      phaseIds.length,
      (phase, progress) => this.canvas?.show(phase, progress),
      () => this.syncPhase(),
    );
    this.story.phase = phaseIds.indexOf(this.state.phase);
    this.story.speed = this.state.speed;
    new KeyboardController(this, this.story, {
      speed: (next) => this.setSpeed(next),
      escape: () => this.setState({ prompt: null }),
    });
    new UrlSync(this, {
      current: () => ({ ...this.state, phase: phaseIds[this.story.phase]!, gather: this.view.gatherIndex, speed: this.story.speed }),
      playing: () => this.story.playing,
      restore: (search) => this.restore(search),
    });
  }

  get canvas(): LayoutCanvas | null {
    return this.renderRoot.querySelector('grpo-layout-canvas');
  }

  /** What is drawn now (memoised on the parts of the state it depends on). */
  get view(): ExplorerView {
    const s = this.state;
    const key = JSON.stringify([s.config, s.gather, s.regroup, s.rewards, s.scale, s.prompt, this.lastValid]);
    if (this.cached?.key !== key) this.cached = { key, view: deriveView(s, this.lastValid) };
    return this.cached.view;
  }

  private setState(patch: Partial<ExplorerState>): void {
    this.state = { ...this.state, ...patch };
  }

  private syncPhase(): void {
    const phase = phaseIds[this.story.phase]!;
    if (phase !== this.state.phase) this.setState({ phase });
  }

  override render() {
    const s = this.state;
    const v = this.view;
    const hide = (name: string) => s.hidden.has(name);
    const phase = phaseIds[this.story.phase]!;
    const active = s.prompt ?? this.hoverPrompt;
    const activeCopies = active === null ? [] : active === s.prompt ? v.copies : copiesOf(v.layout, active);
    const isolated = globalThis.crossOriginIsolated === true;
    return html`
      ${
        s.embed
          ? nothing
          : html`<header>
        <h1>grpo-sandbox <span>· where the k copies of a prompt go, and how they meet again</span></h1>
        <button class="share" @click=${this.copyLink} title="copy a link to exactly this view">copy link</button>
      </header>`
      }
      ${
        isolated
          ? nothing
          : html`<div class="isolation" role="status">
        <strong>Not cross-origin isolated:</strong> this page was served without
        <code>Cross-Origin-Opener-Policy: same-origin</code> and <code>Cross-Origin-Embedder-Policy: require-corp</code>,
        so <code>SharedArrayBuffer</code> is unavailable and the simulated ranks cannot run here. The layout explorer below
        still works. Serve the site with both headers (<code>npm start</code> and <code>npm run preview</code> send them; see the README for static hosts).
      </div>`
      }
      <div class="grid ${s.embed ? 'embed' : ''}">
        ${
          s.embed
            ? nothing
            : html`<aside>
          <grpo-config-panel .config=${s.config} .preset=${s.preset} .presets=${presets} .samplerNames=${samplerNames}
            .error=${v.error} .hiddenParts=${s.hidden} @config-change=${this.onConfig}></grpo-config-panel>
          <grpo-follow-panel .gathers=${v.gathers} .gatherIndex=${v.gatherIndex} .regroup=${s.regroup} .rewards=${s.rewards}
            .scale=${s.scale} .hiddenParts=${s.hidden} @follow-change=${this.onFollow}></grpo-follow-panel>
        </aside>`
        }
        <main>
          ${
            hide('controls')
              ? nothing
              : html`<div class="card">
            <grpo-story-controls .phase=${this.story.phase} .playing=${this.story.playing} .speed=${this.story.speed} .hiddenParts=${s.hidden}
              @story=${this.onStory} @speed=${this.onSpeed}></grpo-story-controls>
          </div>`
          }
          ${
            hide('caption')
              ? nothing
              : html`<div class="card">
            <p class="caption ${this.story.stage === 'caption' ? 'waiting' : ''}" aria-live="polite" data-phase=${phase}>
              <strong>${this.story.phase + 1} / ${phaseIds.length} · ${phaseTitles[phase]}${v.gathers.length > 1 ? ` · gather ${v.gatherIndex + 1} of ${v.gathers.length}` : ''}</strong>
              ${caption(phase, v.caption)}
              ${(phase === 'advantages' || phase === 'slice') && v.advantageError ? html`<br /><span class="warn">${v.advantageError}</span>` : nothing}
            </p>
          </div>`
          }
          <div class="card">
            <grpo-layout-canvas .gather=${v.gather} .rows=${v.rows} .ranks=${v.layout.config.ranks} .method=${s.regroup}
              .colours=${v.colours} .rewards=${v.rewards} .advantages=${v.advantages} .highlight=${s.prompt}
              @prompt-select=${this.onPromptSelect} @prompt-hover=${this.onPromptHover}></grpo-layout-canvas>
          </div>
          ${
            s.embed
              ? html`<div class="embed-link"><a href=${this.fullLink()} target="_blank" rel="noopener">open in the explorer ↗</a></div>`
              : html`<div class="below">
            ${
              hide('copies')
                ? nothing
                : html`<div class="card"><grpo-copies-panel .prompt=${active} .copies=${activeCopies} .gathers=${v.gathers}
              .gatherIndex=${v.gatherIndex} .rewards=${v.rewards} .advantages=${v.advantages} .colour=${active === null ? '#888' : (v.colours.get(active) ?? '#888')}
              @prompt-select=${this.onPromptSelect}></grpo-copies-panel></div>`
            }
            ${hide('stats') ? nothing : html`<div class="card"><grpo-stats-panel .stats=${v.stats} .notes=${v.layout.notes}></grpo-stats-panel></div>`}
          </div>`
          }
        </main>
      </div>`;
  }

  override firstUpdated(): void {
    // The first picture is on screen once the canvas has drawn and the browser has painted.
    void this.canvas?.updateComplete.then(() =>
      requestAnimationFrame(() => {
        window.grpoFirstViewMs = performance.now();
        performance.mark('grpo-first-view');
      }),
    );
  }

  override updated(): void {
    this.canvas?.show(this.story.phase, this.story.progress);
    this.dataset.phase = phaseIds[this.story.phase];
    this.dataset.stage = this.story.stage;
  }

  private fullLink(): string {
    const s = { ...this.state, embed: false, hidden: new Set<string>() };
    return `${location.pathname}?${stateToSearch({ ...s, phase: phaseIds[this.story.phase]! })}`;
  }

  private onConfig = (ev: CustomEvent<{ config: LayoutConfig; preset: string | null }>) => {
    const { config, preset } = ev.detail;
    if (validateConfig(config) === null) this.lastValid = config;
    this.setState({ config, preset, gather: 0, prompt: null });
  };

  private onStory = (ev: CustomEvent<{ action: StoryAction; phase?: number }>) => {
    const { action, phase } = ev.detail;
    if (action === 'jump') this.story.jump(phase ?? 0);
    else this.story[action]();
  };

  private onSpeed = (ev: CustomEvent<number>) => this.setSpeed(ev.detail);

  private setSpeed(speed: number): void {
    this.story.speed = speed;
    this.setState({ speed });
  }

  private onFollow = (ev: CustomEvent<FollowPatch>) => this.setState(ev.detail);

  /** Shows the state of a query string (Back / Forward). */
  private restore(search: string): void {
    const state = parseState(search, defaultConfig, presets);
    if (validateConfig(state.config) === null) this.lastValid = state.config;
    this.story.pause();
    this.story.jump(phaseIds.indexOf(state.phase));
    this.story.speed = state.speed;
    this.state = state;
  }

  private onPromptSelect = (ev: CustomEvent<number | null>) => {
    this.setState({ prompt: ev.detail });
  };

  private onPromptHover = (ev: CustomEvent<number | null>) => {
    this.hoverPrompt = ev.detail;
  };

  private copyLink = async () => {
    const button = this.renderRoot.querySelector<HTMLButtonElement>('button.share');
    try {
      await navigator.clipboard.writeText(location.href);
      if (button) button.textContent = 'link copied';
    } catch {
      if (button) button.textContent = 'copy the address bar';
    }
    setTimeout(() => {
      if (button) button.textContent = 'copy link';
    }, 1500);
  };
}
customElements.define('grpo-explorer', ExplorerApp);
