// <grpo-train>: the training dashboard. Runs `grpo-sandbox train`'s loop (src/train/run.ts) in
// the page: each rank is a module Web Worker of the rank world, with its own WebGPU device when
// the backend asks for one. The page's main thread only drives the steps and draws: metrics are
// collected as steps arrive and drawn once per animation frame, and the learned policy per budget
// is evaluated in a worker (policy-worker.ts). Configured by attributes named like the CLI's flags.
import { withCoreMessage } from '../i18n/core-errors.ts';
import { lang } from '../i18n/index.ts';
import { LitElement, css, html, nothing } from 'lit';
import uPlot from 'uplot';
import { POLICIES } from '../../core/dynamic/types.ts';
import { REWARD_MODES } from '../../core/env/task.ts';
import { ADVANTAGE_SCHEMES } from '../../core/grpo/schemes.ts';
import { samplerNames } from '../../core/samplers/index.ts';
import { BACKENDS, FILTER_METRICS, LOSS_KINDS, TRAIN_PRESETS, type TrainConfig } from '../../train/config.ts';
import type { BudgetBand } from '../../train/evaluate.ts';
import { train, type StepRecord } from '../../train/run.ts';
import { deviceNotice, isolationProblem, MSG } from './messages.ts';
import { metricsCsv, metricsJsonl } from './metrics-export.ts';
import type { PolicyAnswer } from './policy-worker.ts';
import { configFromFlags, flagText, formWords, PAGE_DEFAULT, runSearch, TRAIN_FLAGS, type TrainFlag } from './train-settings.ts';
import { uplotStyles } from './uplot-style.ts';

type Phase = 'idle' | 'starting' | 'running' | 'stopping' | 'done' | 'failed';

/** Choices of the flags that name one of a list (a select in the form). */
const CHOICES: Partial<Record<TrainFlag, readonly string[]>> = {
  sampler: samplerNames,
  advantage: ADVANTAGE_SCHEMES,
  loss: LOSS_KINDS,
  reward: REWARD_MODES,
  backend: BACKENDS,
  'dynamic-sampling': ['off', ...POLICIES],
  'filter-metric': FILTER_METRICS,
};

const FLAG_NAMES: readonly TrainFlag[] = ['preset', ...TRAIN_FLAGS.map((f) => f.flag)];

/** One chart: its title, series (label, colour) and how each series reads a step record. */
interface ChartSpec {
  id: string;
  title: string;
  series: [label: string, stroke: string, read: (r: StepRecord) => number | null][];
}

/** A chart series' legend label in the page's language (English: the label itself). */
const seriesLabel = (label: string) => MSG.charts.series[label] ?? label;

/** A form field's label: the train CLI's flag name (an identifier, shown as code outside English). */
const flagName = (flag: string) => (lang() === 'en' ? flag : html`<code>${flag}</code>`);

const CHARTS: ChartSpec[] = [
  {
    id: 'reward',
    get title() {
      return MSG.charts.reward;
    },
    series: [
      ['mean', '#2ca02c', (r) => r.rewardMean],
      ['std', '#98df8a', (r) => r.rewardStd],
    ],
  },
  {
    id: 'optimum',
    get title() {
      return MSG.charts.optimum;
    },
    series: [['% of optimum', '#1f77b4', (r) => 100 * r.optimumFraction]],
  },
  {
    id: 'loss',
    get title() {
      return MSG.charts.loss;
    },
    series: [['loss', '#d62728', (r) => r.loss]],
  },
  {
    id: 'kl',
    get title() {
      return MSG.charts.kl;
    },
    series: [['KL', '#17becf', (r) => r.kl]],
  },
  {
    id: 'entropy',
    get title() {
      return MSG.charts.entropy;
    },
    series: [
      ['tier', '#9467bd', (r) => r.entropy.tier],
      ['insertion', '#8c564b', (r) => r.entropy.insertion],
      ['top-K', '#e377c2', (r) => r.entropy.topK],
      ['knob 3', '#7f7f7f', (r) => r.entropy.knob3],
    ],
  },
  {
    id: 'zero-std',
    get title() {
      return MSG.charts.zeroStd;
    },
    series: [['zero-std', '#bcbd22', (r) => r.zeroStdFraction]],
  },
  {
    id: 'clip',
    get title() {
      return MSG.charts.clip;
    },
    series: [['clip', '#ff7f0e', (r) => r.clipFraction]],
  },
];

