// <grpo-schedule>: seed-001's execution schemes as Gantt charts side by side (src/core/schedule
// simulates them; this element only draws), with makespan, idle fraction per rank, launches,
// peak batch and speed-up against serial-dp, and explain.ts's captions. Configured by
// attributes named like `grpo-sandbox schedule`'s flags (preset, ranks, batch, k, latency,
// config-time, policy, seed, alpha, max-batch, gather-cost, schemes) and by a small form that
// writes them; latencies from a constant T or from the controller task under the uniform policy
// or a trained one (a `grpo-sandbox train` run's checkpoint.json + config.json, given by file).
import { coreOriginal, type Said, saidOf, withCoreMessage } from '../core-text.ts';
import { section } from '../i18n/index.ts';
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import {
  captionFacts,
  conclusionFacts,
  formatTime,
  headlineFacts,
  schedulePresetNames,
  schedulePresets,
  simulateSchedules,
  type ControllerPolicy,
  type ScheduleResult,
  type SchemeResult,
} from '../../core/schedule/index.ts';
import { GANTT_COLUMNS, ganttSvg, sampleColour } from './schedule-gantt.ts';
import { SCHEDULE_ATTRIBUTES, scheduleRequest, type ScheduleRequest } from './schedule-request.ts';
import { readTrainedRun, type TrainedRun } from './trained-policy.ts';
import { ElementWidth } from '../element-width.ts';
import { ScrollHint, scrollHintStyles } from '../scroll-hint.ts';

/** Every user-visible string of this view: its section of the en/zh catalogues (src/ui/i18n), read in the current language. */
export const MSG = section('schedule');

type Attr = string;
type ScheduleAttributes = Record<string, string | null>;

/** Attribute name → property name (`max-batch` → `maxBatch`). */
const prop = (a: Attr) => a.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

export class GrpoScheduleView extends LitElement {
  /** Says when a figure or table is wider than its box. */
  readonly scrollHint = new ScrollHint(this, '.chart, .table-scroll');
  static override properties = {
    ...Object.fromEntries(SCHEDULE_ATTRIBUTES.map((a) => [prop(a), { type: String, attribute: a, reflect: true }])),
    result: { state: true },
    request: { state: true },
    error: { state: true },
    hovered: { state: true },
    figureOnly: { type: Boolean, attribute: 'figure' },
    run: { state: true },
    busy: { state: true },
  };

  declare preset: string | null;
  declare ranks: string | null;
  declare batch: string | null;
  declare k: string | null;
  declare latency: string | null;
  declare configTime: string | null;
  declare policy: string | null;
  declare seed: string | null;
  declare alpha: string | null;
  declare maxBatch: string | null;
  declare gatherCost: string | null;
  declare schemes: string | null;
  declare result: ScheduleResult | null;
  declare request: ScheduleRequest | null;
  declare error: Said | null;
  declare hovered: string;
  /** `figure`: the Gantt charts, their headline and key only (an article's figure). */
  declare figureOnly: boolean;
  declare run: TrainedRun | null;
  declare busy: boolean;
  /** Gantt panels a row: as many as the view's width keeps readable (3 on a desktop, 1 on a phone). */
  private readonly columns = new ElementWidth(this, GANTT_COLUMNS, (px) => (px >= 1100 ? 3 : px >= 700 ? 2 : 1));

  /** The trained policy's tables for the current batch and seed (a trained controller reads its prompts). */
  private trainedPolicy: { key: string; policy: ControllerPolicy } | null = null;
  private computeToken = 0;

