// <grpo-dynamic>: seed-002/004's synchronized dynamic sampling step by step — the gathered groups
// of each draw marked valid or flat, the pool filling resample by resample, each rank's slice
// coloured by origin rank — then the trainer's next lines on real rank Web Workers (src/ranks,
// the same `builtin:dynamic` program `grpo-sandbox dynamic` runs on worker_threads), so the
// naive policy's shape mismatch appears in the sandbox's own words (at once, naming every rank's shape: no real
// backend reports it so), seed-004's device error as torch prints it.
// The picture comes from the same protocol run in this thread (labelled as such); the workers'
// plan is checked against it. The sparsity sweep runs in a worker and is drawn with uPlot.
// Attributes are named like `grpo-sandbox dynamic`'s flags (and its --sweep flags trials, ps).
import { coreOriginal, type Said, saidOf, withCoreMessage } from '../core-text.ts';
import { ElementWidth } from '../element-width.ts';
import { section } from '../i18n/index.ts';
import { LitElement, css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import uPlot from 'uplot';
import { DYNAMIC_PRESET_NAMES, POLICIES, type Policy, type SweepConfig, type SweepResult } from '../../core/dynamic/index.ts';
import { type RunRecord, runDynamicOnce } from '../../ranks/dynamic-run.ts';
import type { PlanSummary } from '../../ranks/programs/dynamic.ts';
import { isolationProblem } from '../isolation.ts';
import { uplotStyles } from '../train/uplot-style.ts';
import { drawLabel, dynamicSvg } from './dynamic-figure.ts';
import { DYNAMIC_ATTRIBUTES, type DynamicRequest, dynamicRequest } from './dynamic-request.ts';
import { type StepTrace, traceStep } from './dynamic-trace.ts';
import type { SweepMessage } from './sweep-worker.ts';
import { ScrollHint, scrollHintStyles } from '../scroll-hint.ts';

/** Every user-visible string of this view: its section of the en/zh catalogues (src/ui/i18n), read in the current language. */
export const MSG = section('dynamic');

const ALL_ATTRIBUTES = [...DYNAMIC_ATTRIBUTES, 'step', 'trials', 'ps'];
type Attr = string;
type DynamicAttributes = Record<string, string | null>;
const prop = (a: Attr) => a.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

interface RanksState {
  status: 'idle' | 'running' | 'done' | 'unavailable' | 'error';
  records: RunRecord[];
  message?: string;
  /** Every record's plan equals the in-page plan. */
  matches?: boolean;
}

/** The parts of a plan both runs must agree on (the workers' summary has no sample objects). */
function planKey(p: PlanSummary | StepTrace['plan']): string {
  return JSON.stringify({
    events: p.events,
    outcome: p.outcome,
    pool: p.pool,
    slices: p.slices.map((s) => ({
      rank: s.rank,
      from: s.from,
      to: s.to,
      size: 'size' in s ? s.size : s.samples.length,
      origins: 'origins' in s ? s.origins : s.samples.map((x) => x.origin),
    })),
    error: p.error?.name ?? null,
  });
}

export class GrpoDynamicView extends LitElement {
  /** Says when a figure or table is wider than its box. */
  readonly scrollHint = new ScrollHint(this, '.figure');
  static override properties = {
    ...Object.fromEntries(ALL_ATTRIBUTES.map((a) => [prop(a), { type: String, attribute: a, reflect: true }])),
    request: { state: true },
    trace: { state: true },
    error: { state: true },
    playing: { state: true },
    ranksState: { state: true },
    sweepState: { state: true },
    figureOnly: { type: Boolean, attribute: 'figure' },
  };
  /** The width the figure is drawn at: the element's content box (the figure fits its column, never scrolls). */
  private readonly figureWidth = new ElementWidth(this, 960);

  /** `figure`: the picture and its stage slider only (an article's figure: no settings, no runs on rank workers, no sweep). */
  declare figureOnly: boolean;

  declare preset: string | null;
  declare policy: string | null;
  declare ranks: string | null;
  declare perRank: string | null;
  declare k: string | null;
  declare maxResampleTimes: string | null;
  declare p: string | null;
  declare seed: string | null;
  declare deviceFix: string | null;
  declare range: string | null;
  declare timeoutMs: string | null;
  declare step: string | null;
  declare trials: string | null;
  declare ps: string | null;
  declare request: DynamicRequest | null;
  declare trace: StepTrace | null;
  declare error: Said | null;
  declare playing: boolean;
  declare ranksState: RanksState;
  declare sweepState: { status: 'idle' | 'running' | 'done' | 'error'; units: number; total: number; ms?: number; message?: string };

  private token = 0;
  /** A worker run deferred until start(): the view sits under a lazy loader that has not started it yet. */
  private pendingRun: (() => void) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private sweepWorker: Worker | null = null;
  private sweepResult: SweepResult | null = null;
  private chart: uPlot | null = null;

  static override styles = [
    uplotStyles,
    scrollHintStyles,
    css`
      :host { display: block; font: 14px/1.45 system-ui, sans-serif; color: #222; }
      h2 { font-size: 16px; margin: 4px 0 8px; }
      h3 { font-size: 14px; margin: 14px 0 6px; }
      form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; margin-bottom: 8px; font-size: 12px; }
      label { display: flex; flex-direction: column; gap: 2px; color: #444; }
      input, select { font: inherit; font-size: 13px; }
      input { width: 6em; }
      .policies { display: flex; flex-wrap: wrap; gap: 4px; margin: 4px 0 8px; align-items: center; }
      .policies .legend { flex: 1 0 100%; font-size: 12px; color: #444; }
      .policies button[aria-pressed='true'] { background: #333; color: #fff; }
      .about { color: #444; font-size: 13px; max-width: 1000px; }
      /* On a phone the buttons keep their words on one line and the stage's label takes a line of its own. */
      .controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 6px 0; }
      .controls button { white-space: nowrap; flex: none; }
      .controls input[type='range'] { width: 220px; max-width: 100%; flex: 0 1 220px; min-width: 120px; }
      .controls .step-label { flex: 1 1 16em; }
      /* The figure is laid out for its column's width (dynamicSvg's width): its 12 px text stays 12 px and nothing scrolls. */
      .figure { overflow-x: auto; }
      .figure svg { display: block; max-width: 100%; height: auto; }
      pre { background: #f6f6f6; padding: 8px 10px; overflow-x: auto; font-size: 12px; white-space: pre-wrap; }
      pre.failure { background: #fff0f0; border-left: 3px solid #b00020; }
      pre.success { background: #f0fff0; border-left: 3px solid #2e7d32; }
      .label { color: #555; font-size: 12px; }
      .error { color: #a00; font-weight: 600; }
      .notice { background: #fff8e1; border-left: 3px solid #f9a825; padding: 6px 10px; font-size: 13px; }
    `,
  ];

  constructor() {
    super();
    for (const a of ALL_ATTRIBUTES) (this as unknown as Record<string, string | null>)[prop(a)] = null;
    this.request = null;
    this.trace = null;
    this.error = null;
    this.playing = false;
    this.ranksState = { status: 'idle', records: [] };
    this.sweepState = { status: 'idle', units: 0, total: 0 };
  }

  /**
   * A lazy loader calls this when the view scrolls near: the deferred worker run starts, and the
   * story plays on from the current step (a view set to its last step stays there). A figure stays on
   * the step its page chose unless it says `autoplay`: its later stages draw the train step, which a
   * figure does not run.
   */
  start(): void {
    const pending = this.pendingRun;
    this.pendingRun = null;
    pending?.();
    if (!this.figureOnly || this.hasAttribute('autoplay')) this.play(false);
  }

  /** Plays the steps one by one from the current one; `restart`: from the first when at the end (the play button). */
  play(restart: boolean): void {
    if (this.timer || !this.trace) return;
    if (this.stepIndex() >= this.lastStep()) {
      if (!restart) return;
      this.setStep(0);
    }
    this.playing = true;
    this.timer = setInterval(() => {
      if (this.stepIndex() >= this.lastStep()) this.pause();
      else this.setStep(this.stepIndex() + 1);
    }, 1400);
  }

  /** Stops playing (the running sweep, in its worker, finishes on its own). */
  pause(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.playing = false;
  }

  /** The step's picture (groups, pool, slices) as one SVG. */
  figure(): SVGSVGElement | null {
    return this.renderRoot.querySelector<SVGSVGElement>('svg.dynamic-figure');
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.pause();
    this.sweepWorker?.terminate();
    this.sweepWorker = null;
    this.chart?.destroy();
    this.chart = null;
  }

  private attrs(): DynamicAttributes {
    return Object.fromEntries(DYNAMIC_ATTRIBUTES.map((a) => [a, (this as unknown as Record<string, string | null>)[prop(a)]]));
  }

  private set(attr: Attr, value: string): void {
    (this as unknown as Record<string, string | null>)[prop(attr)] = value === '' ? null : value;
  }

  private stepIndex(): number {
    const n = Number(this.step ?? 0);
    return Number.isInteger(n) && n >= 0 ? Math.min(n, this.lastStep()) : 0;
  }

  /** Steps: one per draw, then the slices, then the train step. */
  private lastStep(): number {
    return this.trace ? this.trace.draws.length + 1 : 0;
  }

  private setStep(i: number): void {
    this.step = String(Math.max(0, Math.min(i, this.lastStep())));
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (DYNAMIC_ATTRIBUTES.some((a) => changed.has(prop(a)))) this.recompute();
  }

  private recompute(): void {
    const token = ++this.token;
    let request: DynamicRequest;
    try {
      request = dynamicRequest(this.attrs());
    } catch (err) {
      this.error = saidOf(err, true);
      this.trace = null;
      this.ranksState = { status: 'idle', records: [] };
      return;
    }
    this.error = null;
    this.request = request;
    traceStep(request.config, request.rewards).then(
      (trace) => {
        if (token !== this.token) return;
        this.trace = trace;
        void this.runOnRanks(request, trace, token);
      },
      (err: Error) => {
        if (token === this.token) this.error = saidOf(err);
      },
    );
  }

  /** The train step on real rank workers, once per device-fix setting; says what is missing when the page cannot. */
  private async runOnRanks(req: DynamicRequest, trace: StepTrace, token: number): Promise<void> {
    if (this.figureOnly) return;
    // Under the embed's lazy loader (data-grpo-lazy="waiting") no worker starts before the view scrolls near.
    if (this.dataset.grpoLazy === 'waiting') {
      this.pendingRun = () => void this.runOnRanks(req, trace, token);
      this.ranksState = { status: 'idle', records: [] };
      return;
    }
    const problem = isolationProblem();
    if (problem) {
      this.ranksState = { status: 'unavailable', records: [], message: problem };
      return;
    }
    this.ranksState = { status: 'running', records: [] };
    const records: RunRecord[] = [];
    try {
      for (const fix of req.fixes) {
        // The sandbox's own diagnosis at once (the CLI's --backend-behaviour shows NCCL's hang, gloo's and DETAIL's errors).
        const run = await runDynamicOnce(req.config, req.rewards, fix, req.timeoutMs, { backend: 'sandbox' });
        if (token !== this.token) return;
        records.push(run);
      }
    } catch (err) {
      if (token === this.token) this.ranksState = { status: 'error', records, message: (err as Error).message };
      return;
    }
    const key = planKey(trace.plan);
    const matches = records.every((r) => r.plan === null || planKey(r.plan) === key);
    this.ranksState = { status: 'done', records, matches };
  }

  private runSweep(): void {
    const req = this.request;
    if (!req) return;
    this.sweepWorker?.terminate();
    const trials = this.trialCount();
    const ps = (this.ps ?? '0.02,0.04,0.06,0.08,0.1,0.15,0.2,0.3,0.5')
      .split(',')
      .map(Number)
      .filter((x) => x > 0 && x < 1);
    // The sweep draws random binary rewards (a preset's scripted draws are one story, not a distribution); runs 0: no training runs.
    const settings: SweepConfig = {
      base: { ...req.config, streamCapFactor: 100 },
      policies: [req.config.policy],
      ps,
      trials,
      runs: 0,
      budgetBatches: 1,
      lr: 0.5,
    };
    const worker = new Worker(new URL('./sweep-worker.ts', import.meta.url), { type: 'module' });
    this.sweepWorker = worker;
    this.sweepState = { status: 'running', units: 0, total: ps.length * trials };
    worker.onmessage = (e: MessageEvent<SweepMessage>) => {
      const m = e.data;
      if (m.type === 'progress') this.sweepState = { status: 'running', units: m.units, total: m.totalUnits };
      else if (m.type === 'error') this.sweepState = { status: 'error', units: 0, total: 0, message: m.message };
      else {
        this.sweepResult = m.result;
        this.sweepState = { status: 'done', units: ps.length * trials, total: ps.length * trials, ms: m.ms };
        worker.terminate();
        this.sweepWorker = null;
        this.updateComplete.then(() => this.drawSweep());
      }
    };
    worker.postMessage(settings);
  }

  /** The trials attribute (single steps per p), 200 by default, at most 10 000. */
  private trialCount(): number {
    return Math.max(1, Math.min(10_000, Math.round(Number(this.trials ?? 200)) || 200));
  }

  private drawSweep(): void {
    const r = this.sweepResult;
    const host = this.renderRoot.querySelector<HTMLElement>('.sweep-chart');
    if (!r || !host) return;
    this.chart?.destroy();
    const rows = r.rows;
    const policy = rows[0]?.policy ?? '';
    const data: uPlot.AlignedData = [
      rows.map((x) => x.p),
      rows.map((x) => x.theoryFlat),
      rows.map((x) => x.simFlat),
      rows.map((x) => x.theoryShortage),
      rows.map((x) => x.shortageRate),
    ];
    this.chart = new uPlot(
      {
        width: Math.min(900, Math.max(320, host.clientWidth || 900)),
        height: 280,
        scales: { x: { time: false }, y: { range: [0, 1] } },
        axes: [{ label: 'success probability p' }, { label: 'share' }],
        series: [
          { label: 'p' },
          { label: 'flat share theory p^G + (1−p)^G', stroke: '#333', width: 2 },
          { label: 'flat share simulation', stroke: '#d62728', width: 0, points: { show: true, size: 8 } },
          { label: `short (${policy}) theory`, stroke: '#1f77b4', dash: [6, 4], width: 1.5 },
          { label: `short (${policy}) simulation`, stroke: '#1f77b4', width: 0, points: { show: true, size: 7 } },
        ],
      },
      data,
      host,
    );
  }

  private eventLines(t: StepTrace, upTo: number): string[] {
    const plan = t.plan;
    return plan.events
      .slice(0, upTo + 1)
      .map((e) =>
        MSG.eventLine(
          drawLabel(e.draw, plan),
          e.generated,
          e.groups,
          e.flatGroups,
          e.draw === 0 ? MSG.addedValid(e.added) : `+${e.added}`,
          e.addedByRank,
          e.pool,
          plan.target,
        ),
      );
  }

  private form(req: DynamicRequest | null) {
    const a = this.attrs();
    const c = req?.config;
    const presetNow = a.preset ?? 'seed-002';
    const custom = presetNow === 'none';
    const field = (attr: Attr, label: string, value: string | number | null | undefined) =>
      html`<label>${label}<input name=${attr} .value=${String(value ?? '')} ?disabled=${!custom && ['ranks', 'per-rank', 'k', 'p'].includes(attr)}
        @change=${(e: Event) => this.set(attr, (e.target as HTMLInputElement).value.trim())} /></label>`;
    return html`<form @submit=${(e: Event) => e.preventDefault()} aria-label=${MSG.settings}>
        <label>${MSG.preset}<select name="preset" @change=${(e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          for (const x of ['ranks', 'per-rank', 'k', 'p', 'policy', 'device-fix', 'step'] as const) this.set(x, '');
          this.set('preset', v);
        }}>
          ${DYNAMIC_PRESET_NAMES.map((p) => html`<option value=${p} ?selected=${presetNow === p}>${p}</option>`)}
          <option value="none" ?selected=${custom}>${MSG.none}</option>
        </select></label>
        <label>${MSG.deviceFix}<select name="device-fix" @change=${(e: Event) => this.set('device-fix', (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${!a['device-fix']}>${MSG.presetFixes}</option>
          <option value="on" ?selected=${a['device-fix'] === 'on'}>${MSG.on}</option>
          <option value="off" ?selected=${a['device-fix'] === 'off'}>${MSG.off}</option>
        </select></label>
        ${field('ranks', MSG.ranks, a.ranks ?? c?.ranks)} ${field('per-rank', MSG.perRank, a['per-rank'] ?? c?.perRank)}
        ${field('k', MSG.k, a.k ?? c?.k)} ${field('p', MSG.p, a.p ?? (custom ? req?.p : ''))}
        ${field('max-resample-times', MSG.maxResample, a['max-resample-times'] ?? c?.maxResampleTimes)} ${field('seed', MSG.seed, a.seed ?? c?.seed)}
      </form>
      <div class="policies" role="group" aria-labelledby="policy-legend">
        <span id="policy-legend" class="legend">${MSG.policyLegend}</span>
        ${POLICIES.map(
          (p: Policy) =>
            html`<button type="button" data-policy=${p} aria-pressed=${String(c?.policy === p)} title=${MSG.policyAbout[p]}
              @click=${() => {
                this.set('policy', p);
                this.set('step', String(Number.MAX_SAFE_INTEGER));
              }}>${p}</button>`,
        )}
      </div>
      ${c ? html`<p class="about">${c.policy}: ${MSG.policyAbout[c.policy]}</p>` : nothing}`;
  }

  private trainStep(req: DynamicRequest) {
    const s = this.ranksState;
    if (s.status === 'unavailable') return html`<p class="notice" role="status">${MSG.notRun(s.message ?? '')}</p>`;
    if (s.status === 'idle') return html`<p class="label">${MSG.waiting}</p>`;
    if (s.status === 'running') return html`<p class="label">${MSG.running}</p>`;
    if (s.status === 'error') return html`<pre class="failure">${coreOriginal(s.message ?? '')}</pre>`;
    const n = req.config.ranks;
    return html`<p class="label">${MSG.workers(n)}</p>
      ${s.records.map((run, i) => {
        // The run's own failure is printed as the ranks raised it (English, as code); the page's lines are in the page's language.
        const lines: (string | TemplateResult)[] = [];
        const printed = (text: string) => html`<code lang="en">${text}</code>`;
        if (s.records.length > 1) lines.push(MSG.runHeader(i + 1, run.deviceFix));
        if (!run.plan) {
          lines.push(MSG.failedCollect, printed(run.failure ?? ''));
        } else {
          lines.push(!run.identical ? MSG.ranksDisagree : s.matches ? MSG.planMatches(n) : MSG.planDiffers);
          if (run.failedIn === 'generation loop') lines.push(MSG.failedGeneration, printed(`  ${run.failure}`));
          else {
            lines.push(MSG.trainLine(run.deviceFix, req.config.policy === 'rebalance'));
            if (run.ok) {
              for (const [r, res] of run.ranks!.entries()) lines.push(MSG.stacked(r, res.shape, res.device, res.origins, res.gatheredRows));
              lines.push(MSG.ok(n));
            } else lines.push(run.backendWorded ? MSG.failedTrain : MSG.failedTrainOwn, printed(run.failure ?? ''));
          }
        }
        const text = lines.map((l, j) => (j === 0 ? l : ['\n', l]));
        return html`<pre class=${run.ok ? 'run success' : 'run failure'} data-fix=${run.deviceFix ? 'on' : 'off'}>${text}</pre>`;
      })}`;
  }

  override render() {
    const req = this.request;
    const t = this.trace;
    const step = this.stepIndex();
    const last = this.lastStep();
    const what = t
      ? step < t.draws.length
        ? drawLabel(t.draws[step]!.draw, t.plan)
        : step === t.draws.length
          ? MSG.slicesStep
          : MSG.trainStep
      : '';
    const sw = this.sweepState;
    // A preset's story from the catalogue (zh-CN translates it), else the core's own words.
    const story = req?.presetInfo
      ? ((req.preset ? MSG.presetAbout[req.preset] : undefined) ?? coreOriginal(req.presetInfo.description))
      : null;
    // The story is told with the preset's own policy: with another one selected it says so.
    const own = req?.presetInfo?.config.policy;
    const about =
      story !== null && own !== undefined && req!.config.policy !== own
        ? html`${MSG.presetOtherPolicy(req!.preset ?? '', own)}${story}`
        : story;
    if (this.figureOnly)
      return t && req && !this.error
        ? html`<div class="controls"><input type="range" name="step" min="0" max=${last} .value=${String(step)}
              @input=${(e: Event) => this.setStep(Number((e.target as HTMLInputElement).value))} aria-label=${MSG.stepOf(step, last + 1, what)} />
            <span class="step-label" aria-live="polite">${MSG.stepOf(step, last + 1, what)}</span></div>
            <div class="figure">${dynamicSvg(t, step, this.figureWidth.value)}</div>`
        : html`${this.error ? html`<p class="error" role="alert">${withCoreMessage(MSG.error, this.error)}</p>` : nothing}`;
    return html`<h2>${MSG.title}</h2>
      ${this.form(req)}
      ${this.error ? html`<p class="error" role="alert">${withCoreMessage(MSG.error, this.error)}</p>` : nothing}
      ${
        t && req && !this.error
          ? html`<div class="controls">
                <button type="button" name="prev" ?disabled=${step === 0} @click=${() => this.setStep(step - 1)}>${MSG.prev}</button>
                <input type="range" name="step" min="0" max=${last} .value=${String(step)}
                  @input=${(e: Event) => this.setStep(Number((e.target as HTMLInputElement).value))} aria-label=${MSG.stepOf(step, last + 1, what)} />
                <button type="button" name="next" ?disabled=${step >= last} @click=${() => this.setStep(step + 1)}>${MSG.next}</button>
                <button type="button" name="play" @click=${() => (this.playing ? this.pause() : this.play(true))}>
                  ${this.playing ? MSG.pause : MSG.play}
                </button>
                <span class="step-label" aria-live="polite">${MSG.stepOf(step, last + 1, what)}</span>
              </div>
              <p class="label">${MSG.inPage}</p>
              <div class="figure">${dynamicSvg(t, step, this.figureWidth.value)}</div>
              <pre class="log">${[
                ...this.eventLines(t, Math.min(step, t.draws.length - 1)),
                ...(step >= t.draws.length && t.plan.shortage > 0 ? [MSG.shortage(t.plan.shortage, t.plan.target)] : []),
                // The protocol's warnings are the CLI's lines (English, printed as code).
                ...(step >= t.draws.length ? t.plan.notes.map((n) => html`<code lang="en">warning: ${n}</code>`) : []),
              ].map((l, j) => (j === 0 ? l : ['\n', l]))}</pre>
              ${step === last ? this.trainStep(req) : nothing}`
          : nothing
      }
      ${about !== null && !this.error ? html`<p class="about">${about}</p>` : nothing}
      ${
        req?.presetInfo && !this.error
          ? html`<p class="about">${(req.preset ? MSG.presetDraws[req.preset] : undefined) ?? coreOriginal(req.presetInfo.draws)}</p>`
          : nothing
      }
      <h3>${MSG.sweep}</h3>
      ${
        req
          ? html`<p class="label">${MSG.sweepAbout(req.config.policy, this.trialCount(), req.config.k, req.config.ranks, req.config.perRank)}</p>`
          : nothing
      }
      <button type="button" name="sweep" ?disabled=${sw.status === 'running' || !req} @click=${this.runSweep}>${MSG.runSweep}</button>
      <span class="sweep-status" aria-live="polite">${
        sw.status === 'running'
          ? MSG.sweepRunning(sw.units, sw.total)
          : sw.status === 'done'
            ? MSG.sweepDone(sw.total, sw.ms ?? 0)
            : sw.status === 'error'
              ? sw.message
              : ''
      }</span>
      <div class="sweep-chart"></div>`;
  }
}

if (!customElements.get('grpo-dynamic')) customElements.define('grpo-dynamic', GrpoDynamicView);

declare global {
  interface HTMLElementTagNameMap {
    'grpo-dynamic': GrpoDynamicView;
  }
}
