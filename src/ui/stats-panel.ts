// <grpo-stats-panel>: the layout module's statistics (src/core/layout/stats.ts) beside the
// picture — seed-000's arithmetic (16, 4, 32, 8) and how the copies spread over ranks.
import { LitElement, css, html, nothing } from 'lit';
import type { LayoutStats } from '../core/layout/stats.ts';
import type { TrainingCounts } from '../core/layout/types.ts';
import { M } from './i18n/index.ts';
import { noteText, type SaidFact } from './core-text.ts';

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

export class StatsPanel extends LitElement {
  static override properties = { stats: { attribute: false }, notes: { attribute: false }, counts: { attribute: false } };

  declare stats: LayoutStats | null;
  /** The framework's own step counts (generation batches, micro-steps, optimizer steps), or null. */
  declare counts: TrainingCounts | null;
  declare notes: readonly SaidFact[];

  static override styles = css`
    :host { display: block; font-size: 13px; }
    h3 { font-size: 12px; color: #555; margin: 10px 0 4px; font-weight: 600; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #666; margin: 0 0 8px; }
    dl { display: grid; grid-template-columns: auto auto; gap: 2px 12px; margin: 0; }
    dt { color: #555; }
    dd { margin: 0; font-variant-numeric: tabular-nums; font-weight: 600; text-align: right; }
    .hist { display: grid; grid-template-columns: auto 1fr auto; gap: 2px 6px; align-items: center; margin-top: 8px; font-size: 12px; }
    .bar { height: 10px; background: #4e79a7; border-radius: 2px; }
    ul { padding-left: 18px; color: #555; font-size: 12px; }
  `;

  constructor() {
    super();
    this.stats = null;
    this.notes = [];
    this.counts = null;
  }

  /** A sampler's note (a fact of the core) in the page's language. */
  private note(n: SaidFact) {
    return noteText(n);
  }

  /** Generation batches, micro-steps and optimizer steps, as the framework's training loop counts them. */
  private renderCounts() {
    const c = this.counts;
    if (!c) return nothing;
    const T = M().stats.counts;
    const keys = [
      ['generation-batches', 'generationBatches'],
      ['micro-steps', 'microSteps'],
      ['optimizer-steps', 'optimizerSteps'],
    ] as const;
    return html`<h3>${T.title}</h3>
      <dl class="counts">${keys.map(
        ([key, field]) => html`<dt>${T[key]}</dt><dd data-count=${key}>${fmt(c.perEpoch[field])} · ${fmt(c.total[field])}</dd>`,
      )}</dl>`;
  }

  override render() {
    const s = this.stats;
    if (!s) return nothing;
    const T = M().stats;
    const values: [keyof typeof T.rows, string][] = [
      ['samples-per-batch', fmt(s.samplesPerBatch)],
      ['prompts-per-batch', fmt(s.uniquePromptsPerBatch)],
      ['samples-per-epoch', fmt(s.samplesPerEpoch)],
      ['prompts-per-epoch', fmt(s.uniquePromptsPerEpoch)],
      ['per-rank-per-batch', fmt(s.perRankPerBatch)],
      ['per-rank-per-epoch', fmt(s.perRankPerEpoch)],
      ['steps', `${s.stepsPerEpoch} · ${s.totalSteps}`],
      ['gathers', `${s.gathers} × ${s.samplesPerGather}`],
      ['mean-ranks-spanned', fmt(s.meanRanksSpanned)],
      ['max-copies-on-rank', fmt(s.maxCopiesOnOneRank)],
      ['drawn-twice', fmt(s.promptsDrawnTwice.length)],
      ['off-size-prompt-groups', fmt(s.offSizePromptGroups)],
      ['mixed-view-rows', T.of(s.mixedViewRows, s.viewRows)],
    ];
    const rows = values.map(([key, value]) => [key, T.rows[key], value] as const);
    const hist = s.ranksSpannedHistogram;
    const max = Math.max(1, ...hist);
    return html`<h2>${T.title}</h2>
      <dl>${rows.map(([key, label, value]) => html`<dt>${label}</dt><dd data-stat=${key}>${value}</dd>`)}</dl>
      ${this.renderCounts()}
      <div class="hist" aria-label=${T.histogram}>
        ${hist.map((count, ranks) =>
          ranks === 0
            ? nothing
            : html`<span>${T.ranks(ranks)}</span>
          <span class="bar" style="width:${(100 * count) / max}%"></span><span>${count}</span>`,
        )}
      </div>
      ${this.notes.length > 0 ? html`<ul>${this.notes.map((n) => html`<li>${this.note(n)}</li>`)}</ul>` : nothing}`;
  }
}
customElements.define('grpo-stats-panel', StatsPanel);
