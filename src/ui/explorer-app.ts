// <grpo-explorer>: the whole explorer page. Owns the state, reads what to draw from the core
// through deriveView and wires the panels together. The story runs in a StoryController, the
// shortcuts in a KeyboardController (keyboard-controller.ts), the address bar in a UrlSync
// (url-sync.ts); what to follow is chosen in <grpo-follow-panel>.
import { LitElement, css, html, nothing } from 'lit';
import { defaultConfig, samplerNames } from '../core/samplers/index.ts';
import { checkView, needsOverview } from './view-budget.ts';
import { lang, M, whenCatalogue } from './i18n/index.ts';
import { errorText, suggestionWords, withCode } from './core-text.ts';
import { frameworkDefaults } from '../core/grpo/framework-defaults.ts';
import { regroupMethods } from '../core/layout/regroup.ts';

const regroupLabel = (m: ExplorerState['regroup']) =>
  M().explorer.regrouped(M().core.regroup[m] ?? regroupMethods.find((r) => r.method === m)?.label ?? m);
import { suggestionText } from '../core/settings.ts';
import { presets } from '../core/presets.ts';
import { layoutArgs } from '../core/samplers/settings.ts';
import { copiesOf } from '../core/layout/copies.ts';
import type { LayoutConfig } from '../core/layout/types.ts';
import { deriveView, type ExplorerView } from './explorer-model.ts';
import { parseState, stateToSearch, type ExplorerState } from './url-state.ts';
import { applyProjector } from './projector.ts';
import { caption, phaseIds, phaseTitles, type PhaseId } from './story.ts';
import { quizFor, type Quiz } from './quiz.ts';
import { readingMs, StoryController } from './story-controller.ts';
import { KeyboardController } from './keyboard-controller.ts';
import { UrlSync } from './url-sync.ts';
import type { FollowPatch } from './follow-panel.ts';
import type { LayoutCanvas } from './layout-canvas.ts';
import { presentedAfter } from './first-paint.ts';
import type { StoryAction } from './story-controls.ts';
import './layout-canvas.ts';
import './story-controls.ts';

/**
 * The projector button's icon (two arrows apart), drawn: the character it was (⤢) is missing from many
 * system fonts (DejaVu Sans, Linux's usual default, among them), and the browser's search for a font
 * that has it (a round trip to its font service, then loading that font) delayed the first picture.
 */
const projectorIcon = html`<svg viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.6"
  stroke-linecap="round" stroke-linejoin="round"><path d="M9.5 2.5h4v4M13.5 2.5l-11 11M2.5 9.5v4h4" /></svg>`;

/** The rest of the page's elements (explorer-rest.ts): loaded after the first picture, once. */
let rest: Promise<unknown> | null = null;
const loadRest = () => (rest ??= import('./explorer-rest.ts'));

declare global {
  interface Window {
    /**
     * When the first picture was on screen (ms after navigation start): the presentation of its frame as the
     * browser reports it (first-paint.ts), or where it reports none, the time that frame began.
     */
    grpoFirstViewMs?: number;
  }
}

export class ExplorerApp extends LitElement {
  static override properties = {
    state: { attribute: false },
    hoverPrompt: { state: true },
    tableOpen: { state: true },
    complete: { state: true },
  };

  declare state: ExplorerState;
  declare hoverPrompt: number | null;
  declare tableOpen: boolean;
  /**
   * False until the first picture is on screen: the first render holds what the picture needs
   * (the title, Play, the caption, the canvas); the header's menus, the settings, the follow panel
   * and the panels below come once that frame is presented (`data-complete` on the element then).
   */
  declare complete: boolean;
  readonly story: StoryController;
  /** The last configuration the core accepted (drawn while the current one is invalid). */
  private lastValid: LayoutConfig = defaultConfig;
  /** The phases whose question (quiz=1) has been answered; cleared when the layout or the followed gather changes. */
  private quizRevealed = new Set<PhaseId>();
  private cached: { key: string; view: ExplorerView } | null = null;
  private quizzes: { view: ExplorerView; byPhase: Map<PhaseId, Quiz | null> } | null = null;

