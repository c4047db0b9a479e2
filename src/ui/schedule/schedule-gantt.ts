// The Gantt charts of <grpo-schedule>: one SVG (so a figure export gets every scheme at once)
// with a panel per scheme, side by side on one time scale, ranks × time. A launch of b
// configurations is b stacked bands coloured by sample, outlined as one; idle time is hatched;
// each launch carries its configuration ids (a <title> tooltip and data-configs for the readout).
import { section } from '../i18n/index.ts';
import { html, svg, type SVGTemplateResult, type TemplateResult } from 'lit';
import { formatTime, type ScheduleResult, type SchemeResult } from '../../core/schedule/index.ts';

/** The view's words (the schedule section of the en/zh catalogues). */
const MSG = section('schedule');

/** Panel geometry in SVG units (the SVG scales to its box with its viewBox). */
const PANEL = { width: 430, left: 52, right: 14, top: 24, bottom: 30, gapX: 22, gapY: 18, plotHeight: 200 };
export const GANTT_COLUMNS = 3;

/** Sample s's colour: hues spread by the golden angle so neighbours differ (as the CLI's HTML page). */
export function sampleColour(s: number): string {
  return `hsl(${(s * 137.508) % 360} 60% 62%)`;
}

/** A round tick step at least `min` long: 1, 2 or 5 × 10^n. */
export function niceStep(min: number): number {
  const base = 10 ** Math.floor(Math.log10(min));
  return [1, 2, 5, 10].map((m) => m * base).find((x) => x >= min * (1 - 1e-9))!;
}

const num = (x: number) => Number(x.toFixed(2));
const time = (x: number, unit: string) => formatTime(Number(x.toPrecision(6)), unit);

/** What a launch shows on hover: `Config1-1, Config1-2 (batch 2), 0T – 2T`. */
export function launchText(r: ScheduleResult, configs: number[], start: number, end: number): string {
  const ids = configs.map((c) => `Config${r.configurations[c]!.id}`).join(', ');
  return `${ids} (batch ${configs.length}), ${time(start, r.unit)} – ${time(end, r.unit)}`;
}

/** A short label inside a launch: its id, or `2-1…5` for a contiguous run of one sample, else `×b`. */
function launchLabel(r: ScheduleResult, configs: number[]): string {
  const cfgs = configs.map((i) => r.configurations[i]!);
  if (cfgs.length === 1) return cfgs[0]!.id;
  const copies = cfgs.map((c) => c.copy);
  const contiguous = copies.every((c, i) => i === 0 || c === copies[i - 1]! + 1);
  if (cfgs.every((c) => c.sample === cfgs[0]!.sample) && contiguous)
    return `${cfgs[0]!.sample + 1}-${copies[0]! + 1}…${copies.at(-1)! + 1}`;
  return `×${cfgs.length}`;
}

