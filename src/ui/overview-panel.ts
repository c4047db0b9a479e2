// <grpo-overview>: a layout too big to draw tile by tile, as an overview. A worker
// (overview-worker.ts) builds the layout and counts, with progress shown here; the result is a
// rank × prompt heatmap of copies (darker = more copies in that block) and the counts beside it.
import { LitElement, css, html, nothing } from 'lit';
import type { LayoutConfig } from '../core/layout/types.ts';
import type { LayoutOverview } from '../core/layout/overview.ts';
import type { OverviewMessage } from './overview-worker.ts';

const fmt = (n: number) => n.toLocaleString('en-US');

export class OverviewPanel extends LitElement {
  static override properties = {
    config: { attribute: false },
    stage: { state: true },
    overview: { state: true },
    failure: { state: true },
  };

  declare config: LayoutConfig | null;
  declare stage: string;
  declare overview: LayoutOverview | null;
  declare failure: string | null;
  /** Milliseconds from the request to the overview on screen (for the benchmark). */
  readyMs: number | null = null;
  private worker: Worker | null = null;
  private started = 0;

  static override styles = css`
    :host { display: block; font-size: 13px; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #595959; margin: 0 0 6px; }
    .wrap { display: grid; grid-template-columns: minmax(0, 1fr) 220px; gap: 12px; align-items: start; }
    canvas { width: 100%; image-rendering: pixelated; border: 1px solid #ccc; background: #fff; }
    .axes { color: #595959; font-size: 12px; display: flex; justify-content: space-between; }
    dl { display: grid; grid-template-columns: auto auto; gap: 2px 10px; margin: 0; }
    dd { margin: 0; text-align: right; font-weight: 600; font-variant-numeric: tabular-nums; }
    .progress { color: #1f3b5a; }
    @media (max-width: 700px) { .wrap { grid-template-columns: minmax(0, 1fr); } }
  `;

  constructor() {
    super();
    this.config = null;
    this.stage = '';
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

  private start(): void {
    this.worker?.terminate();
    this.overview = null;
    this.failure = null;
    this.readyMs = null;
    if (!this.config) return;
    this.stage = 'starting a worker';
    this.started = performance.now();
    const worker = new Worker(new URL('./overview-worker.ts', import.meta.url), { type: 'module' });
    this.worker = worker;
    worker.onmessage = (ev: MessageEvent<OverviewMessage>) => {
      const m = ev.data;
      if (m.kind === 'progress') this.stage = m.stage;
      else {
        if (m.kind === 'done') this.overview = m.overview;
        else this.failure = m.message;
        worker.terminate();
        if (this.worker === worker) this.worker = null;
      }
    };
    worker.postMessage({ config: this.config, gather: 0 });
  }

  override updated(): void {
    const o = this.overview;
    const canvas = this.renderRoot.querySelector('canvas');
    if (!o || !canvas) return;
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
    if (this.readyMs === null) {
      this.readyMs = performance.now() - this.started;
      this.dataset.ready = String(Math.round(this.readyMs));
    }
  }

  override render() {
    const o = this.overview;
    if (this.failure) return html`<h2>Overview</h2><p role="alert">${this.failure}</p>`;
    if (!o)
      return html`<h2>Overview</h2><p class="progress" role="status">
        Too many tiles to draw one by one; building an overview in the background: ${this.stage}…</p>`;
    return html`<h2>Overview of gather 1 (${fmt(o.samples)} samples)</h2>
      <div class="wrap">
        <div>
          <canvas role="img" aria-label="heatmap: rows are ranks, columns are prompt ids, darker means more copies"></canvas>
          <div class="axes"><span>↓ ranks 0 … ${fmt(o.ranks - 1)}${o.ranksPerRow > 1 ? ` (${o.ranksPerRow} per row)` : ''}</span>
            <span>prompt ids 0 … ${fmt(o.datasetSize - 1)} → ${o.promptsPerCol > 1 ? `(${fmt(o.promptsPerCol)} per column)` : ''}</span></div>
        </div>
        <dl>
          <dt>samples in the gather</dt><dd data-stat="samples">${fmt(o.samples)}</dd>
          <dt>distinct prompts</dt><dd data-stat="prompts">${fmt(o.prompts)}</dd>
          <dt>ranks a prompt reaches (mean)</dt><dd data-stat="ranks-per-prompt">${o.meanRanksPerPrompt.toFixed(2)}</dd>
          <dt>most copies of a prompt on one rank</dt><dd data-stat="max-on-rank">${fmt(o.maxCopiesOnOneRank)}</dd>
          <dt>steps in the gather</dt><dd>${fmt(o.stepIndices.length)}</dd>
        </dl>
      </div>
      ${o.samples > 0 ? nothing : html`<p>This gather is empty.</p>`}`;
  }
}
customElements.define('grpo-overview', OverviewPanel);
