// The timeline of one asynchronous run as one SVG string: the trainer's steps on top (its idle time hatched, the weight
// update at each step's end a dashed line down through the lanes), then one lane per generation slot (worker ×
// concurrency) with each completion as a bar coloured by the policy version that decoded it (several colours where an
// in-flight update reached it), faded when it was never trained and crossed in red where its group was dropped; a time
// axis in seconds below. Pure: draws what async-trace.ts recorded.
import type { AsyncTrace, GroupFate } from './async-trace.ts';
import { segments } from './async-trace.ts';

export interface TimelineWords {
  trainer: string;
  worker: (w: number) => string;
  /** A step's label in its block ("step 3"), and the short one when the block is narrow ("3"). */
  step: (t: number) => string;
  idle: string;
  /** The generators' new weights at a step's end ("v3"). */
  update: (v: number) => string;
  seconds: string;
  stepTitle: (t: number, version: number, completions: number, byVersion: string, waited: string) => string;
  idleTitle: (t: number, waited: string) => string;
  barTitle: (prompt: number, completion: number, tokens: number, from: string, to: string, versions: string, fate: string) => string;
  fate: (fate: GroupFate) => string;
  /** "first 64 of 512 lanes" under a figure that leaves lanes out. */
  lanesShown: (shown: number, slots: number) => string;
}

/** Lanes drawn at most (the rest are said in words). */
export const MAX_LANES = 64;
const LEFT = 84;
/** The time axis's length at most, and at least (a 390 px phone's column is about 340 px: the axis scales to fit it). */
const PLOT_MAX = 880;
const PLOT_MIN = 200;
/** Room right of the axis (its last tick's label). */
const RIGHT = 24;
/** The widest the figure is drawn: its column's width when that is narrower. */
export const ASYNC_FIGURE_WIDTH_MAX = LEFT + PLOT_MAX + RIGHT;
/** Pixels a tick's label needs on the axis ("12.5"), so labels never overlap on a narrow axis. */
const TICK_PX = 44;
const LANE = 12;
const GAP = 2;
const TOP = 20;
const TRAINER = 24;

/** Viridis, from dark (the oldest version) to light (the newest). */
const VIRIDIS = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725'];

