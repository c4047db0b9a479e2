// The picture of <grpo-dynamic> at one step, as one SVG (the element's figure()): the draw's
// gathered groups per rank marked valid or flat, the pool filling towards its target coloured by
// origin rank (this draw's additions outlined) with a key to those colours, and, from the slicing
// step on, each rank's slice coloured by the rank each sample came from (a size off the target in
// the error colour only where it breaks the next gather: the naive slicing).
import { section } from '../i18n/index.ts';
import { html, svg, type TemplateResult } from 'lit';
import type { Sample, StepPlan } from '../../core/dynamic/index.ts';
import { promptColour } from '../palette.ts';
import type { StepTrace } from './dynamic-trace.ts';

/** The figure's words: its section of the en/zh catalogues (src/ui/i18n). */
export const FIG_MSG = section('dynamicFig');

/** Rank r's colour (the explorer's categorical palette). */
export const rankColour = (r: number) => promptColour(r);

const W = 960;
const LEFT = 70;

export function drawLabel(draw: number, plan: StepPlan<Sample>): string {
  return draw === 0 ? FIG_MSG.initial : plan.policy === 'stream' ? FIG_MSG.round(draw) : FIG_MSG.resample(draw);
}

/**
 * The SVG for `step`: 0…draws−1 a draw (its groups; the pool after it), draws the slices
 * (and the train step after it shows the same picture).
 */
