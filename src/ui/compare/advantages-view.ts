// <grpo-advantages>: every framework's advantages for one batch of rewards, side by side
// (src/core/grpo/compare.ts computes them; this element draws them): a row per scheme, a column per
// completion, each cell the completion's advantage as a coloured cell with its value written in it,
// then what each framework refuses or flags and a line per scheme; below, each framework's token weights under its
// default loss normaliser and each completion's total, advantage × weight × tokens (compare-weights.ts; two
// figures). Attributes: `rewards` and `prompts` (comma separated, one per completion), `k`, `schemes` (comma
// separated, or `all`; default: each framework's shipped default) and `lengths` (completion tokens, one per
// completion; empty: seeded), so `?view=advantages&…` and an article set it alike.
// The figure wraps its completions into bands to fit the element's width (no sideways scrolling).
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { type CompareInput, type Comparison, compareAdvantages, comparedSchemes, defaultSchemes } from '../../core/grpo/compare.ts';
import { type WeightsComparison, compareWeights, weightSchemes } from '../../core/grpo/compare-weights.ts';
import { coreOriginal, type Said, saidOf, withCoreMessage } from '../core-text.ts';
import { ElementWidth } from '../element-width.ts';
import { section } from '../i18n/index.ts';
import { advantagesFigure, cellText } from './advantages-figure.ts';
import { ADVANTAGES_ATTRIBUTES, DEFAULT_BATCH, parseList } from './advantages-request.ts';
import { weightsFigure } from './weights-figure.ts';

export const MSG = section('advantages');

export class GrpoAdvantagesView extends LitElement {
  static override properties = {
    rewards: { type: String, reflect: true },
    prompts: { type: String, reflect: true },
    k: { type: String, reflect: true },
    schemes: { type: String, reflect: true },
    lengths: { type: String, reflect: true },
  };

  declare rewards: string | null;
  declare prompts: string | null;
  declare k: string | null;
  declare schemes: string | null;
  declare lengths: string | null;
  /** The room the figure has, in px (measured; 360 until the first measure). */
  private readonly figureWidth = new ElementWidth(this, 360);

  private input: CompareInput | null = null;
  private result: Comparison | null = null;
  private weights: WeightsComparison | null = null;
  private error: Said | string | null = null;

  static override styles = css`
    :host { display: block; font: 14px/1.45 system-ui, sans-serif; color: #222; max-width: 100%; }
    h2 { font-size: 16px; margin: 4px 0 8px; }
    h3 { font-size: 14px; margin: 12px 0 4px; }
    form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; margin-bottom: 10px; font-size: 12px; }
    label { display: flex; flex-direction: column; gap: 2px; color: #444; max-width: 100%; }
    label.check { flex-direction: row; align-items: center; gap: 6px; }
    input { font: inherit; font-size: 13px; }
    input.list { width: 22em; max-width: calc(100vw - 40px); }
    input[type='number'] { width: 5em; }
    .figure { max-width: 100%; }
    .figure svg, .weights svg { display: block; max-width: none; }
    .weights { max-width: 100%; margin: 6px 0; }
    .error { color: #a00; }
    .meta { font-size: 12px; color: #555; max-width: 1100px; margin: 4px 0; }
    ul { margin: 4px 0; padding-left: 18px; font-size: 13px; max-width: 1100px; }
    li { margin: 3px 0; overflow-wrap: anywhere; }
    code, li .scheme { font-family: ui-monospace, monospace; font-size: 12px; }
  `;

  constructor() {
    super();
    this.rewards = null;
    this.prompts = null;
    this.k = null;
    this.schemes = null;
    this.lengths = null;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (!this.hasUpdated || ADVANTAGES_ATTRIBUTES.some((a) => changed.has(a))) this.compute();
  }

  private compute(): void {
    this.result = null;
    this.weights = null;
    this.input = null;
    const rewards = parseList(this.rewards ?? DEFAULT_BATCH.rewards);
    const prompts = parseList(this.prompts ?? DEFAULT_BATCH.prompts);
    const k = Number(this.k ?? DEFAULT_BATCH.k);
    if ('bad' in rewards) {
      this.error = MSG.badNumber(MSG.rewards, rewards.bad);
      return;
    }
    if ('bad' in prompts) {
      this.error = MSG.badNumber(MSG.prompts, prompts.bad);
      return;
    }
    const lengthsText = (this.lengths ?? DEFAULT_BATCH.lengths).trim();
    const lengths = lengthsText ? parseList(lengthsText) : null;
    if (lengths && 'bad' in lengths) {
      this.error = MSG.badNumber(MSG.weights.lengths, lengths.bad);
      return;
    }
    const schemes =
      this.schemes === 'all'
        ? comparedSchemes()
        : this.schemes
          ? this.schemes
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : defaultSchemes();
    try {
      this.input = { rewards: rewards.values, promptIds: prompts.values, k };
      this.result = compareAdvantages(this.input, schemes);
      // The totals take each framework's default advantages, whichever rows the advantages figure shows.
      this.weights = compareWeights({ ...this.input, lengths: lengths?.values }, compareAdvantages(this.input, weightSchemes()));
      this.error = null;
    } catch (err) {
      this.input = null;
      this.error = saidOf(err);
    }
  }

  /** Embedding (embed/lazy.ts): computed from the attributes as they change; nothing runs in the background. */
  start(): void {}
  pause(): void {}

  /** The figure as drawn (the figure export takes it). */
  figure(): SVGSVGElement | null {
    return this.renderRoot.querySelector('.figure svg');
  }