function mix(a: string, b: string, t: number): string {
  const c = (s: string, i: number) => Number.parseInt(s.slice(1 + 2 * i, 3 + 2 * i), 16);
  return `#${[0, 1, 2]
    .map((i) =>
      Math.round(c(a, i) + (c(b, i) - c(a, i)) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Policy version v's colour when the run's versions are 0 … newest (a sequential scale: older is darker). */
export function versionColour(v: number, newest: number): string {
  const x = newest <= 0 ? 0 : (Math.min(v, newest) / newest) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  return mix(VIRIDIS[i]!, VIRIDIS[i + 1]!, x - i);
}

/** The newest policy version any completion of the run was decoded with (the colour scale's top). */
export function newestVersion(trace: AsyncTrace): number {
  let v = 0;
  for (const g of trace.groups) for (const s of g.samples) for (const x of s.versions) v = Math.max(v, x);
  return v;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const secs = (t: number) => (Math.round(t * 10) / 10).toFixed(1);
/** A label's width at 11 px, generously (CJK as one em). */
const labelWidth = (text: string) => [...text].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? 11 : 6.6), 0);

/** A tick spacing of 1, 2 or 5 × 10ⁿ seconds giving at most about `most` ticks. */
function tickStep(end: number, most: number): number {
  const raw = end / Math.max(1, most);
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
}

/**
 * The timeline's SVG, `width` CSS px wide at most (its column): the time axis is scaled to fit, text keeps its size, so
 * the whole run (every step, its idle time and every lane) is in view without scrolling.
 */
export function asyncFigure(trace: AsyncTrace, words: TimelineWords, width = ASYNC_FIGURE_WIDTH_MAX): string {
  const { result, groups, fates } = trace;
  const end = Math.max(trace.end, 1e-9);
  const lanes = Math.min(trace.slots, MAX_LANES);
  const PLOT = Math.max(PLOT_MIN, Math.min(PLOT_MAX, Math.floor(width) - LEFT - RIGHT));
  const x = (t: number) => LEFT + (t / end) * PLOT;
  const laneY = (slot: number) => TOP + TRAINER + 12 + slot * (LANE + GAP);
  const axisY = laneY(lanes) + 4;
  width = LEFT + PLOT + RIGHT;
  const height = axisY + 30 + (lanes < trace.slots ? 16 : 0);
  const newest = newestVersion(trace);
  const parts: string[] = [
    `<svg class="async-figure" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
      'font-family="system-ui, sans-serif" font-size="11">',
    '<defs><pattern id="idle" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect width="6" height="6" fill="#fbe3e3"/><rect width="2" height="6" fill="#d88"/></pattern></defs>',
  ];
  // The trainer: idle time before each step, then the step.
  const ty = TOP;
  parts.push(`<text class="lane-label" x="4" y="${ty + 16}" fill="#222" font-weight="600">${esc(words.trainer)}</text>`);
  for (const step of result.steps) {
    const waited = secs(step.trainerIdle);
    if (step.trainerIdle > 0) {
      const a = x(step.start - step.trainerIdle);
      const w = x(step.start) - a;
      parts.push(
        `<g class="idle" data-step="${step.step}"><title>${esc(words.idleTitle(step.step, waited))}</title>` +
          `<rect x="${a.toFixed(1)}" y="${ty}" width="${w.toFixed(1)}" height="${TRAINER}" fill="url(#idle)" stroke="#c66" stroke-width="0.5"/>` +
          (w >= labelWidth(words.idle) + 6
            ? `<text x="${(a + 3).toFixed(1)}" y="${ty + 16}" fill="#8b1a1a">${esc(words.idle)}</text>`
            : '') +
          '</g>',
      );
    }
    const a = x(step.start);
    const w = x(step.end) - a;
    const byVersion = Object.entries(step.byVersion)
      .map(([v, n]) => `v${v}: ${n}`)
      .join(', ');
    const long = words.step(step.step);
    const label = w >= labelWidth(long) + 6 ? long : w >= labelWidth(String(step.step)) + 4 ? String(step.step) : '';
    parts.push(
      `<g class="step" data-step="${step.step}"><title>${esc(words.stepTitle(step.step, step.version, step.samples.length, byVersion, waited))}</title>` +
        `<rect x="${a.toFixed(1)}" y="${ty}" width="${w.toFixed(1)}" height="${TRAINER}" fill="#e8e8e8" stroke="#777"/>` +
        (label ? `<text x="${(a + 3).toFixed(1)}" y="${ty + 16}" fill="#222">${esc(label)}</text>` : '') +
        '</g>',
    );
  }
  // The weight updates: a dashed line at each step's end, labelled with the version the generators take there.
  let lastLabel = Number.NEGATIVE_INFINITY;
  for (const step of result.steps) {
    const ux = x(step.end);
    parts.push(
      `<line class="update" x1="${ux.toFixed(1)}" x2="${ux.toFixed(1)}" y1="${ty - 2}" y2="${axisY}" stroke="#555" stroke-dasharray="3 3" stroke-width="0.8"/>`,
    );
    const text = words.update(step.version + 1);
    if (ux - lastLabel >= labelWidth(text) + 4 && ux + labelWidth(text) / 2 <= width) {
      parts.push(`<text class="update-label" x="${ux.toFixed(1)}" y="${ty - 6}" text-anchor="middle" fill="#333">${esc(text)}</text>`);
      lastLabel = ux;
    }
  }
  // The lanes: one per slot, workers named at their first lane.
  for (let slot = 0; slot < lanes; slot++) {
    const y = laneY(slot);
    parts.push(`<rect x="${LEFT}" y="${y}" width="${PLOT}" height="${LANE}" fill="${slot % 2 ? '#fafafa' : '#f3f3f3'}"/>`);
  }
  const concurrency = trace.slots / trace.workers;
  for (let w = 0; w * concurrency < lanes; w++) {
    const y = laneY(w * concurrency);
    parts.push(`<text class="lane-label" x="4" y="${y + 10}" fill="#333">${esc(words.worker(w))}</text>`);
    if (w > 0) parts.push(`<line x1="0" x2="${LEFT + PLOT}" y1="${y - GAP / 2}" y2="${y - GAP / 2}" stroke="#999"/>`);
  }
  // The completions.
  for (const g of groups) {
    const fate = fates[g.id]!;
    const fateText = words.fate(fate);
    for (const s of g.samples) {
      if (s.slot < 0 || s.slot >= lanes) continue;
      const segs = segments(s, result.steps, trace.end);
      if (segs.length === 0) continue;
      const y = laneY(s.slot);
      const from = segs[0]!.from;
      const to = segs.at(-1)!.to;
      const versions = segs.map((seg) => `v${seg.version}`).join('→');
      const faded = fate.kind !== 'trained';
      const title = words.barTitle(g.prompt, s.index, s.length, secs(from), s.end < 0 ? '…' : secs(to), versions, fateText);
      const rects = segs
        .map(
          (seg) =>
            `<rect x="${x(seg.from).toFixed(2)}" y="${y + 1}" width="${Math.max(0.6, x(seg.to) - x(seg.from)).toFixed(2)}" height="${LANE - 2}" ` +
            `fill="${versionColour(seg.version, newest)}"${faded ? ' fill-opacity="0.35"' : ''}/>`,
        )
        .join('');
      const box = `x="${x(from).toFixed(2)}" width="${Math.max(0.6, x(to) - x(from)).toFixed(2)}"`;
      const outline =
        fate.kind === 'dropped'
          ? `<rect ${box} y="${y + 0.5}" height="${LANE - 1}" fill="none" stroke="#c00" stroke-width="1"/>` +
            `<path d="M${(x(to) - 4).toFixed(1)} ${y + 2}l8 8m0 -8l-8 8" stroke="#c00" stroke-width="1.6"/>`
          : // A white edge keeps back-to-back completions of one lane apart.
            `<rect ${box} y="${y + 1}" height="${LANE - 2}" fill="none" stroke="#fff" stroke-width="0.75"/>`;
      parts.push(
        `<g class="completion ${fate.kind}" data-group="${g.id}" data-versions="${s.versions.join(' ')}"><title>${esc(title)}</title>${rects}${outline}</g>`,
      );
    }
  }
  // The time axis.
  const tick = tickStep(end, Math.min(10, Math.floor(PLOT / TICK_PX)));
  parts.push(`<line x1="${LEFT}" x2="${LEFT + PLOT}" y1="${axisY}" y2="${axisY}" stroke="#555"/>`);
  for (let t = 0; t <= end + 1e-9; t += tick) {
    const tx = x(t);
    parts.push(
      `<line x1="${tx.toFixed(1)}" x2="${tx.toFixed(1)}" y1="${axisY}" y2="${axisY + 4}" stroke="#555"/>`,
      `<text x="${tx.toFixed(1)}" y="${axisY + 16}" text-anchor="middle" fill="#333">${Math.round(t * 100) / 100}</text>`,
    );
  }
  parts.push(`<text x="4" y="${axisY + 16}" fill="#333">${esc(words.seconds)}</text>`);
  if (lanes < trace.slots) parts.push(`<text x="4" y="${axisY + 32}" fill="#555">${esc(words.lanesShown(lanes, trace.slots))}</text>`);
  parts.push('</svg>');
  return parts.join('');
}
