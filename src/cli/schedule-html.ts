// `grpo-sandbox schedule --html FILE`: one self-contained page (inline SVG and CSS, no script,
// no network) with every scheme's Gantt chart side by side on one time scale, the captions, the
// comparison table and a legend. A launch of b configurations is drawn as b stacked bands
// coloured by sample, so a batch looks like one; idle time is hatched.
import { caption, conclusion, formatTime, headline, type ScheduleResult, type SchemeResult } from '../core/schedule/index.ts';
import { launchLabel, niceStep, renderTable } from './schedule-text.ts';

const ROW = 26;
const LEFT = 56;
const PLOT = 520;
const TOP = 22;

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Sample s's colour: hues spread by the golden angle so neighbours differ. */
function sampleColour(s: number): string {
  return `hsl(${(s * 137.508) % 360} 60% 62%)`;
}

function num(x: number): string {
  return Number(x.toFixed(2)).toString();
}

/** One scheme's chart; `scale` is pixels per time unit, shared by every chart of the page. */
function chart(r: ScheduleResult, s: SchemeResult, scale: number): string {
  const ranks = s.timeline.length;
  const width = Math.max(380, LEFT + s.makespan * scale + 70); // room for the title
  const height = TOP + ranks * ROW + 26;
  const parts: string[] = [];
  for (let rank = 0; rank < ranks; rank++) {
    const y = TOP + rank * ROW;
    parts.push(`<text x="${LEFT - 6}" y="${y + ROW / 2 + 4}" text-anchor="end" class="rank">rank ${rank}</text>`);
    // The whole row is hatched (idle); launches and gathers are drawn over it.
    parts.push(`<rect x="${LEFT}" y="${y + 2}" width="${num(s.makespan * scale)}" height="${ROW - 4}" fill="url(#idle)"/>`);
    for (const i of s.timeline[rank]!) {
      const x = LEFT + i.start * scale;
      const w = Math.max(1, (i.end - i.start) * scale);
      const when = `${formatTime(Number(i.start.toFixed(3)), r.unit)} – ${formatTime(Number(i.end.toFixed(3)), r.unit)}`;
      if (i.kind === 'gather') {
        parts.push(
          `<rect x="${num(x)}" y="${y + 2}" width="${num(w)}" height="${ROW - 4}" class="gather"><title>all-gather, ${when}</title></rect>`,
        );
        continue;
      }
      const band = (ROW - 4) / i.configs.length;
      const ids = i.configs.map((c) => `Config${r.configurations[c]!.id}`).join(', ');
      parts.push(`<g><title>${esc(`${ids} (batch ${i.configs.length}), ${when}`)}</title>`);
      i.configs.forEach((c, j) => {
        const fill = sampleColour(r.configurations[c]!.sample);
        parts.push(`<rect x="${num(x)}" y="${num(y + 2 + j * band)}" width="${num(w)}" height="${num(band)}" fill="${fill}"/>`);
      });
      parts.push(`<rect x="${num(x)}" y="${y + 2}" width="${num(w)}" height="${ROW - 4}" class="launch"/>`);
      const label = launchLabel(r, i.configs);
      if (w > label.length * 6.5 + 4)
        parts.push(`<text x="${num(x + w / 2)}" y="${y + ROW / 2 + 4}" text-anchor="middle">${esc(label)}</text>`);
      parts.push('</g>');
    }
    parts.push(
      `<text x="${num(LEFT + s.makespan * scale + 6)}" y="${y + ROW / 2 + 4}" class="idle">idle ${Math.round(100 * s.idleFraction[rank]!)}%</text>`,
    );
  }
  // Time axis: round ticks about 80 px apart, in seconds once the longest chart reaches 10 s.
  const axisY = TOP + ranks * ROW + 2;
  const end = LEFT + s.makespan * scale;
  parts.push(`<line x1="${LEFT}" x2="${num(end)}" y1="${axisY}" y2="${axisY}" class="axis"/>`);
  const inSeconds = r.unit === 'ms' && PLOT / scale >= 10_000;
  const step = niceStep(80 / scale);
  const label = (t: number) =>
    inSeconds ? formatTime(Number((t / 1000).toPrecision(6)), 's') : formatTime(Number(t.toPrecision(6)), r.unit);
  const ticks: number[] = [];
  for (let t = 0; t <= s.makespan * (1 + 1e-9); t += step) ticks.push(t);
  // The makespan gets a tick too when no round one is near it.
  if ((s.makespan - ticks.at(-1)!) * scale > 40) ticks.push(s.makespan);
  for (const t of ticks) {
    const x = LEFT + t * scale;
    parts.push(`<line x1="${num(x)}" x2="${num(x)}" y1="${axisY}" y2="${axisY + 4}" class="axis"/>`);
    parts.push(`<text x="${num(x)}" y="${axisY + 15}" text-anchor="middle" class="tick">${esc(label(t))}</text>`);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${height}" role="img" aria-label="${esc(s.scheme)} timeline">` +
    `<text x="0" y="14" class="title">${esc(s.scheme)}: ${esc(formatTime(Number(s.makespan.toFixed(3)), r.unit))}, ${s.speedup.toFixed(2)}× serial-dp</text>` +
    parts.join('') +
    '</svg>'
  );
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1500px; }
h1 { font-size: 20px; } .intro { color: #444; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(620px, 1fr)); gap: 20px 28px; }
figure { margin: 0; } figcaption { font-size: 13px; color: #333; max-width: 640px; }
svg text { font: 11px ui-monospace, monospace; fill: #111; } svg .title { font: 600 13px system-ui, sans-serif; }
svg .rank, svg .tick, svg .idle { fill: #555; } svg .axis { stroke: #888; }
svg .launch { fill: none; stroke: #222; stroke-width: 1; } svg .gather { fill: #555; }
pre { background: #f6f6f6; padding: 10px; overflow-x: auto; }
.legend span { display: inline-block; margin-right: 14px; } .swatch { display: inline-block; width: 14px; height: 14px; vertical-align: -2px;
  margin-right: 4px; border: 1px solid #222; }
`;

const DEFS =
  '<svg width="0" height="0" style="position:absolute"><defs><pattern id="idle" width="6" height="6" patternUnits="userSpaceOnUse" ' +
  'patternTransform="rotate(45)">' +
  '<rect width="6" height="6" fill="#f3f3f3"/><line x1="0" y1="0" x2="0" y2="6" stroke="#c8c8c8" stroke-width="2"/></pattern></defs></svg>';

/** The page: headline, legend, charts side by side (same time scale), table, conclusion. */
export function renderScheduleHtml(r: ScheduleResult, schemes: SchemeResult[], intro?: string): string {
  const longest = Math.max(...schemes.map((s) => s.makespan));
  const scale = PLOT / longest;
  const samples = Math.min(r.config.batch, 16);
  const swatches = Array.from(
    { length: samples },
    (_, s) => `<span><i class="swatch" style="background:${sampleColour(s)}"></i>sample ${s + 1}</span>`,
  ).join('');
  const more = r.config.batch > samples ? `<span>… ${r.config.batch - samples} more samples</span>` : '';
  const figures = schemes.map((s) => `<figure>${chart(r, s, scale)}<figcaption>${esc(caption(r, s))}</figcaption></figure>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>grpo-sandbox schedule</title><style>${STYLE}</style></head>
<body>${DEFS}
<h1>How the expanded batch runs on the ranks</h1>
${intro ? `<p class="intro">${esc(intro)}</p>` : ''}
<p>${esc(headline(r))}</p>
<p class="legend">${swatches}${more}<span><i class="swatch" style="background:#f3f3f3"></i>idle (hatched)</span><span><i class="swatch"
  style="background:#555"></i>all-gather</span>
A launch of b configurations is drawn as b stacked bands, one per configuration, coloured by sample; hover for its configurations and times. All
  charts share one time scale.</p>
<div class="charts">
${figures}
</div>
<h2>Comparison</h2>
<pre>${esc(renderTable(r, schemes))}</pre>
<p>${esc(conclusion(r, schemes))}</p>
</body></html>
`;
}
