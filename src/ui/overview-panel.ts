// <grpo-overview>: a layout too big to draw tile by tile, as an overview. A worker
// (overview-worker.ts) builds the layout and counts, with progress shown here; the result is a
// rank × prompt heatmap of copies (darker = more copies in that block) and the counts beside it.
// Any gather can be chosen, and a window of ranks and steps zoomed into (typed, or by clicking a
// heatmap row): the worker keeps the layout and re-bins the window only.
import { M } from './i18n/index.ts';
import { coreOriginal } from './core-text.ts';
import { LitElement, css, html, nothing } from 'lit';
import type { LayoutConfig } from '../core/layout/types.ts';
import type { LayoutOverview, OverviewWindow } from '../core/layout/overview.ts';
import type { OverviewMessage, OverviewRequest, OverviewStage } from './overview-worker.ts';

const fmt = (n: number) => n.toLocaleString('en-US');

/** The worker's stage (overview-worker.ts) in the page's language. */
function stageWords(stage: OverviewStage): string {
  const T = M().overview;
  if (stage.step === 'starting') return T.startingWorker;
  if (stage.step === 'drawing') return T.drawing;
  return T.counting(fmt(stage.prompts), fmt(stage.ranks));
}

export class OverviewPanel extends LitElement {
  static override properties = {
    config: { attribute: false },
    stage: { state: true },
    overview: { state: true },
    failure: { state: true },
  };

  declare config: LayoutConfig | null;
  declare stage: OverviewStage;
  declare overview: LayoutOverview | null;
  declare failure: string | null;
  /** Milliseconds from the first request to the overview on screen (for the benchmark). */
  readyMs: number | null = null;
  private worker: Worker | null = null;
  private started = 0;
  /** What was asked last: the gather and the zoom window (null: the whole gather). */
  private gather = 0;
  private zoom: Partial<OverviewWindow> | null = null;
  /** Set when a result is drawn that the canvas has not shown yet. */
  private fresh = false;

  static override styles = css`
    :host { display: block; font-size: 13px; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #595959; margin: 0 0 6px; }
    .wrap { display: grid; grid-template-columns: minmax(0, 1fr) 220px; gap: 12px; align-items: start; }
    canvas { width: 100%; image-rendering: pixelated; border: 1px solid #ccc; background: #fff; }
    canvas.zoomable { cursor: zoom-in; }
    .axes { color: #595959; font-size: 12px; display: flex; justify-content: space-between; }
    dl { display: grid; grid-template-columns: auto auto; gap: 2px 10px; margin: 0; }
    dd { margin: 0; text-align: right; font-weight: 600; font-variant-numeric: tabular-nums; }
    .progress { color: #1f3b5a; }
    form { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: end; margin: 0 0 8px; }
    form label { display: grid; gap: 2px; color: #333; }
    form input { font: inherit; width: 7em; padding: 2px 4px; border: 1px solid #bbb; border-radius: 4px; }
    form button { font: inherit; font-size: 12px; padding: 3px 9px; border: 1px solid #bbb; background: #fff; border-radius: 4px; cursor: pointer; }
    @media (max-width: 700px) { .wrap { grid-template-columns: minmax(0, 1fr); } }
  `;

