// <grpo-train>: the training dashboard. Runs `grpo-sandbox train`'s loop in the page, each rank a
// module Web Worker. The element holds the form (its fields are the training run's settings table,
// src/train/settings.ts, read by the function the CLI calls) and the template; two reactive
// controllers hold the rest: run-controller.ts the run's lifecycle and the policy per budget,
// chart-controller.ts the charts (charts.ts says what they plot) drawn once per animation frame.
import { errorText, saidOf, withCoreMessage } from '../core-text.ts';
import { lang } from '../i18n/index.ts';
import { LitElement, css, html, nothing } from 'lit';
import { DEFAULT_TRAIN, TRAIN_PRESETS, type TrainConfig } from '../../train/config.ts';
import type { BudgetBand } from '../../train/evaluate.ts';
import type { StepRecord } from '../../train/run.ts';
import { OFF, settingChoices, settingText, TRAIN_SETTINGS } from '../../train/settings.ts';
import { download } from '../figure-export.ts';
import { ChartsController } from './chart-controller.ts';
import { CHARTS } from './charts.ts';
import { derivedNote, isolationProblem, MSG } from './messages.ts';
import { metricsCsv, metricsJsonl } from './metrics-export.ts';
import { RunController } from './run-controller.ts';
import { formFields, runSearch, TRAIN_ATTRIBUTES, trainRequest } from './train-request.ts';
import { uplotStyles } from './uplot-style.ts';
import { ScrollHint, scrollHintStyles } from '../scroll-hint.ts';

/** A setting's key: the train command's flag, the URL key, the attribute. */
type TrainFlag = string;

/** The form's fields and the element's attributes: the preset, then every row of the settings table. */
const FLAG_NAMES = TRAIN_ATTRIBUTES;

/** A form field's label: the train CLI's flag name (an identifier, shown as code outside English). */
const flagName = (flag: string) => (lang() === 'en' ? flag : html`<code>${flag}</code>`);

export class TrainDashboard extends LitElement {
  /** Says when a figure or table is wider than its box. */
  readonly scrollHint = new ScrollHint(this, '.policy-scroll');
  static override properties = {
    values: { state: true },
    isolation: { state: true },
  };

  // A getter through Lit's: a plain static field skips Lit's finalisation, and super.attributeChangedCallback then throws.
  static override get observedAttributes(): string[] {
    // biome-ignore lint/complexity/noThisInStatic: Lit's getter must run for this class (it finalises its properties)
    return [...super.observedAttributes, ...FLAG_NAMES, 'autorun'];
  }

  declare values: Partial<Record<TrainFlag, string>>;
  declare isolation: string | null;

  private readonly chartsCtl = new ChartsController(this, () => this.run.bands);
  readonly run = new RunController(this, {
    step: (record) => this.chartsCtl.append(record),
    cleared: () => this.chartsCtl.clear(),
    changed: () => this.chartsCtl.changed(),
  });
  private autorunDone = false;

  constructor() {
    super();
    this.values = {};
    this.isolation = null;
  }

  /** The built charts by id (the tests read their data). */
  get charts(): Map<string, unknown> {
    return this.chartsCtl.charts;
  }
  /** Steps of the current (or last) run. */
  get records(): StepRecord[] {
    return this.run.records;
  }
  get runConfig(): TrainConfig | null {
    return this.run.config;
  }
  get phase(): string {
    return this.run.phase;
  }
  get t0(): number {
    return this.run.t0;
  }
  get tLast(): number {
    return this.run.tLast;
  }

  static override styles = [
    uplotStyles,
    scrollHintStyles,
    css`
      :host { display: block; max-width: 1280px; margin: 0 auto; padding: 12px 18px 40px; font: 14px/1.45 system-ui, sans-serif; color: #1d1d1f; }
      h1 { font-size: 19px; margin: 0 0 4px; font-weight: 650; }
      h2 { font-size: 15px; margin: 22px 0 6px; }
      .intro { color: #555; margin: 0 0 10px; max-width: 900px; }
      form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; }
      label { display: flex; flex-direction: column; font-size: 12px; color: #444; }
      label .derived { max-width: 16em; color: #555; font-size: 11px; line-height: 1.3; margin-top: 2px; }
      input, select { font: inherit; width: 9em; }
      .buttons { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin: 10px 0; }
      button { font: inherit; padding: 3px 12px; }
      .error { color: #a40000; margin: 6px 0; }
      .notice { background: #fff4ce; border: 1px solid #e0c060; padding: 6px 10px; margin: 6px 0; }
      .isolation { background: #fde7e7; border: 1px solid #d08080; padding: 8px 12px; margin: 6px 0; }
      .status { display: flex; gap: 18px; flex-wrap: wrap; margin: 6px 0; }
      .charts { display: flex; flex-wrap: wrap; gap: 12px; }
      .u-title { font-size: 13px; font-weight: 600; }
      .u-legend { font-size: 12px; }
      .chart-box { width: 380px; max-width: 100%; }
      .chart-note { font-size: 12px; color: #555; margin: 2px 8px 0; }
      .chart-off { width: 380px; max-width: 100%; min-height: 60px; border: 1px dashed #bbb; padding: 8px 10px; box-sizing: border-box; }
      .chart-off strong { display: block; font-size: 13px; }
      table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
      td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
      /*
       * A phone has no room for eight columns: the table scrolls sideways in its own box (the page keeps the
       * window's width). Labelled blocks per band were tried: 1,300 px tall at 390 px, more than a phone's
       * window, so no tour step could show the table whole.
       */
      .policy-scroll { overflow-x: auto; max-width: 100%; }
      /* A configuration stays on one line; the table scrolls sideways instead of squeezing it. */
      table.policy td { white-space: nowrap; }
      .muted { color: #666; }
    `,
  ];

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if ((FLAG_NAMES as readonly string[]).includes(name)) {
      const next = { ...this.values };
      if (value === null) delete next[name];
      else next[name] = value;
      this.values = next;
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.checkIsolation();
  }