  static override styles = css`
    :host { display: block; max-width: 1480px; margin: 0 auto; padding: 12px 18px 40px; }
    header { display: flex; align-items: baseline; gap: 16px; flex-wrap: wrap; margin-bottom: 10px; }
    /* One bold weight (600, as the canvas's labels and Play): each weight and size is a font that the
       browser looks up, a round trip to its font service before the first picture. */
    h1 { font-size: 19px; margin: 0; font-weight: 600; }
    h1 span { color: #595959; font-weight: 400; }
    header button.projector + button.share { margin-left: 8px; }
    p.command { margin: 0 0 10px; font-size: 12px; color: #444; overflow-wrap: anywhere; }
    p.command code { user-select: all; }
    p.command button { font: inherit; font-size: 12px; margin-left: 6px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 1px 8px; }
    header button svg { width: 1em; height: 1em; vertical-align: -0.15em; margin-right: 0.3em; }
    header button { margin-left: auto; font: inherit; font-size: 13px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 4px
      10px; cursor: pointer; }
    /* main comes first in the page (Play and the picture lead the tab order and narrow screens);
       on wide screens the settings take the left column. */
    .grid { display: grid; grid-template-columns: 270px minmax(0, 1fr); gap: 18px; align-items: start; }
    .grid > main { grid-column: 2; grid-row: 1; }
    .grid > aside { grid-column: 1; grid-row: 1; }
    .grid.embed { grid-template-columns: minmax(0, 1fr); }
    .grid.embed > main { grid-column: 1; }
    /* Projector mode scales the page (projector.ts): one column, the picture first, the settings under it. */
    .grid.projector { grid-template-columns: minmax(0, 1fr); }
    .grid.projector > main, .grid.projector > aside { grid-column: 1; grid-row: auto; }
    .grid.projector .below { grid-template-columns: minmax(0, 1fr); }
    details.table-view { margin-top: 8px; font-size: 13px; }
    details.table-view summary { cursor: pointer; color: #333; }
    details.table-view table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin-top: 6px; }
    details.table-view th, details.table-view td { border-bottom: 1px solid #e4e4e0; padding: 2px 8px; text-align: left; }
    details.table-view .more { color: #595959; }
    aside { background: #fff; border: 1px solid #e2e2dc; border-radius: 8px; padding: 12px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 14px; }
    main { display: grid; gap: 10px; min-width: 0; }
    .card { background: #fff; border: 1px solid #e2e2dc; border-radius: 8px; padding: 12px; min-width: 0; }
    /* The caption sits under the picture, as tall as its own words: the picture comes first on every screen
       (on a phone a card as tall as the longest caption pushed it to the foot of the window) and never moves
       between phases, since what changes height is below it. */
    .caption { font-size: 15px; line-height: 1.5; margin: 0; }
    .caption strong { display: block; font-size: 13px; font-weight: 600; text-transform: uppercase; letter-spacing: 0.05em; color: #666; }
    .caption.waiting { color: #222; }
    .below { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 10px; }
    .warn { color: #8b1a1a; font-size: 13px; }
    .embed-link { font-size: 12px; text-align: right; }
    /* An invalid or oversized setting: the picture and caption are the last valid layout's, greyed. */
    .stale .caption, .stale grpo-layout-canvas, .stale grpo-stats-panel { opacity: 0.45; filter: grayscale(1); }
    .card.overview { border-color: #4e79a7; }
    grpo-quiz { margin-bottom: 12px; padding-bottom: 10px; border-bottom: 1px solid #e2e2dc; }
    figure { margin: 0; min-width: 0; }
    figcaption { font-size: 12px; font-weight: 600; color: #333; margin-bottom: 4px; }
    /* Side by side while each picture has 560 px (room for a group of 2k at tiles with their values), else one above the other. */
    .pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 560px), 1fr)); gap: 12px; }
    .compare-text { margin: 0 0 8px; font-size: 14px; border-left: 3px solid #b07aa1; padding-left: 8px; }
    @media (max-width: 900px) { .pair { grid-template-columns: minmax(0, 1fr); } }
    .stale-label { border: 1px solid #d62728; background: #fdecea; border-radius: 6px; padding: 6px 10px; margin-bottom: 8px; font-size: 13px; color: #8b1a1a; }
    .stale-label button, .notice button { font: inherit; font-size: 12px; margin: 2px 4px 0 0; padding: 2px 8px; border: 1px solid currentColor;
      border-radius: 12px; background: #fff; color: inherit; cursor: pointer; }
    .notice { border: 1px solid #4e79a7; background: #eef3f9; border-radius: 6px; padding: 6px 10px; margin-bottom: 10px; font-size: 13px; color: #1f3b5a; }
    .notice ul { margin: 2px 0; padding-left: 18px; }
    @media (max-width: 900px) {
      :host { padding: 8px 10px 32px; }
      .grid { grid-template-columns: minmax(0, 1fr); }
      .grid > main, .grid > aside { grid-column: 1; grid-row: auto; }
      .below { grid-template-columns: minmax(0, 1fr); }
      h1 { font-size: 16px; }
      h1 span { display: block; font-size: 13px; }
      .caption { font-size: 14px; }
    }
  `;