  constructor() {
    super();
    this.config = null;
    this.stage = { step: 'starting' };
    this.overview = null;
    this.failure = null;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.worker?.terminate();
    this.worker = null;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('config') && JSON.stringify(changed.get('config')) !== JSON.stringify(this.config)) this.start();
  }

  /** A new configuration: a new worker (the old one's layout is of no use), the first gather, no zoom. */
  private start(): void {
    this.worker?.terminate();
    this.worker = null;
    this.overview = null;
    this.failure = null;
    this.readyMs = null;
    this.gather = 0;
    this.zoom = null;
    if (!this.config) return;
    this.started = performance.now();
    this.request();
  }

  /** Asks the worker (started on first use, kept for this configuration) for the current gather and window. */
  private request(): void {
    if (!this.config) return;
    this.stage = { step: 'starting' };
    if (!this.worker) {
      const worker = new Worker(new URL('./overview-worker.ts', import.meta.url), { type: 'module' });
      this.worker = worker;
      worker.onmessage = (ev: MessageEvent<OverviewMessage>) => {
        if (this.worker !== worker) return;
        const m = ev.data;
        if (m.kind === 'progress') this.stage = m.stage;
        else if (m.kind === 'done') {
          this.overview = m.overview;
          this.fresh = true;
        } else this.failure = m.message;
      };
    }
    const request: OverviewRequest = { config: this.config, gather: this.gather, ...(this.zoom ? { zoom: this.zoom } : {}) };
    this.worker.postMessage(request);
  }

  /** Shows gather `gather` (0-based) and window `zoom` (null: the whole gather). */
  show(gather: number, zoom: Partial<OverviewWindow> | null): void {
    this.gather = gather;
    this.zoom = zoom;
    this.request();
  }

  override updated(): void {
    const o = this.overview;
    const canvas = this.renderRoot.querySelector('canvas');
    if (!o || !canvas || !this.fresh) return;
    this.fresh = false;
    canvas.width = o.cols;
    canvas.height = o.rows;
    const ctx = canvas.getContext('2d')!;
    const img = ctx.createImageData(o.cols, o.rows);
    // Copies per block on a square-root scale (a few crowded blocks must not wash out the rest): white → dark blue.
    const top = Math.sqrt(Math.max(1, o.maxCount));
    for (let i = 0; i < o.counts.length; i++) {
      const t = Math.sqrt(o.counts[i]!) / top;
      img.data[4 * i] = Math.round(255 - t * (255 - 33));
      img.data[4 * i + 1] = Math.round(255 - t * (255 - 68));
      img.data[4 * i + 2] = Math.round(255 - t * (255 - 120));
      img.data[4 * i + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
    canvas.style.height = `${Math.max(120, Math.min(480, (canvas.clientWidth * o.rows) / o.cols))}px`;
    this.dataset.shown = JSON.stringify({ gather: o.gatherIndex, ...o.window });
    if (this.readyMs === null) {
      this.readyMs = performance.now() - this.started;
      this.dataset.ready = String(Math.round(this.readyMs));
    }
  }

  override render() {
    const o = this.overview;
    const T = M().overview;
    if (this.failure) return html`<h2>${T.title}</h2><p role="alert">${coreOriginal(this.failure)}</p>`;
    if (!o)
      return html`<h2>${T.title}</h2><p class="progress" role="status">
        ${T.building(stageWords(this.stage))}</p>`;
    const w = o.window;
    const zoomed = w.rankFrom > 0 || w.rankTo < o.ranks || w.stepFrom > 0 || w.stepTo < o.gatherSteps.length;
    const firstStep = o.gatherSteps[0]!;
    const lastStep = o.gatherSteps.at(-1)!;
    const zoom = zoomed ? T.zoom(fmt(w.rankFrom), fmt(w.rankTo - 1), o.stepIndices) : '';
    return html`<h2>${T.heading(o.gatherIndex + 1, fmt(o.gatherCount), zoom, fmt(o.samples))}</h2>
      <form @submit=${this.onZoom} aria-label=${T.form}>
        ${
          o.gatherCount > 1
            ? html`<label>${T.gather(fmt(o.gatherCount))}<input id="overview-gather" name="gather" type="number" min="1" max=${o.gatherCount}
                .value=${String(o.gatherIndex + 1)} /></label>`
            : nothing
        }
        <label>${T.ranksFrom}<input id="rank-from" name="rankFrom" type="number" min="0" max=${o.ranks - 1} .value=${String(w.rankFrom)} /></label>
        <label>${T.to}<input id="rank-to" name="rankTo" type="number" min="0" max=${o.ranks - 1} .value=${String(w.rankTo - 1)} /></label>
        ${
          o.gatherSteps.length > 1
            ? html`<label>${T.stepsFrom}<input id="step-from" name="stepFrom" type="number" min=${firstStep} max=${lastStep}
                .value=${String(o.stepIndices[0])} /></label>
              <label>${T.to}<input id="step-to" name="stepTo" type="number" min=${firstStep} max=${lastStep} .value=${String(o.stepIndices.at(-1))} /></label>`
            : nothing
        }
        <button type="submit" class="zoom">${T.show}</button>
        ${zoomed ? html`<button type="button" class="unzoom" @click=${() => this.show(o.gatherIndex, null)}>${T.whole}</button>` : nothing}
      </form>
      <div class="wrap">
        <div>
          <canvas role="img" class=${o.ranksPerRow > 1 ? 'zoomable' : ''} @click=${this.onCanvasClick}
            aria-label=${T.heatmap(o.ranksPerRow > 1)}></canvas>
          <div class="axes"><span>${T.rankAxis(fmt(w.rankFrom), fmt(w.rankTo - 1), o.ranksPerRow)}</span>
            <span>${T.promptAxis(fmt(o.datasetSize - 1), o.promptsPerCol > 1 ? fmt(o.promptsPerCol) : null)}</span></div>
        </div>
        <dl>
          <dt>${T.samples(zoomed)}</dt><dd data-stat="samples">${fmt(o.samples)}</dd>
          <dt>${T.prompts}</dt><dd data-stat="prompts">${fmt(o.prompts)}</dd>
          <dt>${T.ranksPerPrompt}</dt><dd data-stat="ranks-per-prompt">${o.meanRanksPerPrompt.toFixed(2)}</dd>
          <dt>${T.maxOnRank}</dt><dd data-stat="max-on-rank">${fmt(o.maxCopiesOnOneRank)}</dd>
          <dt>${T.steps(zoomed)}</dt><dd data-stat="steps">${fmt(o.stepIndices.length)}</dd>
        </dl>
      </div>
      ${o.samples > 0 ? nothing : html`<p>${T.empty(zoomed)}</p>`}`;
  }

  /** The form: gather (1-based), ranks and steps as typed (inclusive); the core clamps what lies outside. */
  private onZoom = (ev: SubmitEvent) => {
    ev.preventDefault();
    const o = this.overview;
    if (!o) return;
    const form = new FormData(ev.target as HTMLFormElement);
    const num = (name: string, fallback: number) => {
      const v = form.get(name);
      const n = v === null || String(v).trim() === '' ? Number.NaN : Number(v);
      return Number.isFinite(n) ? Math.trunc(n) : fallback;
    };
    const gather = num('gather', o.gatherIndex + 1) - 1;
    const sameGather = gather === o.gatherIndex;
    const first = o.gatherSteps[0]!;
    const zoom: Partial<OverviewWindow> = {
      rankFrom: num('rankFrom', 0),
      rankTo: num('rankTo', o.ranks - 1) + 1,
      // Another gather covers other steps: its whole span unless typed for it.
      ...(sameGather && o.gatherSteps.length > 1
        ? { stepFrom: num('stepFrom', first) - first, stepTo: num('stepTo', o.gatherSteps.at(-1)!) - first + 1 }
        : {}),
    };
    this.show(gather, zoom);
  };

  /** A click on a heatmap row zooms into that row's ranks. */
  private onCanvasClick = (ev: MouseEvent) => {
    const o = this.overview;
    if (!o || o.ranksPerRow <= 1) return;
    const box = (ev.target as HTMLCanvasElement).getBoundingClientRect();
    const row = Math.min(o.rows - 1, Math.max(0, Math.floor(((ev.clientY - box.top) / box.height) * o.rows)));
    const rankFrom = o.window.rankFrom + row * o.ranksPerRow;
    this.show(o.gatherIndex, { ...o.window, rankFrom, rankTo: Math.min(o.window.rankTo, rankFrom + o.ranksPerRow) });
  };
}
customElements.define('grpo-overview', OverviewPanel);
