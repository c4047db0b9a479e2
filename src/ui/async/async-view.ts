// <grpo-async>: asynchronous GRPO in virtual time (src/core/async computes it; this element draws it): the trainer's
// steps and one lane per generation slot on one time axis, each completion coloured by the policy version(s) that
// decoded it, drops crossed out and said in words, the trainer's idle time hatched; a slider for the chosen framework's
// staleness bound (labelled with the framework's own key), a picker of every rule the core offers, the workload's knobs;
// under the figure every framework side by side on the same workload (`grpo-sandbox async --framework all`). Attributes
// are named like the CLI's flags and read by the core's readers (async-request.ts). With `figure` (an article's figure):
// the picture, its words and one control, the slider.
import { LitElement, type PropertyValues, css, html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { RULES, ruleDef } from '../../core/async/index.ts';
import type { RuleDef, RuleKey } from '../../core/async/rule.ts';
import { type AsyncResult, type AsyncWorkload, type DropReason, LENGTH_DISTRIBUTIONS } from '../../core/async/types.ts';
import { WORKLOAD_DEFAULTS } from '../../core/async/workload-settings.ts';
import { type Said, coreOriginal, saidOf, withCoreMessage } from '../core-text.ts';
import { section } from '../i18n/index.ts';
import { ElementWidth } from '../element-width.ts';
import { ScrollHint, scrollHintStyles } from '../scroll-hint.ts';
import { ASYNC_FIGURE_WIDTH_MAX, asyncFigure, newestVersion, versionColour } from './async-figure.ts';
import { ASYNC_ATTRIBUTES, DEFAULT_FRAMEWORK, RULE_ATTRIBUTES, asyncRequest, boundKey, boundValues } from './async-request.ts';
import { type AsyncTrace, type CompareRow, boundText, compareAll, traceRun } from './async-trace.ts';

export const MSG = section('async');

export { ASYNC_ATTRIBUTES };

/** Property of an attribute, prefixed so none shadows an HTMLElement member: `gen-workers` → `optGenWorkers`. */
const prop = (a: string) => `opt${a.replace(/(^|-)(\w)/g, (_, _d: string, c: string) => c.toUpperCase())}`;

/** The workload's knobs the form offers, by key. */
const KNOBS = ['gen-workers', 'concurrency', 'train-batch-size', 'k', 'steps', 'seed'] as const;
const KNOB_DEFAULTS: Record<(typeof KNOBS)[number], number> = {
  'gen-workers': WORKLOAD_DEFAULTS.genWorkers,
  concurrency: WORKLOAD_DEFAULTS.concurrency,
  'train-batch-size': WORKLOAD_DEFAULTS.trainBatchSize,
  k: WORKLOAD_DEFAULTS.k,
  steps: WORKLOAD_DEFAULTS.steps,
  seed: WORKLOAD_DEFAULTS.seed,
};

const fixed = (x: number, d = 2) => x.toFixed(d);
const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;

export class GrpoAsyncView extends LitElement {
  /** Says when the figure or the table is wider than its box (a phone). */
  readonly scrollHint = new ScrollHint(this, '.figure, .table-scroll');
  static override properties = {
    ...Object.fromEntries(ASYNC_ATTRIBUTES.map((a) => [prop(a), { type: String, attribute: a, reflect: true }])),
    trace: { state: true },
    error: { state: true },
  };

  /** The width the figure is drawn at: the element's content box (the timeline fits its column, never scrolls). */
  private readonly figureWidth = new ElementWidth(this, ASYNC_FIGURE_WIDTH_MAX);

  declare trace: AsyncTrace | null;
  declare error: Said | null;
  private def: RuleDef | null = null;
  private workload: AsyncWorkload | null = null;
  /** The side-by-side table, kept while the workload stays the same (the slider moves only the figure's rule). */
  private compared: { key: string; rows: CompareRow[] } | null = null;

  static override styles = [
    scrollHintStyles,
    css`
    :host { display: block; font: 14px/1.45 system-ui, sans-serif; color: #222; }
    h2 { font-size: 16px; margin: 4px 0 8px; }
    h3 { font-size: 14px; margin: 14px 0 6px; }
    form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; margin-bottom: 10px; font-size: 12px; }
    label { display: flex; flex-direction: column; gap: 2px; color: #444; max-width: 100%; }
    input, select { font: inherit; font-size: 13px; }
    input[type='number'] { width: 6em; }
    select { width: auto; max-width: 100%; }
    label.bound { min-width: min(320px, 100%); }
    label.bound input { width: 100%; margin: 0; box-sizing: border-box; }
    /* A framework's own key is one long word (async_rl.min_groups_for_streaming_train): it may break anywhere on a phone. */
    label code { overflow-wrap: anywhere; }
    .figure { overflow-x: auto; }
    .figure svg { display: block; }
    .table-scroll { overflow-x: auto; }
    table { border-collapse: collapse; font-size: 12px; font-variant-numeric: tabular-nums; }
    th, td { padding: 3px 8px; border-bottom: 1px solid #e2e2e2; text-align: right; white-space: nowrap; }
    th:first-child, th:nth-child(2), td:first-child, td.setting { text-align: left; }
    tr.chosen td { background: #fff6d6; }
    .error { color: #a00; }
    .meta, .legend, .summary, .command, .drops { font-size: 12px; color: #444; max-width: 1100px; overflow-wrap: anywhere; }
    .swatch { display: inline-block; width: 1.6em; height: 0.9em; vertical-align: -1px; margin: 0 2px 0 8px; border-radius: 2px; }
    .cross { color: #c00; font-weight: 700; }
    .hatch { display: inline-block; width: 1.6em; height: 0.9em; vertical-align: -1px;
      background: repeating-linear-gradient(45deg, #fbe3e3 0 3px, #d88 3px 5px); border: 1px solid #c66; }
    ul.drops { margin: 4px 0; padding-left: 1.2em; }
    code { font-size: 12px; }
    .i18n-original { color: #555; }
  `,
  ];

  constructor() {
    super();
    this.trace = null;
    this.error = null;
  }

  private attr(name: string): string | null {
    return (this as unknown as Record<string, string | null | undefined>)[prop(name)] ?? null;
  }

  private set(name: string, value: string | null): void {
    (this as unknown as Record<string, string | null>)[prop(name)] = value === '' ? null : value;
  }

  private attrs(): Record<string, string | null> {
    return Object.fromEntries(ASYNC_ATTRIBUTES.map((a) => [a, this.attr(a)]));
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (!this.hasUpdated || [...changed.keys()].some((k) => k !== 'trace' && k !== 'error')) this.compute();
  }

  private compute(): void {
    try {
      const { workload, def, values } = asyncRequest(this.attrs());
      this.def = def;
      this.workload = workload;
      this.trace = traceRun(workload, def, values);
      const key = JSON.stringify(workload);
      if (this.compared?.key !== key && !this.hasAttribute('figure')) this.compared = { key, rows: compareAll(workload) };
      this.error = null;
    } catch (err) {
      this.trace = null;
      this.error = saidOf(err, true);
    }
  }

  /** Embedding (embed/lazy.ts): the run is computed from the attributes as they change; nothing runs in the background. */
  start(): void {}
  pause(): void {}

  /** The timeline as drawn (the figure export takes it). */
  figure(): SVGSVGElement | null {
    return this.renderRoot.querySelector('.figure svg');
  }

  private frameworkName(): string {
    return this.def?.framework ?? this.attr('framework') ?? DEFAULT_FRAMEWORK;
  }

  /** The slider over the framework's staleness bound, labelled with its own key; words where it has none. */
  private slider() {
    const def = this.def ?? ruleDef(this.frameworkName());
    if (!def || !this.workload) return nothing;
    const key = boundKey(def);
    if (!key) return html`<p class="meta no-bound">${MSG.noBound(def.framework)}</p>`;
    const givenText = this.attr('max-staleness');
    const given = givenText === null ? null : Number(givenText);
    const values = boundValues(def, key, this.workload, given !== null && Number.isFinite(given) ? given : null);
    const current = given !== null && values.includes(given) ? given : (key.default as number);
    const index = Math.max(0, values.indexOf(current));
    return html`<label class="bound">
      <span><code translate="no">${key.key}</code> = <output>${current}</output> ${MSG.shipped(String(key.default))}</span>
      <input type="range" name="max-staleness" min="0" max=${values.length - 1} step="1" .value=${String(index)}
        aria-valuetext=${String(current)}
        @input=${(e: Event) => this.set('max-staleness', String(values[Number((e.target as HTMLInputElement).value)]))}>
    </label>`;
  }

  private frameworkPicker() {
    const chosen = this.frameworkName();
    return html`<label>${MSG.framework}<select name="framework" translate="no" @change=${(e: Event) => {
      // Another framework's settings mean nothing to this one: its own start from its shipped defaults.
      for (const a of RULE_ATTRIBUTES) this.set(a, null);
      this.set('framework', (e.target as HTMLSelectElement).value);
    }}>
      ${RULES.map((d) => html`<option .selected=${d.framework === chosen} value=${d.framework}>${d.framework}</option>`)}
    </select></label>`;
  }

  /** The framework's other own settings (not the bound), each by its own key. */
  private ruleSettings(def: RuleDef) {
    const field = (k: RuleKey) => {
      const shown = this.attr(k.flag) ?? (k.default === null ? '' : String(k.default));
      const change = (e: Event) => this.set(k.flag, (e.target as HTMLInputElement | HTMLSelectElement).value);
      const label = html`<code translate="no">${k.key}</code>`;
      if (k.kind === 'choice' || k.kind === 'bool') {
        const choices = k.kind === 'bool' ? ['true', 'false'] : [...(k.choices ?? [])];
        return html`<label>${label}<select name=${k.flag} translate="no" @change=${change}>
          ${choices.map((c) => html`<option .selected=${c === shown} value=${c}>${c}</option>`)}</select></label>`;
      }
      return html`<label>${label}<input type="number" name=${k.flag} min=${k.min ?? 0} step=${k.kind === 'int' ? 1 : 'any'}
        placeholder=${k.default === null ? MSG.derived : ''} .value=${shown} @change=${change}></label>`;
    };
    return def.keys.filter((k) => k.flag !== 'max-staleness').map(field);
  }

  private workloadKnobs() {
    const num = (key: (typeof KNOBS)[number]) =>
      html`<label>${MSG.knobs[key]}<input type="number" name=${key} min=${key === 'seed' ? 0 : 1}
        .value=${this.attr(key) ?? String(KNOB_DEFAULTS[key])} @change=${(e: Event) => this.set(key, (e.target as HTMLInputElement).value)}></label>`;
    const dist = this.attr('length-distribution') ?? WORKLOAD_DEFAULTS.lengthDistribution;
    return html`${KNOBS.slice(0, 5).map(num)}
      <label>${MSG.knobs.lengths}<select name="length-distribution"
        @change=${(e: Event) => this.set('length-distribution', (e.target as HTMLSelectElement).value)}>
        ${LENGTH_DISTRIBUTIONS.map((n) => html`<option .selected=${n === dist} value=${n}>${MSG.lengthNames[n]}</option>`)}
      </select></label>
      ${num('seed')}`;
  }

  private controls() {
    const stop = (e: Event) => e.preventDefault();
    if (this.hasAttribute('figure')) return html`<form @submit=${stop}>${this.slider()}</form>`;
    const def = this.def ?? ruleDef(this.frameworkName());
    return html`<form class="rule" @submit=${stop}>${this.frameworkPicker()}${this.slider()}${def ? this.ruleSettings(def) : nothing}</form>
      <form class="workload" @submit=${stop}>${this.workloadKnobs()}</form>`;
  }

  /** The CLI line that prints this run's numbers (the flags given, as the attributes hold them). */
  private command(all: boolean): string {
    const flags = ASYNC_ATTRIBUTES.filter((a) => a !== 'framework' && this.attr(a) !== null)
      .filter((a) => !all || !RULE_ATTRIBUTES.includes(a))
      .map((a) => `--${a} ${this.attr(a)}`);
    return ['grpo-sandbox async --framework', all ? 'all' : this.frameworkName(), ...flags].join(' ');
  }

  private legend(trace: AsyncTrace) {
    const newest = newestVersion(trace);
    return html`<p class="legend">${MSG.legend}</p>
      <p class="legend versions">${MSG.versions}${Array.from(
        { length: newest + 1 },
        (_, v) => html`<span class="swatch" style="background:${versionColour(v, newest)}"></span>v${v}`,
      )}
      · <span class="hatch"></span> ${MSG.idleKey} · <span class="cross">✕</span> ${MSG.droppedKey}</p>`;
  }

  private summary(r: AsyncResult) {
    const s = r.summary;
    const trained = r.steps.reduce((n, st) => n + st.samples.length, 0);
    const why = new Map<DropReason, number>();
    for (const d of r.dropped) why.set(d.why, (why.get(d.why) ?? 0) + 1);
    const hard = s.lengthBias.byDifficulty.hard;
    const first = r.dropped[0];
    return html`<p class="summary run">${MSG.run(s.steps, fixed(s.makespan, 1), trained, fixed(s.meanLag), s.maxLag, fixed(s.trainerIdle, 1))}</p>
      <p class="meta lag">${MSG.lagIs(r.framework)}${coreOriginal(r.lagDefinition)}</p>
      ${
        r.dropped.length === 0
          ? html`<p class="summary drops-none">${MSG.dropsNone}</p>`
          : html`<p class="summary drops-total">${MSG.dropped(r.dropped.length)}</p>
            <ul class="drops">${[...why].map(([w, n]) => html`<li data-why=${w}><span class="cross">✕</span> ${MSG.why[w](n)}</li>`)}</ul>
            ${first ? html`<p class="summary first-drop">${MSG.firstDrop(first.prompt, first.atVersion)}${coreOriginal(first.detail)}</p>` : nothing}`
      }
      <p class="summary bias">${MSG.bias(fixed(s.lengthBias.trainedMean, 0), fixed(s.lengthBias.generatedMean, 0), pct(s.lengthBias.bias))}${
        hard ? MSG.hard(hard.trained, hard.generated) : ''
      }</p>`;
  }

  private table(rows: CompareRow[]) {
    const chosen = this.frameworkName();
    const trace = this.trace;
    const row = (def: RuleDef, r: AsyncResult, cls: string, name: string) => {
      const hard = r.summary.lengthBias.byDifficulty.hard;
      return html`<tr class=${cls} data-framework=${def.framework}>
        <td translate="no">${name}</td>
        <td class="setting" translate="no">${boundText(def, r) ?? MSG.noVersionControl}</td>
        <td class="mean-lag">${fixed(r.summary.meanLag)}</td>
        <td class="max-lag">${r.summary.maxLag}</td>
        <td class="dropped">${r.summary.dropped}</td>
        <td class="throughput">${fixed(r.summary.throughput, 3)}</td>
        <td class="idle">${fixed(r.summary.trainerIdle, 1)}</td>
        <td class="bias">${pct(r.summary.lengthBias.bias)}</td>
        <td class="hard">${hard ? `${hard.trained}/${hard.generated}` : '—'}</td>
      </tr>`;
    };
    const shipped = rows.find((x) => x.def.framework === chosen);
    const differs = trace && shipped && JSON.stringify(trace.result.settings) !== JSON.stringify(shipped.result.settings);
    return html`<h3>${MSG.tableTitle}</h3>
      <div class="table-scroll"><table class="compare">
        <thead><tr>${MSG.columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
        <tbody>
          ${differs && this.def ? row(this.def, trace.result, 'chosen figure-row', MSG.inFigure(chosen)) : nothing}
          ${rows.map((x) => row(x.def, x.result, x.def.framework === chosen && !differs ? 'chosen' : '', x.def.framework))}
        </tbody>
      </table></div>
      <p class="meta">${MSG.tableNote}</p>
      <p class="command">${MSG.commandLead} <code translate="no">${this.command(true)}</code></p>`;
  }

  override render() {
    const t = this.trace;
    const asFigure = this.hasAttribute('figure');
    return html`${asFigure ? nothing : html`<h2>${MSG.title}</h2>`}
      ${this.controls()}
      ${this.error ? html`<p class="error" role="alert">${withCoreMessage(MSG.error, this.error)}</p>` : nothing}
      ${
        t
          ? html`${this.legend(t)}
            <div class="figure">${unsafeHTML(asyncFigure(t, MSG.figure, this.figureWidth.value))}</div>
            ${this.summary(t.result)}
            ${asFigure ? nothing : html`<p class="command">${MSG.commandLead} <code translate="no">${this.command(false)}</code></p>`}
            ${!asFigure && this.compared ? this.table(this.compared.rows) : nothing}`
          : nothing
      }`;
  }
}

if (!customElements.get('grpo-async')) customElements.define('grpo-async', GrpoAsyncView);