  static override styles = [
    scrollHintStyles,
    css`
    :host { display: block; font: 14px/1.45 system-ui, sans-serif; color: #222; }
    h2 { font-size: 16px; margin: 4px 0 8px; }
    h3 { font-size: 14px; margin: 14px 0 6px; }
    form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; margin-bottom: 10px; font-size: 12px; }
    label { display: flex; flex-direction: column; gap: 2px; color: #444; }
    input, select { font: inherit; font-size: 13px; width: 7.5em; }
    /* A select is as wide as its longest option (a fixed width cut "controller task" to "controller ta"). */
    select { width: auto; max-width: 100%; }
    input[type='file'] { width: 16em; }
    .headline, .caption, .conclusion { max-width: 1100px; }
    .headline { color: #333; }
    /* On a narrow screen the charts and the table keep a readable size and scroll sideways (the page itself never does). */
    .chart, .table-scroll { overflow-x: auto; }
    /* As wide as the box, never below 80 % of its own size (then it scrolls): text stays at least 0.8 × its size. */
    .chart svg { width: 100%; height: auto; max-width: 1400px; }
    .readout { min-height: 1.4em; font: 12px ui-monospace, monospace; color: #333; }
    .legend { font-size: 12px; color: #444; }
    .legend span { display: inline-block; margin-right: 12px; }
    .swatch { display: inline-block; width: 12px; height: 12px; vertical-align: -2px; margin-right: 4px; border: 1px solid #222; }
    table { border-collapse: collapse; font-size: 13px; }
    th, td { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: right; font-variant-numeric: tabular-nums; }
    th:first-child, td:first-child { text-align: left; }
    td.idle { text-align: left; font-size: 12px; min-width: 16em; }
    /* A scheme's name and the numbers stay on one line; the table scrolls sideways instead of squeezing them. */
    td:not(.idle) { white-space: nowrap; }
    .error { color: #a00; font-weight: 600; }
    dl.captions dt { font-weight: 600; margin-top: 6px; }
    dl.captions dd { margin: 0 0 0 0; max-width: 1100px; }
  `,
  ];

  constructor() {
    super();
    for (const a of SCHEDULE_ATTRIBUTES) (this as unknown as Record<string, string | null>)[prop(a)] = null;
    this.result = null;
    this.request = null;
    this.error = null;
    this.hovered = '';
    this.run = null;
    this.busy = false;
  }

  /** Nothing runs in the background: the simulation is computed when the settings change. */
  start(): void {}
  pause(): void {}

  /** The Gantt charts (one SVG, every scheme), for figure export. */
  figure(): SVGSVGElement | null {
    return this.renderRoot.querySelector<SVGSVGElement>('svg.gantt');
  }

  /** The settings as the attributes give them. */
  attributesNow(): ScheduleAttributes {
    return Object.fromEntries(SCHEDULE_ATTRIBUTES.map((a) => [a, (this as unknown as Record<string, string | null>)[prop(a)]]));
  }

  /** Gives the element a trained run (checkpoint.json and config.json texts); sets policy=trained. */
  async loadTrainedRun(files: { name: string; text: string }[]): Promise<void> {
    try {
      this.run = readTrainedRun(files);
      this.trainedPolicy = null;
      this.error = null;
      if (this.latency === 'constant') this.latency = 'controller';
      this.policy = 'trained';
    } catch (err) {
      this.error = saidOf(err);
    }
  }

  protected override willUpdate(changed: PropertyValues): void {
    const settings = SCHEDULE_ATTRIBUTES.some((a) => changed.has(prop(a))) || changed.has('run');
    if (settings) this.recompute();
  }

  private recompute(): void {
    const attrs = this.attributesNow();
    try {
      let trained: ControllerPolicy | null = null;
      if (attrs.policy?.trim() === 'trained' && this.run) {
        // The trained controller reads its prompts: its tables depend on batch and seed.
        const probe = scheduleRequest({ ...attrs, policy: null, latency: 'constant', 'config-time': null }, null);
        const key = `${probe.config.batch}/${probe.config.seed}`;
        if (this.trainedPolicy?.key !== key) {
          this.computeTrained(key, probe.config.batch, probe.config.seed);
          return;
        }
        trained = this.trainedPolicy.policy;
      }
      const request = scheduleRequest(attrs, trained);
      this.request = request;
      this.result = simulateSchedules(request.config);
      this.error = null;
    } catch (err) {
      this.error = saidOf(err, true);
      this.result = null;
    }
  }