  private form() {
    const text = (name: 'rewards' | 'prompts' | 'lengths', label: string) =>
      html`<label>${label}<input class="list" name=${name} .value=${this[name] ?? DEFAULT_BATCH[name]}
        @change=${(e: Event) => {
          this[name] = (e.target as HTMLInputElement).value;
        }}></label>`;
    return html`<form @submit=${(e: Event) => e.preventDefault()}>
      ${text('rewards', MSG.rewards)} ${text('prompts', MSG.prompts)}
      ${text('lengths', MSG.weights.lengths)}
      <label>${MSG.k}<input type="number" name="k" min="1" .value=${this.k ?? DEFAULT_BATCH.k}
        @change=${(e: Event) => {
          this.k = (e.target as HTMLInputElement).value;
        }}></label>
      <label class="check"><input type="checkbox" name="variants" .checked=${this.schemes === 'all'}
        @change=${(e: Event) => {
          this.schemes = (e.target as HTMLInputElement).checked ? 'all' : null;
        }}>${MSG.variants}</label>
    </form>`;
  }

  /** What each framework refuses or flags on this batch. */
  private flagged(r: Comparison, k: number) {
    const items = r.columns.flatMap((c) => [
      ...(c.refused
        ? [
            html`<li data-scheme=${c.scheme}><span class="scheme" translate="no">${c.scheme}</span> ${MSG.refuses}${coreOriginal(c.refused)}</li>`,
          ]
        : []),
      ...c.warnings.map((w) =>
        w.kind === 'mixed'
          ? html`<li data-scheme=${c.scheme}><span class="scheme" translate="no">${c.scheme}</span>: ${MSG.mixed(
              k,
              w.groups.map((g) => MSG.run(g.group, g.positions[0], g.positions[1], g.promptIds.join(','))).join('; '),
            )}</li>`
          : html`<li data-scheme=${c.scheme}><span class="scheme" translate="no">${c.scheme}</span>: ${coreOriginal(w.text)}</li>`,
      ),
    ]);
    return html`<h3>${MSG.flagged}</h3>${items.length ? html`<ul class="flagged">${items}</ul>` : html`<p class="meta">${MSG.nothingFlagged}</p>`}`;
  }

  private perScheme(r: Comparison, n: number) {
    return html`<h3>${MSG.perScheme}</h3>
      <ul class="per-scheme">
        ${r.columns.map(
          (c) =>
            html`<li><span class="scheme" translate="no">${c.scheme}</span>: <span translate="no">${c.framework} ${c.version}</span>, ${
              MSG.grouping[c.grouping] ?? c.grouping
            }${
              c.summary
                ? html`; ${MSG.summary(r.best, cellText(c.summary.best), r.worst, cellText(c.summary.worst), c.summary.zero, n)}`
                : nothing
            }</li>`,
        )}
      </ul>`;
  }

  /** Each framework's token weights and each completion's total, under the advantages. */
  private weightsPart(input: CompareInput, w: WeightsComparison, asFigure: boolean) {
    const W = MSG.weights;
    const source = w.lengthsSource;
    return html`<h3 class="weights-title">${W.title}</h3>
      <p class="meta">${W.assumption} ${source.kind === 'given' ? W.given : W.seeded(source.seed, source.low, source.high)}</p>
      <p class="meta">${W.weightLegend}</p>
      <div class="weights" data-mode="weight">${unsafeHTML(weightsFigure(input, w, W.figure, this.figureWidth.value, 'weight'))}</div>
      <p class="meta">${W.totalLegend(w.lengths.length)}</p>
      <div class="weights" data-mode="total">${unsafeHTML(weightsFigure(input, w, W.figure, this.figureWidth.value, 'total'))}</div>
      ${
        asFigure
          ? nothing
          : html`<ul class="per-framework">
        ${w.columns.map(
          (c) =>
            html`<li data-framework=${c.name}><span class="scheme" translate="no">${c.name}</span>: <code translate="no">steps --framework ${
              c.framework
            }</code>, ${W.loss} <code translate="no">${c.loss}</code>${c.switched ? W.switched : nothing}${
              c.refused ? html`; ${MSG.refuses}${coreOriginal(c.refused)}` : html`; ${W.normaliser}${coreOriginal(c.normaliser ?? '')}`
            }</li>`,
        )}
          </ul>`
      }`;
  }

  override render() {
    const asFigure = this.hasAttribute('figure');
    const r = this.result;
    const input = this.input;
    return html`${asFigure ? nothing : html`<h2>${MSG.title}</h2>${this.form()}`}
      ${
        this.error
          ? html`<p class="error" role="alert">${typeof this.error === 'string' ? MSG.error(this.error) : withCoreMessage(MSG.error, this.error)}</p>`
          : nothing
      }
      ${
        r && input
          ? html`<p class="meta">${this.schemes === 'all' ? MSG.all : this.schemes ? nothing : MSG.defaults} ${MSG.legend}</p>
            <div class="figure">${unsafeHTML(advantagesFigure(input, r, MSG.figure, this.figureWidth.value))}</div>
            ${this.flagged(r, input.k)} ${asFigure ? nothing : this.perScheme(r, input.rewards.length)}
            ${this.weights ? this.weightsPart(input, this.weights, asFigure) : nothing}`
          : nothing
      }`;
  }
}

if (!customElements.get('grpo-advantages')) customElements.define('grpo-advantages', GrpoAdvantagesView);