  constructor() {
    super();
    this.state = parseState(location.search, defaultConfig, presets);
    this.hoverPrompt = null;
    this.tableOpen = false;
    this.complete = false;
    if (checkView(this.state.config) === null) this.lastValid = this.state.config;
    this.story = new StoryController(
      this,
      phaseIds.length,
      (phase, progress) => this.showAll(phase, progress),
      () => this.syncPhase(),
    );
    this.story.phase = phaseIds.indexOf(this.state.phase);
    // Predict, then reveal: with quiz=1 a phase with a question waits in its caption (tiles not yet
    // moved) until the answer is revealed, whether it was reached by stepping, playing or a jump.
    this.story.holdCaption = (phase) => this.openQuiz(phaseIds[phase]!) !== null;
    this.story.captionMs = (phase) => readingMs(caption(phaseIds[phase]!, this.view.caption));
    this.story.speed = this.state.speed;
    const motion = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)');
    this.story.reducedMotion = motion?.matches ?? false;
    motion?.addEventListener('change', (e) => {
      this.story.reducedMotion = e.matches;
    });
    new KeyboardController(this, this.story, {
      speed: (next) => this.setSpeed(next),
      escape: () => this.setState({ prompt: null }),
    });
    new UrlSync(this, {
      current: () => ({ ...this.state, phase: phaseIds[this.story.phase]!, gather: this.view.gatherIndex, speed: this.story.speed }),
      playing: () => this.story.playing,
      restore: (search) => this.restore(search),
      // The address is written once the picture is on screen (the first render after it writes it).
      ready: () => this.complete,
    });
  }

  get canvas(): LayoutCanvas | null {
    return this.renderRoot.querySelector('grpo-layout-canvas');
  }

  /** What is drawn now (memoised on the parts of the state it depends on). */
  get view(): ExplorerView {
    const s = this.state;
    // The language too: the view holds sentences (the compare text, the "what if" note).
    const key = JSON.stringify([s.config, s.gather, s.regroup, s.compare, s.rewards, s.scale, s.prompt, this.lastValid, lang()]);
    if (this.cached?.key !== key) this.cached = { key, view: deriveView(s, this.lastValid) };
    return this.cached.view;
  }

  private setState(patch: Partial<ExplorerState>): void {
    this.state = { ...this.state, ...patch };
  }

  /** The question of `phase` while it is unanswered (quiz=1, the caption card shown, a question for this gather), else null. */
  private openQuiz(phase: PhaseId): Quiz | null {
    if (!this.state.quiz || this.state.hidden.has('caption') || this.quizRevealed.has(phase)) return null;
    return this.quizOf(phase);
  }

  /** The question of `phase` for the view on screen (memoised per view: the story asks every frame while a question is open). */
  private quizOf(phase: PhaseId): Quiz | null {
    const v = this.view;
    if (this.quizzes?.view !== v) this.quizzes = { view: v, byPhase: new Map() };
    if (!this.quizzes.byPhase.has(phase)) this.quizzes.byPhase.set(phase, quizFor(phase, v.gather, v.layout.config.ranks));
    return this.quizzes.byPhase.get(phase)!;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A link straight to a phase with a question (phase=scatter&quiz=1) asks it before showing the answer.
    if (this.openQuiz(phaseIds[this.story.phase]!)) this.story.jump(this.story.phase);
  }

  private syncPhase(): void {
    const phase = phaseIds[this.story.phase]!;
    // Back before a question: ask it again.
    for (const p of this.quizRevealed) if (phaseIds.indexOf(p) > this.story.phase) this.quizRevealed.delete(p);
    if (phase !== this.state.phase) this.setState({ phase });
  }

  override render() {
    const s = this.state;
    const v = this.view;
    const hide = (name: string) => s.hidden.has(name);
    const phase = phaseIds[this.story.phase]!;
    const active = s.prompt ?? this.hoverPrompt;
    const activeCopies = active === null ? [] : active === s.prompt ? v.copies : copiesOf(v.layout, active);
    // Rewards and advantages exist from the advantages phase on (the tooltips say them from there too).
    const scored = this.story.phase >= phaseIds.indexOf('advantages');
    const T = M().explorer;
    // The terminal command that prints this layout (the same reader reads its flags and this link), under the statistics.
    const command = this.complete && !s.embed ? this.command() : null;
    // The tab's title follows the language (index.html has the English one).
    if (!s.embed && document.title !== M().lang.pageTitle) document.title = M().lang.pageTitle;
    return html`
      ${
        s.embed
          ? nothing
          : html`<header>
        <h1>grpo-sandbox <span>${T.subtitle}</span></h1>
        ${this.complete ? html`<grpo-lang-switch></grpo-lang-switch><grpo-tour-menu></grpo-tour-menu>` : nothing}
        <button class="projector" aria-pressed=${String(s.zoom > 1)} title=${T.projectorTitle}
          @click=${() => this.setState({ zoom: s.zoom > 1 ? 1 : 2 })}>${projectorIcon}${T.projector}</button>
        <button class="share" @click=${this.copyLink} title=${T.copyLinkTitle}>${T.copyLink}</button>
      </header>`
      }
      ${
        s.notices.length === 0
          ? nothing
          : html`<div class="notice" role="status"><strong>${T.noticeTitle}</strong>
        <ul>${s.notices.map((n) => html`<li>${n}</li>`)}</ul>
        <button type="button" class="dismiss" @click=${() => this.setState({ notices: [] })}>${T.dismiss}</button></div>`
      }
      <div class="grid ${s.embed ? 'embed' : ''} ${s.zoom > 1 ? 'projector' : ''}">
        <main class=${v.error ? 'stale' : ''}>
          ${
            hide('controls')
              ? nothing
              : html`<div class="card">
            <grpo-story-controls .phase=${this.story.phase} .playing=${this.story.playing} .speed=${this.story.speed} .hiddenParts=${s.hidden}
              @story=${this.onStory} @speed=${this.onSpeed}></grpo-story-controls>
          </div>`
          }
          ${v.error && needsOverview(s.config) ? html`<div class="card overview"><grpo-overview .config=${s.config}></grpo-overview></div>` : nothing}
          <div class="card">
            ${v.error ? this.renderStale(v) : nothing}
            ${v.compare ? html`<p class="compare-text" role="status">${withCode(scored ? v.compare.text : v.compare.rowsText)}</p>` : nothing}
            <div class=${v.compare ? 'pair' : ''}>
              <figure>
                ${v.compare ? html`<figcaption>${regroupLabel(s.regroup)}</figcaption>` : nothing}
                <grpo-layout-canvas .gather=${v.gather} .rows=${v.rows} .ranks=${v.layout.config.ranks} .method=${s.regroup}
                  .colours=${v.colours} .rewards=${v.rewards} .advantages=${v.advantages} .highlight=${s.prompt} .zoom=${s.zoom}
                  .peerRows=${v.compare?.rows ?? []}
                  @prompt-select=${this.onPromptSelect} @prompt-hover=${this.onPromptHover}></grpo-layout-canvas>
              </figure>
              ${
                v.compare
                  ? html`<figure class="compared">
                <figcaption>${regroupLabel(v.compare.regroup)}</figcaption>
                <grpo-layout-canvas .gather=${v.gather} .rows=${v.compare.rows} .ranks=${v.layout.config.ranks} .method=${v.compare.regroup}
                  .colours=${v.colours} .rewards=${v.rewards} .advantages=${v.compare.advantages} .highlight=${s.prompt} .zoom=${s.zoom}
                  .peerRows=${v.rows}
                  @prompt-select=${this.onPromptSelect} @prompt-hover=${this.onPromptHover}></grpo-layout-canvas>
              </figure>`
                  : nothing
              }
            </div>
            ${this.renderTable(v)}
          </div>
          ${
            hide('caption')
              ? nothing
              : html`<div class="card caption-card">
            ${this.renderQuiz(phase)}
            <p class="caption ${this.story.stage === 'caption' ? 'waiting' : ''}" aria-live="polite" data-phase=${phase}>
              <strong>${this.captionHead(v, this.story.phase)}</strong>
              ${caption(phase, v.caption)}
              ${scored && v.advantageError ? html`<br /><span class="warn">${withCode(v.advantageError)}</span>` : nothing}
            </p>
          </div>`
          }
          ${
            !this.complete
              ? nothing
              : s.embed
                ? html`<div class="embed-link"><a href=${this.fullLink()} target="_blank" rel="noopener">${T.openFull}</a></div>`
                : html`<div class="below">
            ${
              hide('copies')
                ? nothing
                : html`<div class="card"><grpo-copies-panel .prompt=${active} .copies=${activeCopies} .gathers=${v.gathers}
              .gatherIndex=${v.gatherIndex} .rewards=${v.rewards} .advantages=${v.advantages} .scored=${scored}
              .colour=${active === null ? '#888' : (v.colours.get(active) ?? '#888')}
              @prompt-select=${this.onPromptSelect}></grpo-copies-panel></div>`
            }
            ${
              hide('stats')
                ? nothing
                : html`<div class="card"><grpo-stats-panel .stats=${v.stats} .notes=${v.layout.notes}
              .counts=${v.layout.counts}></grpo-stats-panel></div>`
            }
            ${
              command
                ? html`<p class="command">${T.commandLead} <code translate="no">${command}</code>
              <button type="button" class="command" @click=${this.copyCommand} title=${T.copyCommandTitle}>${T.copyCommand}</button></p>`
                : nothing
            }
          </div>`
          }
        </main>
        ${
          s.embed
            ? nothing
            : !this.complete
              ? html`<aside></aside>`
              : html`<aside>
          <grpo-config-panel .config=${s.config} .preset=${s.preset} .presets=${presets} .samplerNames=${samplerNames}
            .error=${v.error} .hiddenParts=${s.hidden} .layout=${v.error ? null : v.layout} @config-change=${this.onConfig}></grpo-config-panel>
          <grpo-follow-panel .gathers=${v.gathers} .gatherIndex=${v.gatherIndex} .regroup=${s.regroup} .compare=${s.compare} .rewards=${s.rewards}
            .scale=${s.scale} .hiddenParts=${s.hidden} .framework=${frameworkDefaults[v.layout.config.sampler] ?? null}
            .does=${M().core.does[v.layout.config.sampler]}
              @follow-change=${this.onFollow}></grpo-follow-panel>
        </aside>`
        }
      </div>${
        s.embed || !this.complete
          ? nothing
          : html`<p class="to-views"><a href=${lang() === 'en' ? '?view=train' : `?view=train&lang=${lang()}`}>${T.toViews}</a></p>`
      }`;
  }

  /** The caption's heading for phase number `i`: its place in the story, its title, the followed gather. */
  private captionHead(v: ExplorerView, i: number): string {
    const id = phaseIds[i]!;
    const gather = v.gathers.length > 1 ? M().explorer.gatherOf(v.gatherIndex + 1, v.gathers.length) : '';
    return `${M().explorer.phaseOf(i + 1, phaseIds.length)} · ${phaseTitles[id]}${gather}`;
  }

  /** The phase's question while its caption waits; after the reveal, the answer stays until the story leaves the phase. */
  private renderQuiz(phase: PhaseId) {
    const revealed = this.quizRevealed.has(phase);
    const asking = this.story.stage !== 'idle' || revealed;
    const quiz = this.state.quiz && asking ? this.quizOf(phase) : null;
    if (!quiz) return nothing;
    return html`<grpo-quiz .quiz=${quiz} .revealed=${revealed} data-phase=${phase}
      @quiz-reveal=${() => {
        this.quizRevealed.add(phase);
        this.requestUpdate();
      }}></grpo-quiz>`;
  }

  /** Draws every picture (the followed one and the compared one) at the story's phase and progress. */
  private showAll(phase: number, progress: number): void {
    for (const c of this.renderRoot.querySelectorAll<LayoutCanvas>('grpo-layout-canvas')) c.show(phase, progress);
  }

  /** The followed gather as a table (rank × step, prompt ids per slot): the picture in words, for screen readers and for copying. */
  private renderTable(v: ExplorerView) {
    const steps = v.gather.stepIndices;
    const ranks = v.layout.config.ranks;
    const shown = Math.min(ranks, 64);
    // Built only while open: a closed table costs nothing on the story's frames.
    return html`<details class="table-view" ?open=${this.tableOpen} @toggle=${(e: Event) => {
      this.tableOpen = (e.target as HTMLDetailsElement).open;
    }}><summary>${M().explorer.tableSummary}</summary>
      ${
        this.tableOpen
          ? html`<table>
        <thead><tr><th scope="col">${M().explorer.tableRank}</th>${steps.map((si) => html`<th scope="col">${M().explorer.tableStep(si)}</th>`)}</tr></thead>
        <tbody>${Array.from(
          { length: shown },
          (_, r) =>
            html`<tr><th scope="row">${M().explorer.tableRankRow(r)}</th>${steps.map(
              (si) => html`<td>${(v.layout.steps[si]?.ranks[r] ?? []).map((p) => `P${p}`).join(' ')}</td>`,
            )}</tr>`,
        )}</tbody>
      </table>
      ${shown < ranks ? html`<p class="more">${M().explorer.firstRanks(shown, ranks)}</p>` : nothing}`
          : nothing
      }</details>`;
  }

  /** The label over a picture that is not the settings' own: which layout it is, why, and the fixes. */
  private renderStale(v: ExplorerView) {
    const asked = this.state.config;
    const shown = this.lastValid;
    const changed = (Object.keys(asked) as (keyof LayoutConfig)[]).filter((f) => asked[f] !== shown[f]);
    const said = changed.length > 0 ? suggestionWords(Object.fromEntries(changed.map((f) => [f, shown[f]])), suggestionText) : '';
    const label = said === '' ? '' : lang() === 'en' ? ` (${said})` : `（${said}）`;
    return html`<div class="stale-label" role="status"><strong>${M().explorer.stale(label)}</strong> ${errorText(v.error!)}
      ${
        v.error!.suggestions.length > 0
          ? html`<br />${M().explorer.fixes}${v.error!.suggestions.map(
              (fix) =>
                html`<button type="button" class="fix" @click=${() => this.applyConfig({ ...asked, ...fix } as LayoutConfig, null)}>${suggestionWords(
                  fix,
                  suggestionText,
                )}</button>`,
            )}`
          : nothing
      }</div>`;
  }

  override firstUpdated(): void {
    performance.mark('grpo-explorer-render');
    // The first picture is on screen once the canvas has drawn and the browser has presented that frame.
    const canvas = this.canvas;
    // The rest of the page once its elements are defined (explorer-rest.ts, fetched after the picture);
    // should that chunk fail to load, the page completes without them and the error surfaces.
    const completeAfterRest = () =>
      void loadRest().finally(() => {
        this.complete = true;
      });
    // Elements the first render already holds (the question card with quiz=1, the overview of an
    // oversized configuration) upgrade when the module comes.
    if (!canvas) {
      completeAfterRest();
      return;
    }
    void canvas.updateComplete.then(() =>
      requestAnimationFrame(() => {
        // The picture's frame begins: it is painted, rastered and presented after this callback.
        const frame = performance.now();
        performance.mark('grpo-first-frame');
        const presented = presentedAfter(frame);
        void presented.then((ms) => {
          window.grpoFirstViewMs = ms ?? frame;
          performance.mark('grpo-first-view', { startTime: ms ?? frame });
        });
        // The rest of the page once the picture is on screen (a second after its frame at most), so that it
        // takes no CPU from the picture's paint, raster and presentation.
        void Promise.race([presented, new Promise((r) => setTimeout(r, 1000))]).then(() => setTimeout(completeAfterRest));
      }),
    );
  }

  override updated(): void {
    if (!this.state.embed) applyProjector(this.state.zoom);
    if (this.complete) this.dataset.complete = '';
    this.showAll(this.story.phase, this.story.progress);
    this.dataset.phase = phaseIds[this.story.phase];
    this.dataset.stage = this.story.stage;
  }

  private fullLink(): string {
    const s = { ...this.state, embed: false, hidden: new Set<string>() };
    return `${location.pathname}?${stateToSearch({ ...s, phase: phaseIds[this.story.phase]! })}`;
  }

  private onConfig = (ev: CustomEvent<{ config: LayoutConfig; preset: string | null }>) => {
    this.applyConfig(ev.detail.config, ev.detail.preset);
  };

  private applyConfig(config: LayoutConfig, preset: string | null): void {
    if (checkView(config) === null) this.lastValid = config;
    // A new sampler brings its framework's regrouping (any other is then a "what if" again).
    const fw = config.sampler !== this.state.config.sampler ? frameworkDefaults[config.sampler] : undefined;
    this.setState({ config, preset, gather: 0, prompt: null, ...(fw ? { regroup: fw.regroup, scale: fw.scale } : {}) });
    this.askAgain();
  }

  /** Other samples on screen (a new layout or gather): the phase's question, if it has one, is asked afresh before its movement. */
  private askAgain(): void {
    this.quizRevealed.clear();
    if (this.openQuiz(phaseIds[this.story.phase]!)) this.story.jump(this.story.phase);
  }

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

  private onFollow = (ev: CustomEvent<FollowPatch>) => {
    // Another gather holds other samples: its questions are asked afresh.
    const otherGather = ev.detail.gather !== undefined && ev.detail.gather !== this.view.gatherIndex;
    this.setState(ev.detail);
    if (otherGather) this.askAgain();
  };

  /** Shows the state of a query string (Back / Forward). */
  private restore(search: string): void {
    const state = parseState(search, defaultConfig, presets);
    if (checkView(state.config) === null) this.lastValid = state.config;
    if (JSON.stringify([state.config, state.gather]) !== JSON.stringify([this.state.config, this.state.gather])) this.quizRevealed.clear();
    // The state first: the jump asks whether the phase has an open question in it.
    this.state = state;
    this.story.pause();
    this.story.jump(phaseIds.indexOf(state.phase));
    this.story.speed = state.speed;
  }

  /** Shows a query string's state from outside (a guided tour's step); `animate`: one phase on moves the tiles as Play does. */
  showState(search: string, animate = false): void {
    const from = this.story.phase;
    this.restore(search);
    if (animate && this.story.phase === from + 1) {
      this.story.jump(from);
      this.story.forward();
    }
  }

  private onPromptSelect = (ev: CustomEvent<number | null>) => {
    this.setState({ prompt: ev.detail });
  };

  private onPromptHover = (ev: CustomEvent<number | null>) => {
    this.hoverPrompt = ev.detail;
  };

  /** `grpo-sandbox layout …` for the configuration shown, or null for a sampler the sandbox does not have. */
  private command(): string | null {
    const args = layoutArgs(this.state.config, this.state.preset);
    return args ? `npx grpo-sandbox layout ${args.join(' ')}` : null;
  }

  /** Copies the command shown under the statistics (where the clipboard refuses, the button says to select it). */
  private copyCommand = async () => {
    const button = this.renderRoot.querySelector<HTMLButtonElement>('button.command');
    const command = this.command();
    try {
      if (command) await navigator.clipboard.writeText(command);
      if (button) button.textContent = M().explorer.commandCopied;
    } catch {
      if (button) button.textContent = M().explorer.copyCommandBelow;
    }
    setTimeout(() => {
      if (button) button.textContent = M().explorer.copyCommand;
    }, 1500);
  };

  private copyLink = async () => {
    const button = this.renderRoot.querySelector<HTMLButtonElement>('button.share');
    try {
      await navigator.clipboard.writeText(location.href);
      if (button) button.textContent = M().explorer.linkCopied;
    } catch {
      if (button) button.textContent = M().explorer.copyAddressBar;
    }
    setTimeout(() => {
      if (button) button.textContent = M().explorer.copyLink;
    }, 1500);
  };
}
// Defined (so the page's <grpo-explorer> renders) once the page's language has its words: at once in English.
whenCatalogue(() => customElements.define('grpo-explorer', ExplorerApp));