/** Milliseconds of chart drawing per animation frame before the rest waits for the next frame. */
const FRAME_BUDGET_MS = 8;
const CHART_W = 380;
const CHART_H = 190;

export class TrainDashboard extends LitElement {
  static override properties = {
    values: { state: true },
    phase: { state: true },
    error: { state: true },
    notice: { state: true },
    isolation: { state: true },
    bands: { state: true },
    policyState: { state: true },
  };

  // A getter through Lit's: a plain static field skips Lit's finalisation, and super.attributeChangedCallback then throws.
  static override get observedAttributes(): string[] {
    // biome-ignore lint/complexity/noThisInStatic: Lit's getter must run for this class (it finalises its properties)
    return [...super.observedAttributes, ...FLAG_NAMES, 'autorun'];
  }

  declare values: Partial<Record<TrainFlag, string>>;
  declare phase: Phase;
  declare error: string;
  declare notice: string | null;
  declare isolation: string | null;
  declare bands: PolicyAnswer | null;
  declare policyState: 'none' | 'pending' | 'failed';

  /** Steps of the current (or last) run, as they arrived. */
  records: StepRecord[] = [];
  /** The configuration the current (or last) run trains with. */
  runConfig: TrainConfig | null = null;
  private runPreset: string | undefined;
  private device = '';
  /** performance.now() when the run's workers were up, and when its last step arrived (0: none yet). */
  t0 = 0;
  tLast = 0;
  private stopRequested = false;
  /** Bumped by reset: callbacks of an older run are ignored. */
  private generation = 0;
  private running: Promise<void> | null = null;
  private charts = new Map<string, uPlot>();
  private budgetChart: uPlot | null = null;
  private frame = 0;
  private dirty = false;
  /** Charts not built yet (one or more per frame). */
  private pendingCharts: (() => void)[] = [];
  /** Charts to redraw in the coming frames. */
  private stale = new Set<string>();
  /** Each chart's data as uPlot takes it: the steps, then one column per series. */
  private columns = new Map<string, (number | null)[][]>();
  private active = true;
  private autorunDone = false;

  constructor() {
    super();
    this.values = {};
    this.phase = 'idle';
    this.error = '';
    this.notice = null;
    this.isolation = null;
    this.bands = null;
    this.policyState = 'none';
  }

  static override styles = [
    uplotStyles,
    css`
      :host { display: block; max-width: 1280px; margin: 0 auto; padding: 12px 18px 40px; font: 14px/1.45 system-ui, sans-serif; color: #1d1d1f; }
      h1 { font-size: 19px; margin: 0 0 4px; font-weight: 650; }
      h2 { font-size: 15px; margin: 22px 0 6px; }
      .intro { color: #555; margin: 0 0 10px; max-width: 900px; }
      form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; }
      label { display: flex; flex-direction: column; font-size: 12px; color: #444; }
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
      table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
      td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
      .muted { color: #666; }
    `,
  ];

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if ((FLAG_NAMES as readonly string[]).includes(name)) {
      const next = { ...this.values };
      if (value === null) delete next[name as TrainFlag];
      else next[name as TrainFlag] = value;
      this.values = next;
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.checkIsolation();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    // A removed dashboard stops its run at the next step boundary (its workers are terminated).
    this.stopRequested = true;
  }

  /** Lazy loading (the embed's loader): drawing resumes; with `autorun` the first call starts a run. */
  start(): void {
    this.active = true;
    this.dirty = true;
    this.schedule();
    if (this.hasAttribute('autorun') && !this.autorunDone && this.phase === 'idle') {
      this.autorunDone = true;
      void this.updateComplete.then(() => this.startRun());
    }
  }