  private computeTrained(key: string, samples: number, seed: number): void {
    const run = this.run!;
    const token = ++this.computeToken;
    this.busy = true;
    run
      .policy(samples, seed)
      .then((policy) => {
        if (token !== this.computeToken) return;
        this.trainedPolicy = { key, policy };
        this.busy = false;
        this.recompute();
      })
      .catch((err: Error) => {
        if (token !== this.computeToken) return;
        this.busy = false;
        this.error = saidOf(err);
      });
  }

  private set(attr: Attr, value: string): void {
    (this as unknown as Record<string, string | null>)[prop(attr)] = value === '' ? null : value;
  }

  private async onFiles(e: Event): Promise<void> {
    const input = e.target as HTMLInputElement;
    const files = await Promise.all([...(input.files ?? [])].map(async (f) => ({ name: f.name, text: await f.text() })));
    await this.loadTrainedRun(files);
  }

  private onHover(e: Event): void {
    const target = (e.target as Element).closest('[data-text]');
    this.hovered = target?.getAttribute('data-text') ?? '';
  }

  private form() {
    const a = this.attributesNow();
    const c = this.request?.config;
    const field = (attr: Attr, label: string, value: string | number | null | undefined, type = 'text') =>
      html`<label>${label}<input name=${attr} type=${type} .value=${String(value ?? '')}
        @change=${(e: Event) => this.set(attr, (e.target as HTMLInputElement).value.trim())} /></label>`;
    const latency = a.latency ?? c?.latency.kind ?? 'constant';
    return html`<form @submit=${(e: Event) => e.preventDefault()} aria-label=${MSG.settings}>
      <label>${MSG.preset}<select name="preset" @change=${(e: Event) => this.set('preset', (e.target as HTMLSelectElement).value)}>
        ${schedulePresetNames.map((p) => html`<option ?selected=${(a.preset ?? 'seed-001') === p}>${p}</option>`)}
      </select></label>
      ${field('ranks', MSG.ranks, a.ranks ?? c?.ranks, 'number')}
      ${field('batch', MSG.batch, a.batch ?? c?.batch, 'number')}
      ${field('k', MSG.k, a.k ?? c?.k, 'number')}
      ${field('alpha', MSG.alpha, a.alpha ?? c?.alpha)}
      ${field('max-batch', MSG.maxBatch, a['max-batch'] ?? (c ? (c.maxBatch ?? 'none') : ''))}
      <label>${MSG.latency}<select name="latency" @change=${(e: Event) => {
        const v = (e.target as HTMLSelectElement).value;
        this.set('latency', v);
        if (v === 'constant') this.set('policy', '');
        else this.set('config-time', '');
      }}>
        <option value="constant" ?selected=${latency === 'constant'}>${MSG.constant}</option>
        <option value="controller" ?selected=${latency === 'controller'}>${MSG.controller}</option>
      </select></label>
      ${latency === 'constant' ? field('config-time', MSG.configTime, a['config-time'], 'number') : nothing}
      ${
        latency === 'controller'
          ? html`<label>${MSG.policy}<select name="policy" @change=${(e: Event) => this.set('policy', (e.target as HTMLSelectElement).value)}>
                <option value="uniform" ?selected=${(a.policy ?? 'uniform') === 'uniform'}>${MSG.uniform}</option>
                <option value="trained" ?selected=${a.policy === 'trained'}>${MSG.trained}</option>
              </select></label>
              ${field('seed', MSG.seed, a.seed ?? c?.seed, 'number')}`
          : nothing
      }
      <label>${MSG.runFiles}<input name="run" type="file" accept=".json,application/json" multiple @change=${this.onFiles} /></label>
    </form>
    ${this.run ? html`<p class="run">${MSG.runLoaded(this.run.name)}</p>` : nothing}`;
  }

  private legend(r: ScheduleResult) {
    const shown = Math.min(r.config.batch, 12);
    return html`<p class="legend">
      ${Array.from({ length: shown }, (_, s) => html`<span><i class="swatch" style="background:${sampleColour(s)}"></i>${MSG.sample(s + 1)}</span>`)}
      ${r.config.batch > shown ? html`<span>${MSG.moreSamples(r.config.batch - shown)}</span>` : nothing}
      <span><i class="swatch" style="background:#f3f3f3"></i>${MSG.legendIdle}</span>
      <span><i class="swatch" style="background:#555"></i>${MSG.legendGather}</span>
    </p>`;
  }