function panel(r: ScheduleResult, s: SchemeResult, scale: number, x0: number, y0: number, row: number): SVGTemplateResult {
  const ranks = s.timeline.length;
  const left = x0 + PANEL.left;
  const top = y0 + PANEL.top;
  const plotWidth = s.makespan * scale;
  const axisY = top + ranks * row + 2;
  const step = niceStep(70 / scale);
  const ticks: number[] = [];
  for (let t = 0; t <= s.makespan * (1 + 1e-9); t += step) ticks.push(t);
  if ((s.makespan - ticks.at(-1)!) * scale > 36) ticks.push(s.makespan);
  const labelEvery = Math.ceil(11 / row);
  return svg`<g class="panel" data-scheme=${s.scheme}>
    <text x=${x0} y=${y0 + 14} class="title">${s.scheme}: ${time(s.makespan, r.unit)}, ${s.speedup.toFixed(2)}× serial-dp</text>
    ${s.timeline.map((intervals, rank) => {
      const y = top + rank * row;
      const h = Math.max(1, row - (row > 6 ? 3 : 0));
      return svg`<g class="rank" data-rank=${rank}>
        ${rank % labelEvery === 0 ? svg`<text x=${left - 5} y=${num(y + row / 2 + 4)} text-anchor="end" class="tick">${MSG.rank(rank)}</text>` : null}
        <rect x=${left} y=${num(y)} width=${num(plotWidth)} height=${num(h)} fill="url(#grpo-idle)"><title>${MSG.idleTitle(
          rank,
          Math.round(100 * s.idleFraction[rank]!),
          time(s.makespan, r.unit),
        )}</title></rect>
        ${intervals.map((i) => {
          const x = left + i.start * scale;
          const w = Math.max(1, (i.end - i.start) * scale);
          if (i.kind === 'gather') {
            const text = `all-gather, ${time(i.start, r.unit)} – ${time(i.end, r.unit)}`;
            return svg`<rect class="gather" x=${num(x)} y=${num(y)} width=${num(w)} height=${num(h)} data-text=${text}><title>${text}</title></rect>`;
          }
          const text = launchText(r, i.configs, i.start, i.end);
          const band = h / i.configs.length;
          const label = launchLabel(r, i.configs);
          return svg`<g class="launch" data-configs=${i.configs.map((c) => r.configurations[c]!.id).join(' ')} data-text=${text}>
            <title>${text}</title>
            ${i.configs.map(
              (c, j) =>
                svg`<rect x=${num(x)} y=${num(y + j * band)} width=${num(w)} height=${num(band)} fill=${sampleColour(r.configurations[c]!.sample)}></rect>`,
            )}
            <rect class="outline" x=${num(x)} y=${num(y)} width=${num(w)} height=${num(h)}></rect>
            ${w > label.length * 6.5 + 4 && h >= 12 ? svg`<text x=${num(x + w / 2)} y=${num(y + h / 2 + 4)} text-anchor="middle">${label}</text>` : null}
          </g>`;
        })}
      </g>`;
    })}
    <line class="axis" x1=${left} x2=${num(left + plotWidth)} y1=${num(axisY)} y2=${num(axisY)}></line>
    ${ticks.map(
      (t) => svg`<line class="axis" x1=${num(left + t * scale)} x2=${num(left + t * scale)} y1=${num(axisY)} y2=${num(axisY + 4)}></line>
        <text class="tick" x=${num(left + t * scale)} y=${num(axisY + 15)} text-anchor="middle">${time(t, r.unit)}</text>`,
    )}
  </g>`;
}

/** Every shown scheme's chart in one SVG: `columns` panels a row, one time scale for all. */
export function ganttSvg(r: ScheduleResult, schemes: SchemeResult[], columns = GANTT_COLUMNS): TemplateResult {
  const ranks = r.config.ranks;
  // Rows shrink with many ranks so a panel stays about plotHeight tall (at least 2 units a rank).
  const row = Math.max(2, Math.min(24, PANEL.plotHeight / ranks));
  const panelHeight = PANEL.top + ranks * row + PANEL.bottom;
  const plot = PANEL.width - PANEL.left - PANEL.right;
  const longest = Math.max(...schemes.map((s) => s.makespan));
  const scale = longest > 0 ? plot / longest : 1;
  const cols = Math.max(1, Math.min(columns, schemes.length));
  const rows = Math.ceil(schemes.length / cols);
  const width = cols * PANEL.width + (cols - 1) * PANEL.gapX;
  const height = rows * panelHeight + (rows - 1) * PANEL.gapY;
  // The outer <svg> is an html template (lit's svg tag is for content inside an <svg>).
  // One column (a phone): a larger font (class one-column), since the panel is drawn at about 0.8 of its size.
  return html`<svg class="gantt${cols === 1 ? ' one-column' : ''}" xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 ${width} ${height}" width=${width} height=${height} style="min-width: ${Math.round(width * 0.8)}px"
      role="img" aria-label=${MSG.ganttAria(schemes.map((s) => s.scheme).join(', '))}>
    <style>
      text { font: 11px ui-monospace, monospace; fill: #111; } .title { font: 600 13px system-ui, sans-serif; }
      .one-column text { font-size: 12px; } .one-column .title { font-size: 14px; }
      .tick { fill: #555; } .axis { stroke: #888; } .outline { fill: none; stroke: #222; stroke-width: 1; } .gather { fill: #555; }
    </style>
    <defs><pattern id="grpo-idle" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="6" height="6" fill="#f3f3f3"></rect><line x1="0" y1="0" x2="0" y2="6" stroke="#c8c8c8" stroke-width="2"></line>
    </pattern></defs>
    ${schemes.map((s, i) => panel(r, s, scale, (i % cols) * (PANEL.width + PANEL.gapX), Math.floor(i / cols) * (panelHeight + PANEL.gapY), row))}
  </svg>`;
}