  /** Off screen: charts stop drawing (the run goes on collecting metrics). */
  pause(): void {
    this.active = false;
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  /** The charts as one canvas (titles included), for figure export. */
  figure(): HTMLCanvasElement | null {
    const charts = [...this.charts.values(), ...(this.budgetChart ? [this.budgetChart] : [])];
    if (charts.length === 0) return null;
    const dpr = devicePixelRatio || 1;
    const cols = 3;
    const titleH = 22;
    const out = document.createElement('canvas');
    out.width = Math.round(cols * CHART_W * dpr);
    out.height = Math.round(Math.ceil(charts.length / cols) * (CHART_H + titleH) * dpr);
    const ctx = out.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.scale(dpr, dpr);
    ctx.fillStyle = '#222';
    ctx.font = '600 13px system-ui, sans-serif';
    charts.forEach((u, i) => {
      const x = (i % cols) * CHART_W;
      const y = Math.floor(i / cols) * (CHART_H + titleH);
      ctx.fillText(u.root.querySelector('.u-title')?.textContent ?? '', x + 8, y + 15);
      ctx.drawImage(u.ctx.canvas, x, y + titleH, CHART_W, CHART_H);
    });
    return out;
  }

  /** The run's settings from the form (the attributes, then edits); throws a ConfigError for a bad one. */
  formConfig(): TrainConfig {
    return configFromFlags((flag) => this.values[flag] ?? null);
  }

  /** Starts a run with the form's settings (no-op while one runs). */
  async startRun(): Promise<void> {
    if (this.running || this.isolation || !globalThis.crossOriginIsolated) return;
    let config: TrainConfig;
    try {
      config = this.formConfig();
    } catch (err) {
      this.error = formWords((err as Error).message);
      return;
    }
    this.clear();
    this.runConfig = config;
    this.runPreset = this.values.preset || undefined;
    this.phase = 'starting';
    this.stopRequested = false;
    const generation = this.generation;
    const notices: string[] = [];
    const mine = () => generation === this.generation;
    this.running = (async () => {
      try {
        const result = await train({
          config,
          shouldStop: () => this.stopRequested || !mine(),
          onNotice: (line) => {
            notices.push(line);
            if (mine()) this.notice = deviceNotice(config.backend, notices);
          },
          onStart: (device) => {
            if (!mine()) return;
            this.device = device;
            this.t0 = performance.now();
            this.tLast = this.t0;
            this.phase = 'running';
          },
          onStep: (record) => {
            if (!mine()) return;
            this.records.push(record);
            this.appendStep(record);
            this.tLast = performance.now();
            this.dirty = true;
            this.schedule();
          },
        });
        if (!mine()) return;
        this.phase = 'done';
        this.dirty = true;
        this.schedule();
        if (result.stopped && this.stopRequested) this.stopRequested = false;
        void this.evaluatePolicy(config, result.final.params, generation);
      } catch (err) {
        if (!mine()) return;
        this.phase = 'failed';
        this.error = MSG.failed(formWords((err as Error).message.split('\n')[0]!));
      }
    })();
    try {
      await this.running;
    } finally {
      if (mine()) this.running = null;
    }
  }

  /** Asks the run to stop at the next step boundary; resolves once it has. */
  async stopRun(): Promise<void> {
    if (!this.running) return;
    this.stopRequested = true;
    if (this.phase === 'running' || this.phase === 'starting') this.phase = 'stopping';
    await this.running;
  }

  /** Stops any run and clears its metrics, charts and policy table. */
  async resetRun(): Promise<void> {
    const run = this.running;
    this.generation++;
    this.stopRequested = true;
    this.running = null;
    this.clear();
    this.phase = 'idle';
    this.runConfig = null;
    if (run) await run;
  }

  /** Metrics of the steps so far as JSONL (the CLI's metrics.jsonl lines). */
  metricsJsonl(): string {
    return metricsJsonl(this.records);
  }

  metricsCsv(): string {
    return metricsCsv(this.records);
  }

  private linkMemo: { values: unknown; config: TrainConfig | null; link: string | null } | null = null;

  /** A link (path and query) that reproduces the last run, or the form's settings before any run. */
  runLink(): string | null {
    // Memoised: render runs every frame while training, the check only when the settings change.
    if (this.linkMemo?.values === this.values && this.linkMemo.config === this.runConfig) return this.linkMemo.link;
    let link: string | null;
    try {
      const config = this.runConfig ?? this.formConfig();
      link = `${location.pathname}${runSearch(config, this.runConfig ? this.runPreset : this.values.preset)}`;
    } catch {
      link = null;
    }
    this.linkMemo = { values: this.values, config: this.runConfig, link };
    return link;
  }

  /** Steps per second since the workers were up (the start of the workers is not training). */
  stepsPerSecond(): number {
    const seconds = (this.tLast - this.t0) / 1000;
    return this.records.length > 0 && seconds > 0 ? this.records.length / seconds : 0;
  }

  private clear(): void {
    this.records = [];
    this.columns.clear();
    this.error = '';
    this.notice = null;
    this.bands = null;
    this.policyState = 'none';
    this.device = '';
    this.t0 = this.tLast = 0;
    this.dirty = true;
    this.schedule();
  }

  private async evaluatePolicy(config: TrainConfig, params: Float32Array, generation: number): Promise<void> {
    this.policyState = 'pending';
    const worker = new Worker(new URL('./policy-worker.ts', import.meta.url), { type: 'module', name: 'policy per budget' });
    try {
      const answer = await new Promise<PolicyAnswer>((resolve, reject) => {
        worker.onmessage = (ev: MessageEvent<{ ok: true; answer: PolicyAnswer } | { ok: false; message: string }>) =>
          ev.data.ok ? resolve(ev.data.answer) : reject(new Error(ev.data.message));
        worker.onerror = (ev) => {
          ev.preventDefault();
          reject(new Error(ev.message || 'the policy worker failed to load'));
        };
        worker.postMessage({ config, params });
      });
      if (generation !== this.generation) return;
      this.bands = answer;
      this.policyState = 'none';
      this.dirty = true;
      this.schedule();
    } catch (err) {
      if (generation !== this.generation) return;
      this.policyState = 'failed';
      this.error = MSG.failed((err as Error).message);
    } finally {
      worker.terminate();
    }
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
   * One draw per animation frame however many steps arrived since the last. Each frame redraws
   * the stale charts in turn until FRAME_BUDGET_MS is spent (at least one); the rest wait for the
   * next frame, so no frame's task grows with the number of charts (uPlot's first draw of a chart
   * with data took 74 ms for all seven at once on the loaded 2-core VM).
   */
  private schedule(): void {
    if (this.frame || !this.active) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.dirty) {
        this.dirty = false;
        for (const spec of CHARTS) this.stale.add(spec.id);
        this.stale.add('budget');
        this.requestUpdate();
      }
      const t0 = performance.now();
      // At least one chart built or drawn per frame, more while the budget lasts.
      let spent = false;
      while (this.pendingCharts.length > 0 && !spent) {
        this.pendingCharts.shift()!();
        spent = performance.now() - t0 > FRAME_BUDGET_MS;
      }
      for (const id of this.stale) {
        if (spent || this.pendingCharts.length > 0) break;
        this.drawChart(id);
        this.stale.delete(id);
        if (performance.now() - t0 > FRAME_BUDGET_MS) break;
      }
      if (this.stale.size > 0 || this.pendingCharts.length > 0) this.schedule();
    });
  }

  private drawChart(id: string): void {
    if (id === 'budget') {
      const b = this.bands?.bands ?? [];
      this.budgetChart?.setData([b.map((x) => (x.fromMs + x.toMs) / 2), b.map((x) => x.policy.reward), b.map((x) => x.optimum.reward)]);
      return;
    }
    const spec = CHARTS.find((c) => c.id === id)!;
    // No steps (yet, or after a reset): empty columns.
    const columns = this.columns.get(id) ?? [[], ...spec.series.map(() => [])];
    this.charts.get(id)?.setData(columns as uPlot.AlignedData);
  }

  /** Appends a step to every chart's columns (x first), so a frame draws without re-reading every record. */
  private appendStep(record: StepRecord): void {
    for (const spec of CHARTS) {
      let columns = this.columns.get(spec.id);
      if (!columns) {
        columns = [[], ...spec.series.map(() => [])];
        this.columns.set(spec.id, columns);
      }
      columns[0]!.push(record.step);
      spec.series.forEach(([, , read], i) => columns[i + 1]!.push(read(record)));
    }
  }

  /**
   * The charts are built one by one in the animation frames (within the frame budget), not all in
   * the first render: the eight uPlot constructors together made a 48–68 ms task when the view loaded.
   */
  protected override firstUpdated(): void {
    const root = this.renderRoot;
    for (const spec of CHARTS) {
      this.pendingCharts.push(() => {
        const opts: uPlot.Options = {
          title: spec.title,
          width: CHART_W,
          height: CHART_H,
          scales: { x: { time: false } },
          axes: [{ label: 'step', size: 36 }, { size: 52 }],
          series: [
            { label: seriesLabel('step') },
            ...spec.series.map(([label, stroke]) => ({ label: seriesLabel(label), stroke, width: 1.5 })),
          ],
          legend: { live: false },
        };
        const el = root.querySelector(`#chart-${spec.id}`) as HTMLElement;
        this.charts.set(spec.id, new uPlot(opts, [[], ...spec.series.map(() => [])] as uPlot.AlignedData, el));
        this.stale.add(spec.id);
      });
    }
    this.pendingCharts.push(() => {
      this.budgetChart = new uPlot(
        {
          title: MSG.charts.budget,
          width: CHART_W,
          height: CHART_H,
          scales: { x: { time: false } },
          axes: [{ label: seriesLabel('budget ms'), size: 36 }, { size: 52 }],
          series: [
            { label: seriesLabel('budget ms') },
            { label: seriesLabel('policy'), stroke: '#1f77b4', width: 1.5 },
            { label: seriesLabel('optimum'), stroke: '#ff7f0e', width: 1.5 },
          ],
          legend: { live: false },
        },
        [[], [], []],
        root.querySelector('#chart-budget') as HTMLElement,
      );
      this.stale.add('budget');
    });
    // Standalone the dashboard starts at once; under the embed's lazy loader (data-grpo-lazy="waiting")
    // charts, drawing and `autorun` wait for its start() call.
    if (this.dataset.grpoLazy === 'waiting') this.active = false;
    else this.start();
  }

  private edit(flag: TrainFlag, value: string): void {
    this.values = { ...this.values, [flag]: value };
  }

  /** After a language switch: the uPlot titles and legends (built once, outside Lit's templates) say the new words. */
  protected override updated(): void {
    const relabel = (u: uPlot, title: string, labels: string[]) => {
      const t = u.root.querySelector('.u-title');
      if (t && t.textContent !== title) t.textContent = title;
      const rows = u.root.querySelectorAll('.u-legend .u-series .u-label');
      // A legend that is not live has no row for the x series: its rows are the last labels (matching
      // them from the first put 'step' on the first curve and shifted every name by one).
      const shown = labels.slice(Math.max(0, labels.length - rows.length));
      rows.forEach((el, i) => {
        const label = shown[i];
        if (label !== undefined && el.textContent !== label) el.textContent = label;
      });
    };
    for (const spec of CHARTS) {
      const u = this.charts.get(spec.id);
      if (u) relabel(u, spec.title, ['step', ...spec.series.map(([label]) => label)].map(seriesLabel));
    }
    if (this.budgetChart) relabel(this.budgetChart, MSG.charts.budget, ['budget ms', 'policy', 'optimum'].map(seriesLabel));
  }

  /** Errors in words as the settings are given or typed, from the same checks the CLI runs. */
  protected override willUpdate(changed: Map<string, unknown>): void {
    if (!changed.has('values') || this.phase === 'failed') return;
    try {
      this.formConfig();
      this.error = '';
    } catch (err) {
      this.error = formWords((err as Error).message);
    }
  }

  private download(name: string, text: string, type: string): void {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  /** What a field shows: its typed or attribute text, else the default (with the chosen preset) it stands for. */
  private shown(flag: TrainFlag, base: TrainConfig): string {
    const given = this.values[flag];
    if (given !== undefined) return given;
    const f = TRAIN_FLAGS.find((x) => x.flag === flag);
    return f ? flagText(base, f.flag) : '';
  }

  private field(flag: TrainFlag, base: TrainConfig): unknown {
    const shown = this.shown(flag, base);
    const choices = flag === 'preset' ? ['', ...Object.keys(TRAIN_PRESETS)] : CHOICES[flag];
    const disabled = this.phase === 'starting' || this.phase === 'running' || this.phase === 'stopping';
    if (choices)
      return html`<label>${flagName(flag)}<select name=${flag} ?disabled=${disabled}
        @change=${(e: Event) => this.edit(flag, (e.target as HTMLSelectElement).value)}>
        ${choices.map((c) => html`<option value=${c} ?selected=${c === shown} translate=${c === '' ? 'yes' : 'no'}>${c === '' ? MSG.noPreset : c}</option>`)}
      </select></label>`;
    return html`<label>${flagName(flag)}<input name=${flag} .value=${shown} ?disabled=${disabled}
      @input=${(e: Event) => this.edit(flag, (e.target as HTMLInputElement).value)} /></label>`;
  }

  /** The error in the page's language: a failed run's line as it was said, a settings error (the core's words) by the clause table. */
  private errorWords(): unknown {
    const failed = MSG.failed('');
    if (lang() === 'en' || this.error.startsWith(failed)) return this.error;
    return withCoreMessage(() => '', this.error);
  }

  private statusLine(): string {
    const steps = this.runConfig?.steps ?? 0;
    const last = this.records.at(-1)?.step ?? 0;
    switch (this.phase) {
      case 'idle':
        return MSG.idle;
      case 'starting':
        return MSG.starting(this.runConfig?.ranks ?? 0);
      case 'running':
        return MSG.running(last, steps, this.device);
      case 'stopping':
        return MSG.stopping;
      case 'done':
        return MSG.done(last, steps, last < steps);
      case 'failed':
        return '';
    }
  }

  private policyTable(): unknown {
    if (!this.bands) return html`<p class="muted">${this.policyState === 'pending' ? MSG.policyPending : MSG.policyNone}</p>`;
    const row = (b: BudgetBand) =>
      html`<tr><td>${b.fromMs.toFixed(0)}–${b.toMs.toFixed(0)} ms</td><td>${b.prompts}</td><td>${b.policy.config}</td>
        <td>${b.policy.latencyMs.toFixed(1)}</td><td>${b.policy.reward.toFixed(3)}</td><td>${b.optimum.config}</td>
        <td>${b.optimum.latencyMs.toFixed(1)}</td><td>${b.optimum.reward.toFixed(3)}</td></tr>`;
    return html`<p class="muted">${MSG.randomFraction(this.bands.randomFraction)}</p>
      <table class="policy"><tr>${MSG.policyHead.map((h) => html`<th>${h}</th>`)}</tr>${this.bands.bands.map(row)}</table>`;
  }

  override render() {
    const busy = this.running !== null;
    const last = this.records.at(-1);
    const link = this.runLink();
    const klOff = (this.runConfig ?? null)?.beta === 0;
    const preset = this.values.preset;
    const base: TrainConfig = { ...PAGE_DEFAULT, ...(preset && Object.hasOwn(TRAIN_PRESETS, preset) ? TRAIN_PRESETS[preset]!.config : {}) };
    return html`
      <h1>${MSG.title}</h1>
      <p class="intro">${MSG.intro}</p>
      ${this.isolation ? html`<div class="isolation" role="alert"><strong>${MSG.isolation.title}.</strong> ${this.isolation}</div>` : nothing}
      <form @submit=${(e: Event) => e.preventDefault()}>${FLAG_NAMES.map((f) => this.field(f, base))}</form>
      <div class="buttons">
        <button id="start" ?disabled=${busy || this.isolation !== null} @click=${() => this.startRun()}>${MSG.start}</button>
        <button id="stop" ?disabled=${!busy} @click=${() => this.stopRun()}>${MSG.stop}</button>
        <button id="reset" @click=${() => this.resetRun()}>${MSG.reset}</button>
        <button id="export-jsonl" ?disabled=${this.records.length === 0}
          @click=${() => this.download('metrics.jsonl', this.metricsJsonl(), 'application/x-ndjson')}>${MSG.exportJsonl}</button>
        <button id="export-csv" ?disabled=${this.records.length === 0}
          @click=${() => this.download('metrics.csv', this.metricsCsv(), 'text/csv')}>${MSG.exportCsv}</button>
        ${link ? html`<a id="run-link" href=${link}>${MSG.runLink}</a>` : nothing}
      </div>
      ${this.error ? html`<div class="error" role="alert">${this.errorWords()}</div>` : nothing}
      ${this.notice ? html`<div class="notice" role="status">${this.notice}</div>` : nothing}
      <div class="status" role="status">
        <span id="phase">${this.statusLine()}</span>
        ${this.device ? html`<span id="device">${MSG.device(this.runConfig?.ranks ?? 0, this.device)}</span>` : nothing}
        <span id="steps-per-second">${MSG.stepsPerSecond(this.stepsPerSecond())}</span>
        ${last ? html`<span id="last">${MSG.last(last.step, last.rewardMean, last.optimumFraction)}</span>` : nothing}
        <span id="steps-shown" data-steps=${this.records.length} hidden></span>
      </div>
      <div class="charts">
        ${CHARTS.map((c) => html`<div id=${`chart-${c.id}`} title=${c.id === 'kl' && klOff ? MSG.charts.klOff : c.title}></div>`)}
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