  /** Lazy loading (the embed's loader): drawing resumes; with `autorun` the first call starts a run. */
  start(): void {
    this.chartsCtl.resume();
    if (this.hasAttribute('autorun') && !this.autorunDone && this.run.phase === 'idle') {
      this.autorunDone = true;
      void this.updateComplete.then(() => this.startRun());
    }
  }

  /** Off screen: charts stop drawing (the run goes on collecting metrics). */
  pause(): void {
    this.chartsCtl.pause();
  }

  /** The shown charts as one canvas (titles included), for figure export. */
  figure(): HTMLCanvasElement | null {
    return this.chartsCtl.figure(this.silentCharts());
  }

  /** The run's settings from the form (the attributes, then edits); throws a ConfigError for a bad one. */
  formConfig(): TrainConfig {
    return trainRequest(this.values);
  }

  /** Starts a run with the form's settings (no-op while one runs). */
  async startRun(): Promise<void> {
    if (this.run.busy || this.isolation || !globalThis.crossOriginIsolated) return;
    let config: TrainConfig;
    try {
      config = this.formConfig();
    } catch (err) {
      this.run.setError(saidOf(err, true));
      return;
    }
    await this.run.start(config, this.values.preset || undefined);
  }

  /** Asks the run to stop at the next step boundary; resolves once it has. */
  stopRun(): Promise<void> {
    return this.run.stop();
  }

  /** Stops any run and clears its metrics, charts and policy table. */
  resetRun(): Promise<void> {
    return this.run.reset();
  }

  /** Metrics of the steps so far as JSONL (the CLI's metrics.jsonl lines). */
  metricsJsonl(): string {
    return metricsJsonl(this.run.records);
  }

  metricsCsv(): string {
    return metricsCsv(this.run.records);
  }

  private linkMemo: { values: unknown; config: TrainConfig | null; link: string | null } | null = null;

  /** A link (path and query) that reproduces the last run, or the form's settings before any run. */
  runLink(): string | null {
    // Memoised: render runs every frame while training, the check only when the settings change.
    const runConfig = this.run.config;
    if (this.linkMemo?.values === this.values && this.linkMemo.config === runConfig) return this.linkMemo.link;
    let link: string | null;
    try {
      const config = runConfig ?? this.formConfig();
      link = `${location.pathname}${runSearch(config, runConfig ? this.run.preset : this.values.preset)}`;
    } catch {
      link = null;
    }
    this.linkMemo = { values: this.values, config: runConfig, link };
    return link;
  }

  /** Steps per second since the workers were up (the start of the workers is not training). */
  stepsPerSecond(): number {
    return this.run.stepsPerSecond();
  }

  /** The form's settings, or `base` while a field is invalid. */
  private formOr(base: TrainConfig): TrainConfig {
    try {
      return this.formConfig();
    } catch {
      return base;
    }
  }

  /** The configuration the charts describe: the run's, or the form's before any run (null: the form has an error). */
  private chartConfig(): TrainConfig | null {
    if (this.run.config) return this.run.config;
    try {
      return this.formConfig();
    } catch {
      return null;
    }
  }

  /** The charts that cannot move for this configuration (each says why in its place). */
  private silentCharts(): Set<string> {
    const c = this.chartConfig();
    return new Set(c ? CHARTS.filter((x) => x.silent?.(c)).map((x) => x.id) : []);
  }