  private table(r: ScheduleResult, shown: SchemeResult[]) {
    const pct = (x: number) => `${Math.round(100 * x)}%`;
    const idle = (xs: number[]) =>
      xs.length <= 8
        ? xs.map((x, i) => `r${i} ${pct(x)}`).join(' · ')
        : `${xs
            .slice(0, 6)
            .map((x, i) => `r${i} ${pct(x)}`)
            .join(' · ')} … (min ${pct(Math.min(...xs))}, max ${pct(Math.max(...xs))})`;
    return html`<div class="table-scroll"><table>
      <thead><tr>${[MSG.scheme, MSG.makespan, MSG.speedup, MSG.idle, MSG.launches, MSG.peak].map((h) => html`<th>${h}</th>`)}</tr></thead>
      <tbody>${shown.map(
        (s) => html`<tr data-scheme=${s.scheme}>
          <td>${s.scheme}</td><td class="makespan">${formatTime(Number(s.makespan.toPrecision(6)), r.unit)}</td>
          <td class="speedup">${s.speedup.toFixed(2)}×</td><td class="idle">${idle(s.idleFraction)}</td>
          <td class="launches">${s.launches}</td><td class="peak">${s.peakBatch}</td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  override render() {
    const r = this.result;
    const req = this.request;
    const shown = r && req ? r.schemes.filter((s) => req.schemes.includes(s.scheme)) : [];
    const intro = req ? schedulePresets[req.preset]?.description : undefined;
    // `figure`: an article's figure, the Gantt charts with their headline and key (no settings, no table).
    if (this.figureOnly)
      return r && !this.error
        ? html`<p class="headline">${MSG.explain.headline(headlineFacts(r))}</p>${this.legend(r)}
            <div class="chart" @mouseover=${this.onHover} @focusin=${this.onHover}>${ganttSvg(r, shown, this.columns.value)}</div>
            <p class="readout" aria-live="polite">${this.hovered || MSG.hoverHint}</p>`
        : html`${this.error ? html`<p class="error" role="alert">${withCoreMessage(MSG.error, this.error)}</p>` : nothing}`;
    return html`<h2>${MSG.title}</h2>
      ${this.form()}
      ${this.busy ? html`<p class="busy">${MSG.computing}</p>` : nothing}
      ${this.error ? html`<p class="error" role="alert">${withCoreMessage(MSG.error, this.error)}</p>` : nothing}
      ${
        r && !this.error
          ? html`${intro && !this.hasCustomSettings() ? html`<p class="intro">${MSG.presetIntro[req!.preset] ?? coreOriginal(intro)}</p>` : nothing}
            <p class="headline">${MSG.explain.headline(headlineFacts(r))}</p>
            ${this.legend(r)}
            <div class="chart" @mouseover=${this.onHover} @focusin=${this.onHover}>${ganttSvg(r, shown, this.columns.value)}</div>
            <p class="readout" aria-live="polite">${this.hovered || MSG.hoverHint}</p>
            <h3>${MSG.table}</h3>
            ${this.table(r, shown)}
            <p class="conclusion">${MSG.explain.conclusion(conclusionFacts(r, shown))}</p>
            <h3>${MSG.captions}</h3>
            <dl class="captions">${shown.map(
              (s) => html`<dt>${s.scheme}</dt><dd class="caption" data-scheme=${s.scheme}>${MSG.explain.caption(captionFacts(r, s))}</dd>`,
            )}</dl>`
          : nothing
      }`;
  }

  /** Whether any setting besides the preset is given (then the preset's story no longer applies word for word). */
  private hasCustomSettings(): boolean {
    const a = this.attributesNow();
    return SCHEDULE_ATTRIBUTES.some((x) => x !== 'preset' && x !== 'schemes' && a[x]);
  }
}

if (!customElements.get('grpo-schedule')) customElements.define('grpo-schedule', GrpoScheduleView);

declare global {
  interface HTMLElementTagNameMap {
    'grpo-schedule': GrpoScheduleView;
  }
}