export function dynamicSvg(t: StepTrace, step: number): TemplateResult {
  const plan = t.plan;
  const draws = t.draws.length;
  const d = Math.min(step, draws - 1);
  const showSlices = step >= draws;
  const draw = t.draws[d]!;
  const ranks = draw.byRank.length;
  const maxGroups = Math.max(1, ...draw.byRank.map((g) => g.length));
  const gw = Math.min(60, (W - LEFT - 10) / maxGroups);
  const rowH = 20;
  const parts: unknown[] = [];
  let y = 16;
  parts.push(svg`<text x="0" y=${y} class="title">${FIG_MSG.groups(drawLabel(draw.draw, plan))}</text>`);
  y += 8;
  draw.byRank.forEach((groups, r) => {
    const top = y + r * rowH;
    parts.push(svg`<text x=${LEFT - 6} y=${top + 14} text-anchor="end" fill=${rankColour(r)} class="rank">${FIG_MSG.rank(r)}</text>`);
    groups.forEach((g, i) => {
      const x = LEFT + i * gw;
      const text = FIG_MSG.groupTitle(g.group, g.origin, g.rewards, g.valid);
      parts.push(svg`<g class=${g.valid ? 'group valid' : 'group flat'} data-group=${g.group} data-text=${text}><title>${text}</title>
        <rect x=${x + 1} y=${top + 2} width=${gw - 2} height=${rowH - 4} rx="2"></rect>
        ${gw >= 34 ? svg`<text x=${x + gw / 2} y=${top + 14} text-anchor="middle">${g.valid ? FIG_MSG.valid : FIG_MSG.flat}</text>` : null}
      </g>`);
    });
  });
  y += ranks * rowH + 26;

  // The pool: target slots, the samples collected up to this draw coloured by origin rank.
  const target = plan.target;
  const upTo = plan.events[d]!;
  const before = d > 0 ? plan.events[d - 1]!.pool : 0;
  const slot = (W - LEFT - 10) / Math.max(target, upTo.pool);
  const origins = poolOrigins(t, d);
  parts.push(svg`<text x="0" y=${y - 6} class="title">${FIG_MSG.pool(upTo.pool, target)}</text>`);
  parts.push(svg`<rect class="target" x=${LEFT} y=${y} width=${target * slot} height="18"></rect>`);
  origins.forEach((o, i) => {
    parts.push(svg`<rect class=${i >= before ? 'slot new' : 'slot'} x=${LEFT + i * slot} y=${y} width=${Math.max(0.5, slot)} height="18"
      fill=${rankColour(o)}></rect>`);
  });
  if (upTo.pool > before)
    parts.push(svg`<rect class="added" x=${LEFT + before * slot} y=${y} width=${(upTo.pool - before) * slot} height="18"></rect>`);
  parts.push(
    svg`<text x=${LEFT - 6} y=${y + 13} text-anchor="end" class="pool-label" data-pool=${upTo.pool}>${upTo.pool}/${target}</text>`,
  );
  y += 24;
  // The key to the colours of the pool and the slices: one swatch per rank, on a line of their own under the
  // key's words (beside them the swatches began 300 units in, past a phone's screen).
  parts.push(
    svg`<g class="origin-key"><text x=${LEFT} y=${y + 10}>${FIG_MSG.originKey}</text>${Array.from(
      { length: ranks },
      (_, r) => svg`<rect x=${LEFT + r * 76} y=${y + 16} width="12" height="12" fill=${rankColour(r)}></rect>
      <text x=${LEFT + 16 + r * 76} y=${y + 26}>${FIG_MSG.rank(r)}</text>`,
    )}</g>`,
  );
  y += 50;

  if (showSlices) {
    parts.push(svg`<text x="0" y=${y - 6} class="title">${FIG_MSG.slices}</text>`);
    if (plan.slices.length === 0) {
      parts.push(svg`<text x=${LEFT} y=${y + 12} class="note">${FIG_MSG.noSlices}</text>`);
      y += 24;
    }
    const cell = (W - LEFT - 160) / Math.max(1, plan.localTarget, ...plan.slices.map((s) => s.samples.length));
    // Unequal slices are the bug only under the naive slicing (the next gather breaks); rebalance makes them on purpose.
    const broken = plan.policy === 'naive';
    const uneven = plan.slices.some((s) => s.samples.length !== plan.localTarget);
    plan.slices.forEach((s, r) => {
      const top = y + r * rowH;
      const short = s.samples.length !== plan.localTarget;
      const mark = short ? (broken ? 'short' : 'uneven') : '';
      parts.push(svg`<g class="slice" data-rank=${s.rank} data-size=${s.samples.length}>
        <text x=${LEFT - 6} y=${top + 14} text-anchor="end" fill=${rankColour(s.rank)} class="rank">${FIG_MSG.rank(s.rank)}</text>
        <rect class="target" x=${LEFT} y=${top + 2} width=${plan.localTarget * cell} height=${rowH - 4}></rect>
        ${s.samples.map(
          (
            x,
            i,
          ) => svg`<rect x=${LEFT + i * cell} y=${top + 2} width=${Math.max(0.5, cell - 0.5)} height=${rowH - 4} fill=${rankColour(x.origin)}>
            <title>${x.id}: ${FIG_MSG.origin(x.origin)}</title></rect>`,
        )}
        <text x=${LEFT + Math.max(plan.localTarget, s.samples.length) * cell + 8} y=${top + 14} class=${mark}>${FIG_MSG.slice(
          s.from,
          s.to,
          s.source,
        )} ${FIG_MSG.size(s.samples.length, plan.localTarget)}</text>
      </g>`);
    });
    y += plan.slices.length * rowH + 10;
    if (uneven && !broken) {
      parts.push(svg`<text x=${LEFT} y=${y + 6} class="by-design">${FIG_MSG.byDesign}</text>`);
      y += 18;
    }
  }
  const height = y + 6;
  return html`<svg class="dynamic-figure" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width=${W} height=${height} role="img"
      aria-label=${FIG_MSG.aria(drawLabel(draw.draw, plan))}>
    <style>
      text { font: 12px system-ui, sans-serif; fill: #222; } .title { font-weight: 600; } .rank { font-weight: 600; }
      .group.valid rect { fill: #2e7d32; } .group.valid text { fill: #fff; } .group.flat rect { fill: #d5d5d5; } .group.flat text { fill: #555; }
      .target { fill: none; stroke: #999; stroke-dasharray: 3 2; } .added { fill: none; stroke: #000; stroke-width: 2; }
      .short { fill: #b00020; font-weight: 700; } .uneven { font-weight: 700; } .by-design { fill: #555; } .note { fill: #b00020; }
    </style>
    ${parts}
  </svg>`;
}

/** The origin rank of every pooled sample after draw `d`, in pool order (stream: each rank's own kept groups). */
function poolOrigins(t: StepTrace, d: number): number[] {
  const out: number[] = [];
  for (let i = 0; i <= d; i++) {
    if (t.plan.policy === 'stream') {
      t.plan.events[i]!.addedByRank.forEach((n, r) => out.push(...Array.from({ length: n }, () => r)));
      continue;
    }
    // A batched draw adds its valid groups whole, in gathered (rank) order, as the protocol's pool.push does.
    for (const g of t.draws[i]!.byRank.flat()) if (g.valid) out.push(...g.rewards.map(() => g.origin));
  }
  return out;
}