  private async checkIsolation(): Promise<void> {
    if (globalThis.crossOriginIsolated) {
      this.isolation = null;
      return;
    }
    // At once (Start stays disabled), then precisely once the headers are read.
    this.isolation = isolationProblem({ isSecureContext: globalThis.isSecureContext, crossOriginIsolated: false });
    let coop: string | null | undefined;
    let coep: string | null | undefined;
    try {
      // The page's own headers say which of the two is missing.
      const res = await fetch(location.href, { method: 'HEAD', cache: 'no-store' });
      coop = res.headers.get('cross-origin-opener-policy');
      coep = res.headers.get('cross-origin-embedder-policy');
    } catch {
      coop = coep = undefined;
    }
    this.isolation = isolationProblem({ isSecureContext: globalThis.isSecureContext, crossOriginIsolated: false, coop, coep });
  }

  /**
   * The charts are built one by one in the animation frames (within the frame budget), not all in
   * the first render. Standalone the dashboard starts at once; under the embed's lazy loader
   * (data-grpo-lazy="waiting") charts, drawing and `autorun` wait for its start() call.
   */
  protected override firstUpdated(): void {
    this.chartsCtl.build();
    if (this.dataset.grpoLazy === 'waiting') this.chartsCtl.pause();
    else this.start();
  }

  private edit(flag: TrainFlag, value: string): void {
    this.values = { ...this.values, [flag]: value };
  }

  /** After a language switch: the uPlot titles and legends say the new words. */
  protected override updated(): void {
    this.chartsCtl.relabel();
  }

  /** Errors in words as the settings are given or typed, from the same checks the CLI runs. */
  protected override willUpdate(changed: Map<string, unknown>): void {
    if (!changed.has('values') || this.run.phase === 'failed') return;
    try {
      this.formConfig();
      this.run.setError(null);
    } catch (err) {
      this.run.setError(saidOf(err, true));
    }
  }

  /** What a field shows: its typed or attribute text, else the default (with the chosen preset and --async rule) it stands for. */
  private shown(flag: TrainFlag, base: TrainConfig): string {
    const given = this.values[flag];
    if (given !== undefined) return given;
    return settingText(flag === 'async' ? base : { ...base, async: this.asyncShown(base) }, flag);
  }

  /** The framework whose staleness rule the form's async field names; null: off. */
  private asyncShown(base: TrainConfig): string | null {
    const fw = this.shown('async', base);
    return fw === OFF ? null : fw;
  }

  private field(flag: TrainFlag, base: TrainConfig): unknown {
    const shown = this.shown(flag, base);
    const choices =
      flag === 'preset' ? ['', ...Object.keys(TRAIN_PRESETS)] : settingChoices(flag, { ...base, framework: this.shown('framework', base) });
    const phase = this.run.phase;
    const disabled = phase === 'starting' || phase === 'running' || phase === 'stopping';
    // The setting's hint on hover, and what a derived value stands for in the page itself (under the field).
    // The settings table's hints are the CLI's English: a hover title in English only.
    const hint = lang() === 'en' ? TRAIN_SETTINGS.find((s) => s.key === flag)?.hint : undefined;
    const note = derivedNote(flag, this.formOr(base));
    const derived = note === null ? nothing : html`<small class="derived" data-for=${flag}>${note}</small>`;
    if (choices)
      return html`<label title=${hint ?? nothing}>${flagName(flag)}<select name=${flag} ?disabled=${disabled}
        @change=${(e: Event) => this.edit(flag, (e.target as HTMLSelectElement).value)}>
        ${choices.map((c) => html`<option value=${c} ?selected=${c === shown} translate=${c === '' ? 'yes' : 'no'}>${c === '' ? MSG.noPreset : c}</option>`)}
      </select>${derived}</label>`;
    return html`<label title=${hint ?? nothing}>${flagName(flag)}<input name=${flag} .value=${shown} ?disabled=${disabled}
      @input=${(e: Event) => this.edit(flag, (e.target as HTMLInputElement).value)} />${derived}</label>`;
  }

  /** The error in the page's language: a failed run's line as it was said, a settings error as the core said it (English: itself). */
  private errorWords(): unknown {
    const { error, failure } = this.run;
    if (!error) return nothing;
    return failure ? withCoreMessage(MSG.failed, error) : errorText(error);
  }

  private statusLine(): string {
    const r = this.run;
    const steps = r.config?.steps ?? 0;
    const last = r.records.at(-1)?.step ?? 0;
    switch (r.phase) {
      case 'idle':
        return MSG.idle;
      case 'starting':
        return MSG.starting(r.config?.ranks ?? 0);
      case 'running':
        return MSG.running(last, steps, r.device);
      case 'stopping':
        return MSG.stopping;
      case 'done':
        return MSG.done(last, steps, last < steps);
      case 'failed':
        return '';
    }
  }

