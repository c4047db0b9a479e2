// report.html of a training run: one self-contained page (uPlot's script and stylesheet inlined,
// the metrics embedded as JSON, no network) with the learning curves and the learned policy per
// latency budget beside the optimum. Pure: the caller reads uPlot's files and writes the page.
import { lossNearZeroByConstruction, offPolicyPossible, type TrainConfig } from './config.ts';
import type { BudgetBand } from './evaluate.ts';
import { METRIC_CHARTS, METRICS, type MetricRow, metricValue } from './metrics.ts';
import type { StepRecord } from './run.ts';

export interface ReportInput {
  config: TrainConfig;
  metrics: StepRecord[];
  bands: BudgetBand[];
  /** One line: what the run reached, in how long. */
  summary: string;
  /** Mean optimum fraction of the uniform random policy over the bank. */
  randomFraction: number;
  uplot: { js: string; css: string };
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

/** With micro-steps: the framework version, and each loss normaliser the steps applied with the steps that applied it. */
function microSection(r: ReportInput): string {
  const c = r.config;
  const steps = r.metrics.filter((x) => x.micro);
  if (steps.length === 0) return '';
  const by = new Map<string, number[]>();
  for (const x of steps) {
    const key = x.micro!.normaliser.join(' · ');
    by.set(key, [...(by.get(key) ?? []), x.step]);
  }
  const rows = [...by]
    .map(
      ([text, at]) =>
        `<tr><td>${escapeHtml(text)}</td><td>${at.length}</td><td>${at.slice(0, 8).join(', ')}${at.length > 8 ? ', …' : ''}</td></tr>`,
    )
    .join('\n');
  return `<h2>Micro-steps: ${escapeHtml(steps[0]!.micro!.framework)}, ${escapeHtml(c.loss)} loss</h2>
<p class="note">gradient_accumulation_steps ${c.gradientAccumulationSteps}, num_iterations ${c.numIterations}; one step is one optimizer step.
Each rank's micro-batch loss is normalised as the framework version computes it (the same model as <code>grpo-sandbox steps</code>), then DDP
averages the ranks' gradients.</p>
<table><tr><th>normaliser of rank 0's micro-steps</th><th>steps</th><th>at steps</th></tr>
${rows}
</table>`;
}

/** The metrics table's charts (src/train/metrics.ts) with each series' values, less the charts that no step measured (KL at β = 0). */
function reportCharts(metrics: readonly StepRecord[]) {
  return METRIC_CHARTS.map((chart) => ({
    id: chart.id,
    title: chart.title,
    span: 'span' in chart ? chart.span : null,
    series: (METRICS as readonly MetricRow[])
      .filter((m) => m.chart === chart.id)
      .map((m) => ({
        label: m.label,
        stroke: m.stroke,
        values: metrics.map((x) => {
          const v = metricValue(x, m);
          return v === null ? null : (m.scale ?? 1) * v;
        }),
      })),
  })).filter((c) => c.series.some((s) => s.values.some((v) => v !== null)));
}

/**
 * Why a chart is flat or absent in run `c`, as the dashboard says it (src/ui/train/charts.ts): a chart that
 * cannot move is replaced by its sentence, the loss gets one beside it. Keyed by chart id.
 */
function chartWords(c: TrainConfig): { instead: Record<string, string>; beside: Record<string, string> } {
  const instead: Record<string, string> = {};
  const beside: Record<string, string> = {};
  if (c.beta === 0) instead.kl = 'KL to the initial policy: not charted, no reference model (β = 0).';
  if (!offPolicyPossible(c))
    instead.clip = 'Clip fraction: nothing to clip, one optimisation pass per generation keeps the ratio at 1 (0 at every step).';
  if (lossNearZeroByConstruction(c))
    beside.loss =
      'The loss is ~0 by construction: on-policy (one pass per generation) the ratio is 1, so the loss is minus the mean advantage, ' +
      'and advantages are centred within each group; what trains is its gradient, Σ A·∇log π (see the gradient norm).';
  return { instead, beside };
}

/** The page as one string. */
export function renderReport(r: ReportInput): string {
  const words = chartWords(r.config);
  const charts = reportCharts(r.metrics).filter((c) => !(c.id in words.instead));
  const micro = microSection(r);
  const rows = r.bands
    .map(
      (b) =>
        `<tr><td>${b.fromMs.toFixed(0)}–${b.toMs.toFixed(0)} ms</td><td>${b.prompts}</td>` +
        `<td>${escapeHtml(b.policy.config)}</td><td>${b.policy.latencyMs.toFixed(1)}</td><td>${b.policy.reward.toFixed(3)}</td>` +
        `<td>${escapeHtml(b.optimum.config)}</td><td>${b.optimum.latencyMs.toFixed(1)}</td><td>${b.optimum.reward.toFixed(3)}</td></tr>`,
    )
    .join('\n');
  const settings = Object.entries(r.config)
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(JSON.stringify(v))}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>grpo-sandbox training report</title>
<style>${r.uplot.css}</style>
<style>
body{font:14px system-ui,sans-serif;margin:24px;max-width:1100px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0;display:block;max-width:100%;overflow-x:auto}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;overflow-wrap:anywhere}
.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{max-width:100%}.note{color:#555}
.chart .note{max-width:520px;font-size:13px;margin:4px 0 0}.off{border:1px dashed #bbb;border-radius:6px;padding:10px;max-width:500px;color:#444}
@media (max-width:600px){body{margin:12px}h1{font-size:17px}}
</style></head><body>
<h1>Training the seed-003 controller: ${escapeHtml(r.config.sampler)} sampler,
${escapeHtml(r.config.advantage)} advantages, ${escapeHtml(r.config.loss)} loss</h1>
<p>${escapeHtml(r.summary)}</p>
<p class="note">Fraction of the optimum: the expected reward of the sampled configurations over the best expected reward of their prompts
(all 375 valid configurations enumerated). The uniform random policy reaches ${(100 * r.randomFraction).toFixed(1)}%.</p>
<div class="charts">${charts
    .map(
      (c) =>
        `<div class="chart"><div id="c-${c.id}"></div>${c.id in words.beside ? `<p class="note">${words.beside[c.id]}</p>` : ''}</div>`,
    )
    .join('')}${Object.values(words.instead)
    .map((w) => `<p class="off">${escapeHtml(w)}</p>`)
    .join('')}<div class="chart"><div id="c-budget"></div></div></div>
${micro}
<h2>Learned policy per latency budget (greedy) next to the optimum</h2>
<table><tr><th>budget</th><th>prompts</th><th>policy: most common choice</th><th>latency ms</th><th>reward</th>
<th>optimum: most common choice</th><th>latency ms</th><th>reward</th></tr>
${rows}
</table>
<h2>Settings</h2><table>${settings}</table>
<script>${r.uplot.js}</script>
<script>
const STEPS = ${scriptJson(r.metrics.map((x) => x.step))};
const CHARTS = ${scriptJson(charts)};
const B = ${scriptJson(r.bands.map((b) => [(b.fromMs + b.toMs) / 2, b.policy.reward, b.optimum.reward]))};
// As wide as the window leaves (a phone's is about 360 px), at most 520.
const W = Math.min(520, document.documentElement.clientWidth - 28), H = 260;
const line = (label, stroke) => ({ label, stroke, width: 1.5 });
function chart(id, title, labels, data, xLabel, span) {
  const y = span ? { y: { range: (u, lo, hi) => [Math.min(lo, span[0]), Math.max(hi, span[1])] } } : {};
  new uPlot({ title, width: W, height: H, scales: { x: { time: false }, ...y }, axes: [{ label: xLabel }, {}],
    series: [{ label: xLabel }, ...labels] }, data, document.getElementById(id));
}
for (const c of CHARTS)
  chart('c-' + c.id, c.title, c.series.map((s) => line(s.label, s.stroke)), [STEPS, ...c.series.map((s) => s.values)], 'step', c.span);
chart('c-budget', 'reward per budget band: greedy policy vs optimum', [line('policy', '#1f77b4'), line('optimum', '#ff7f0e')],
  [B.map((b) => b[0]), B.map((b) => b[1]), B.map((b) => b[2])], 'budget ms');
</script>
</body></html>
`;
}
