// The training dashboard's charts (a Lit reactive controller: logic, no template). Steps are
// appended to per-chart columns as they arrive and drawn at most once per animation frame; each
// frame builds or redraws charts in turn until FRAME_BUDGET_MS is spent (at least one), so no
// frame's task grows with the number of charts (uPlot's first draw of seven charts with data took
// 74 ms at once on the loaded 2-core VM; the constructors together 48–68 ms when the view loaded).
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import uPlot from 'uplot';
import type { StepRecord } from '../../train/run.ts';
import type { PolicyAnswer } from './policy-worker.ts';
import { spanRange, tickLabels, WHOLE_STEP_INCRS } from './chart-ticks.ts';
import { CHARTS } from './charts.ts';
import { MSG } from './messages.ts';
import type { SeriesLabel } from '../../train/metrics.ts';

/** Milliseconds of chart drawing per animation frame before the rest waits for the next frame. */
const FRAME_BUDGET_MS = 8;
export const CHART_W = 380;
export const CHART_H = 190;

/** A chart series' legend label in the page's language (English: the label itself). */
const seriesLabel = (label: SeriesLabel) => MSG.charts.series[label] ?? label;

/** A y axis whose ticks never read alike (chart-ticks.ts). */
const yAxis: uPlot.Axis = { size: 60, values: (_u, splits, _axis, _space, incr) => tickLabels(splits, incr) };

export class ChartsController implements ReactiveController {
  readonly charts = new Map<string, uPlot>();
  budgetChart: uPlot | null = null;
  /** False off screen (the embed's lazy loader): nothing is drawn, steps are still collected. */
  active = true;
  private frame = 0;
  private dirty = false;
  /** Charts not built yet (one or more per frame). */
  private pending: (() => void)[] = [];
  /** Charts to redraw in the coming frames. */
  private stale = new Set<string>();
  /** Each chart's data as uPlot takes it: the steps, then one column per series. */
  private columns = new Map<string, (number | null)[][]>();

  constructor(
    private readonly host: ReactiveControllerHost & { renderRoot: ParentNode },
    /** The policy per budget, for its chart. */
    private readonly bands: () => PolicyAnswer | null,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  /** The host's first render is in the DOM: queue every chart's construction, one or more per frame. */
  build(): void {
    const root = this.host.renderRoot;
    // As wide as the column allows on a phone (390 px leaves about 350), CHART_W elsewhere.
    const room = (root.querySelector('.charts') as HTMLElement | null)?.clientWidth ?? CHART_W;
    const width = room > 0 ? Math.max(240, Math.min(CHART_W, room)) : CHART_W;
    for (const spec of CHARTS) {
      this.pending.push(() => {
        const opts: uPlot.Options = {
          title: spec.title,
          width,
          height: CHART_H,
          scales: spec.span ? { x: { time: false }, y: { range: spanRange(spec.span) } } : { x: { time: false } },
          axes: [{ label: seriesLabel('step'), size: 36, incrs: [...WHOLE_STEP_INCRS] }, yAxis],
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
    this.pending.push(() => {
      this.budgetChart = new uPlot(
        {
          title: MSG.charts.budget,
          width,
          height: CHART_H,
          scales: { x: { time: false } },
          axes: [{ label: seriesLabel('budget ms'), size: 36 }, yAxis],
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
  }

  /** Appends a step to every chart's columns (x first), so a frame draws without re-reading every record. */
  append(record: StepRecord): void {
    for (const spec of CHARTS) {
      let columns = this.columns.get(spec.id);
      if (!columns) {
        columns = [[], ...spec.series.map(() => [])];
        this.columns.set(spec.id, columns);
      }
      columns[0]!.push(record.step);
      spec.series.forEach(([, , read], i) => columns[i + 1]!.push(read(record)));
    }
    this.changed();
  }

  /** Forgets every step (a new run or a reset). */
  clear(): void {
    this.columns.clear();
    this.changed();
  }

  /** Something to draw changed: every chart and the host's render, in the next frame. */
  changed(): void {
    this.dirty = true;
    this.schedule();
  }

  pause(): void {
    this.active = false;
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  resume(): void {
    this.active = true;
    this.changed();
  }

  /** One draw per animation frame however many steps arrived since the last. */
  private schedule(): void {
    if (this.frame || !this.active) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.dirty) {
        this.dirty = false;
        for (const spec of CHARTS) this.stale.add(spec.id);
        this.stale.add('budget');
        this.host.requestUpdate();
      }
      const t0 = performance.now();
      // At least one chart built or drawn per frame, more while the budget lasts.
      let spent = false;
      while (this.pending.length > 0 && !spent) {
        this.pending.shift()!();
        spent = performance.now() - t0 > FRAME_BUDGET_MS;
      }
      for (const id of this.stale) {
        if (spent || this.pending.length > 0) break;
        this.draw(id);
        this.stale.delete(id);
        if (performance.now() - t0 > FRAME_BUDGET_MS) break;
      }
      if (this.stale.size > 0 || this.pending.length > 0) this.schedule();
    });
  }

  private draw(id: string): void {
    if (id === 'budget') {
      const b = this.bands()?.bands ?? [];
      this.budgetChart?.setData([b.map((x) => (x.fromMs + x.toMs) / 2), b.map((x) => x.policy.reward), b.map((x) => x.optimum.reward)]);
      return;
    }
    const spec = CHARTS.find((c) => c.id === id)!;
    // No steps (yet, or after a reset): empty columns.
    const columns = this.columns.get(id) ?? [[], ...spec.series.map(() => [])];
    this.charts.get(id)?.setData(columns as uPlot.AlignedData);
  }

  /** After a language switch: the uPlot titles and legends (built once, outside Lit's templates) say the new words. */
  relabel(): void {
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
      if (u) relabel(u, spec.title, (['step', ...spec.series.map(([label]) => label)] as SeriesLabel[]).map(seriesLabel));
    }
    if (this.budgetChart) relabel(this.budgetChart, MSG.charts.budget, (['budget ms', 'policy', 'optimum'] as const).map(seriesLabel));
  }

  /** The shown charts as one canvas (titles included), for figure export; `hidden` ids are left out. */
  figure(hidden: ReadonlySet<string>): HTMLCanvasElement | null {
    const charts = [...this.charts.entries()].filter(([id]) => !hidden.has(id)).map(([, u]) => u);
    if (this.budgetChart) charts.push(this.budgetChart);
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
      ctx.drawImage(u.ctx.canvas, x, y + titleH, u.width, CHART_H);
    });
    return out;
  }
}