  private policyTable(): unknown {
    const bands = this.run.bands;
    if (!bands) return html`<p class="muted">${this.run.policyState === 'pending' ? MSG.policyPending : MSG.policyNone}</p>`;
    const head = MSG.policyHead;
    const row = (b: BudgetBand) => {
      const cells = [
        `${b.fromMs.toFixed(0)}–${b.toMs.toFixed(0)} ms`,
        String(b.prompts),
        b.policy.parts ? MSG.configText(b.policy.parts) : b.policy.config,
        b.policy.latencyMs.toFixed(1),
        b.policy.reward.toFixed(3),
        b.optimum.parts ? MSG.configText(b.optimum.parts) : b.optimum.config,
        b.optimum.latencyMs.toFixed(1),
        b.optimum.reward.toFixed(3),
      ];
      return html`<tr>${cells.map((c) => html`<td>${c}</td>`)}</tr>`;
    };
    return html`<p class="muted">${MSG.randomFraction(bands.randomFraction)}</p>
      <div class="policy-scroll"><table class="policy"><tr class="head">${head.map((h) => html`<th>${h}</th>`)}</tr>${bands.bands.map(
        row,
      )}</table></div>`;
  }

  /** One chart's place: the chart (with its sentence, if any), or why it cannot move in this run. */
  private chartBox(spec: (typeof CHARTS)[number], config: TrainConfig | null): unknown {
    const why = config ? (spec.silent?.(config) ?? null) : null;
    const note = why === null ? (spec.note?.(config) ?? null) : null;
    return html`<div class="chart-box">
      <div id=${`chart-${spec.id}`} ?hidden=${why !== null}></div>
      ${why !== null ? html`<div class="chart-off" id=${`chart-${spec.id}-off`}><strong>${spec.title}</strong>${why}</div>` : nothing}
      ${note !== null ? html`<p class="chart-note" id=${`chart-${spec.id}-note`}>${note}</p>` : nothing}
    </div>`;
  }

  override render() {
    const r = this.run;
    const busy = r.busy;
    const last = r.records.at(-1);
    const link = this.runLink();
    const preset = this.values.preset;
    const base: TrainConfig = {
      ...DEFAULT_TRAIN,
      ...(preset && Object.hasOwn(TRAIN_PRESETS, preset) ? TRAIN_PRESETS[preset]!.config : {}),
    };
    const chartConfig = this.chartConfig();
    return html`
      <h1>${MSG.title}</h1>
      <p class="intro">${MSG.intro}</p>
      ${this.isolation ? html`<div class="isolation" role="alert"><strong>${MSG.isolation.title}.</strong> ${this.isolation}</div>` : nothing}
      <form @submit=${(e: Event) => e.preventDefault()}>${formFields(this.values, this.asyncShown(base)).map((f) => this.field(f, base))}</form>
      <div class="buttons">
        <button id="start" ?disabled=${busy || this.isolation !== null} @click=${() => this.startRun()}>${MSG.start}</button>
        <button id="stop" ?disabled=${!busy} @click=${() => this.stopRun()}>${MSG.stop}</button>
        <button id="reset" @click=${() => this.resetRun()}>${MSG.reset}</button>
        <button id="export-jsonl" ?disabled=${r.records.length === 0}
          @click=${() => download(new Blob([this.metricsJsonl()], { type: 'application/x-ndjson' }), 'metrics.jsonl')}>${MSG.exportJsonl}</button>
        <button id="export-csv" ?disabled=${r.records.length === 0}
          @click=${() => download(new Blob([this.metricsCsv()], { type: 'text/csv' }), 'metrics.csv')}>${MSG.exportCsv}</button>
        ${link ? html`<a id="run-link" href=${link}>${MSG.runLink}</a>` : nothing}
      </div>
      ${r.error ? html`<div class="error" role="alert">${this.errorWords()}</div>` : nothing}
      ${r.notice ? html`<div class="notice" role="status">${r.notice}</div>` : nothing}
      <div class="status" role="status">
        <span id="phase">${this.statusLine()}</span>
        ${r.device ? html`<span id="device">${MSG.device(r.config?.ranks ?? 0, r.device)}</span>` : nothing}
        <span id="steps-per-second">${MSG.stepsPerSecond(this.stepsPerSecond())}</span>
        ${last ? html`<span id="last">${MSG.last(last.step, last.rewardMean, last.optimumFraction)}</span>` : nothing}
        <span id="steps-shown" data-steps=${r.records.length} hidden></span>
      </div>
      <div class="charts">
        ${CHARTS.map((c) => this.chartBox(c, chartConfig))}
        <div id="chart-budget"></div>
      </div>
      <h2>${MSG.policyTitle}</h2>
      ${this.policyTable()}
    `;
  }
}

if (!customElements.get('grpo-train')) customElements.define('grpo-train', TrainDashboard);

declare global {
  interface HTMLElementTagNameMap {
    'grpo-train': TrainDashboard;
  }
}
