// The terminal report of `grpo-sandbox schedule`: one Gantt chart per scheme on a shared time
// scale (ranks as rows, one character per time slot), its caption, a legend and the comparison table.
import { caption, conclusion, formatTime, headline, type ScheduleResult, type SchemeResult } from '../core/schedule/index.ts';

/** Rows drawn per chart; more ranks are summarised (the JSON has them all). */
const MAX_ROWS = 64;
const IDLE = '·';
const GATHER = '≈';
const MANY = '#';

/** What a launch is called in a chart: `1-3` alone, `2-1…5` for one sample's copies, `×7` for a mix of samples. */
export function launchLabel(r: ScheduleResult, configs: number[]): string {
  const cfgs = configs.map((i) => r.configurations[i]!);
  if (cfgs.length === 1) return cfgs[0]!.id;
  const sample = cfgs[0]!.sample;
  const copies = cfgs.map((c) => c.copy);
  const contiguous = copies.every((c, i) => i === 0 || c === copies[i - 1]! + 1);
  if (cfgs.every((c) => c.sample === sample) && contiguous) return `${sample + 1}-${copies[0]! + 1}…${copies.at(-1)! + 1}`;
  return `×${cfgs.length}`;
}

/** One rank's row: each launch is its label, filled with '-' and closed by '|'; gaps are idle. */
function row(r: ScheduleResult, s: SchemeResult, rank: number, dt: number, width: number): string {
  const cells: string[] = Array.from({ length: width }, () => IDLE);
  const col = (t: number) => Math.min(width, Math.round(t / dt));
  for (const i of s.timeline[rank]!) {
    const a = Math.min(width - 1, col(i.start));
    const b = Math.max(col(i.end), a + 1); // an interval shorter than a column still shows
    if (i.kind === 'gather') {
      for (let x = a; x < b; x++) cells[x] = GATHER;
      continue;
    }
    const w = b - a;
    if (w === 1) {
      // Launches shorter than a column pile up in it: one shows as its end, several as '#'.
      cells[a] = cells[a] === IDLE ? '|' : MANY;
      continue;
    }
    const text = `${launchLabel(r, i.configs)
      .slice(0, w - 1)
      .padEnd(w - 1, '-')}|`;
    for (let x = 0; x < w; x++) cells[a + x] = text[x]!;
  }
  return cells.join('');
}

/** A round time step (1, 2 or 5 × 10^n) at least `min` long, for axis ticks. */
export function niceStep(min: number): number {
  const base = 10 ** Math.floor(Math.log10(min));
  return [1, 2, 5, 10].map((m) => m * base).find((x) => x >= min * (1 - 1e-9))!;
}

/** A time axis over `width` columns of `dt` each: a tick every round step of about 8 columns, labelled in the unit. */
function axis(width: number, dt: number, unit: string): string[] {
  const marks = Array.from({ length: width + 1 }, () => ' ');
  const labels = Array.from({ length: width + 12 }, () => ' ');
  const step = niceStep(8 * dt);
  for (let t = 0; t <= width * dt * (1 + 1e-9); t += step) {
    const x = Math.round(t / dt);
    marks[x] = '|';
    // One unit along the whole axis: seconds once the chart reaches 10 s.
    const text =
      unit === 'ms' && width * dt >= 10_000
        ? formatTime(Number((t / 1000).toPrecision(6)), 's')
        : formatTime(Number(t.toPrecision(6)), unit);
    if (labels.slice(Math.max(0, x - 1), x + text.length + 1).every((c) => c === ' '))
      text.split('').forEach((ch, j) => (labels[x + j] = ch));
  }
  return [labels.join('').trimEnd(), marks.join('').trimEnd()];
}

function percent(x: number): string {
  return `${Math.round(100 * x)}%`;
}

/** The Gantt chart of one scheme. */
export function renderGantt(r: ScheduleResult, s: SchemeResult, dt: number): string {
  const ranks = s.timeline.length;
  const shown = Math.min(ranks, MAX_ROWS);
  const name = (x: number) => `rank ${x}`.padEnd(`rank ${ranks - 1}`.length + 2);
  const pad = ' '.repeat(name(0).length);
  const cols = Math.ceil(s.makespan / dt - 1e-9);
  const lines = [`${s.scheme}: ${formatTime(s.makespan, r.unit)}, ${s.speedup.toFixed(2)}× serial-dp`];
  for (const a of axis(cols, dt, r.unit)) lines.push(pad + a);
  for (let x = 0; x < shown; x++) lines.push(`${name(x)}${row(r, s, x, dt, cols)}  idle ${percent(s.idleFraction[x]!)}`);
  if (shown < ranks) lines.push(`${pad}… ${ranks - shown} more ranks (all of them in --json)`);
  lines.push(...wrap(caption(r, s), 100, '  '));
  return lines.join('\n');
}

/** Wraps text at word boundaries. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      out.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(indent + line);
  return out;
}

/** The comparison table of the schemes. */
export function renderTable(r: ScheduleResult, schemes: SchemeResult[]): string {
  const head = ['scheme', 'makespan', 'speed-up', 'launches', 'peak batch', 'idle mean', 'idle max', 'idle per rank'];
  const rows = schemes.map((s) => {
    const perRank = s.idleFraction.length <= 8 ? s.idleFraction.map(percent).join(' ') : '(--json)';
    return [
      s.scheme,
      formatTime(s.makespan, r.unit),
      `${s.speedup.toFixed(2)}×`,
      String(s.launches),
      String(s.peakBatch),
      percent(s.idleFraction.reduce((a, b) => a + b, 0) / s.idleFraction.length),
      percent(Math.max(...s.idleFraction)),
      perRank,
    ];
  });
  const widths = head.map((h, j) => Math.max(h.length, ...rows.map((x) => x[j]!.length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, j) => (j === 0 || j === cells.length - 1 ? c.padEnd(widths[j]!) : c.padStart(widths[j]!)))
      .join('  ')
      .trimEnd();
  return [fmt(head), ...rows.map(fmt)].join('\n');
}

/** The legend under the charts. */
export function legend(dt: number, unit: string): string {
  return [
    'legend:',
    `  1-3|      Config1-3 (sample 1, copy 3) alone; the launch ends at '|', '-' fills the rest of its time`,
    `  2-1…5|    sample 2's configurations 1 to 5 in one launch (a batch)`,
    '  ×7|       one launch of 7 configurations from several samples',
    `  ${IDLE}          the rank is idle`,
    `  ${GATHER}          all-gather of the results across ranks (spread)`,
    `  ${MANY}          several launches within one column (--width widens the chart)`,
    `  one column = ${formatTime(Number(dt.toPrecision(3)), unit)}; a launch shorter than a column still takes one`,
  ].join('\n');
}

/** Up to this many sampled configurations are listed with their structure and latency. */
const MAX_LISTED = 40;

/** The sampled configurations (controller model), so the charts' ids can be looked up; '' otherwise. */
function configurationList(r: ScheduleResult): string {
  if (r.config.latency.kind !== 'controller') return '';
  if (r.configurations.length > MAX_LISTED)
    return `(${r.configurations.length} configurations: --json lists each with its knobs and latency)`;
  const width = Math.max(...r.configurations.map((c) => c.structure.length));
  const lines = r.configurations.map(
    (c) => `  ${c.id.padEnd(6)} ${c.structure.padEnd(width)}  ${formatTime(c.latency, r.unit).padStart(9)}`,
  );
  return ['configurations drawn (id, structure, latency alone):', ...lines].join('\n');
}

/** The whole report: headline, one chart per scheme (shared time scale), legend, table, conclusion. */
export function renderSchedule(r: ScheduleResult, schemes: SchemeResult[], width: number, intro?: string): string {
  const longest = Math.max(...schemes.map((s) => s.makespan));
  const dt = longest / width;
  const parts = [];
  if (intro) parts.push(wrap(intro, 100).join('\n'));
  parts.push(wrap(headline(r), 100).join('\n'));
  const listed = configurationList(r);
  if (listed) parts.push(listed);
  for (const s of schemes) parts.push(renderGantt(r, s, dt));
  parts.push(legend(dt, r.unit));
  parts.push(renderTable(r, schemes));
  parts.push(wrap(conclusion(r, schemes), 100).join('\n'));
  return `${parts.join('\n\n')}\n`;
}
