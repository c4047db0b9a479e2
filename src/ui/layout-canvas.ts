// <grpo-layout-canvas>: draws one gather's samples as coloured tiles on a canvas (thousands
// of tiles stay smooth where DOM nodes would not), moving them between the places the scene
// gives each phase. Hover shows a sample's details; click selects its prompt, whose copies
// are then highlighted in every phase. Draws what it is given; computes no layout itself.
import { LitElement, css, html } from 'lit';
import type { Gather, RegroupMethod, RegroupRow } from '../core/layout/types.ts';
import { buildScene, type PhaseGeometry, type Scene } from './scene.ts';
import { advantageColour, textOn } from './palette.ts';
import { phaseIds } from './story.ts';

const MARGIN_LEFT = 96; // px for row labels ("ranks 12–15")
const MARGIN_RIGHT = 12;
const MAX_CELL = 46;
const MIN_CELL = 4;

/** One tile as drawn now, in CSS pixels relative to the viewport (for tests and tooltips). */
export interface TileRect {
  gatheredIndex: number;
  promptId: number;
  rank: number;
  stepIndex: number;
  slot: number;
  x: number;
  y: number;
  w: number;
  h: number;
  highlighted: boolean;
}

const ease = (t: number) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2);

export class LayoutCanvas extends LitElement {
  static override properties = {
    gather: { attribute: false },
    rows: { attribute: false },
    ranks: { type: Number },
    method: { type: String },
    colours: { attribute: false },
    rewards: { attribute: false },
    advantages: { attribute: false },
    highlight: { attribute: false },
  };

  declare gather: Gather | null;
  declare rows: readonly RegroupRow[];
  declare ranks: number;
  declare method: RegroupMethod;
  declare colours: Map<number, string>;
  declare rewards: readonly number[] | null;
  declare advantages: readonly number[] | null;
  /** The selected prompt id (highlighted everywhere), or null. */
  declare highlight: number | null;

  /** Milliseconds spent in each draw (for the frame-time measurement). */
  readonly drawTimes: number[] = [];
  scene: Scene | null = null;
  /** Gathered indices per prompt id, and per advantage shade (advantages rounded to 0.1 in [−2, 2]). */
  private byPrompt = new Map<number, number[]>();
  private byAdvantage = new Map<number, number[]>();
  private phase = 0;
  private progress = 1;
  private hover: number | null = null;
  private cell = 20;
  /** Width of the host (what fits), and of the drawing (wider when even the smallest tiles do not fit: then it scrolls). */
  private cssWidth = 800;
  private drawWidth = 800;
  private resize?: ResizeObserver;

  static override styles = css`
    :host { display: block; position: relative; }
    .scroll { overflow-x: auto; overflow-y: hidden; }
    /* Its own compositor layer: a frame repaints the canvas only, not the page around it. */
    canvas { display: block; cursor: pointer; will-change: transform; }
    canvas:focus-visible { outline: 2px solid #4e79a7; outline-offset: 2px; }
    .tip { position: absolute; pointer-events: none; background: #1d1d1f; color: #fff; font: 12px/1.35 system-ui, sans-serif;
      padding: 4px 8px; border-radius: 4px; white-space: nowrap; z-index: 2; }
    .tip[hidden] { display: none; }
  `;

  constructor() {
    super();
    this.gather = null;
    this.rows = [];
    this.ranks = 1;
    this.method = 'prompt-id';
    this.colours = new Map();
    this.rewards = null;
    this.advantages = null;
    this.highlight = null;
  }

  override render() {
    return html`<div class="scroll"><canvas role="img" tabindex="0" aria-label=${this.ariaText()}
        @mousemove=${this.onMove} @mouseleave=${this.onLeave} @click=${this.onClick}></canvas></div>
      <div class="tip" hidden></div>`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.resize = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]!.contentRect.width);
      if (w > 0 && w !== this.cssWidth) {
        this.cssWidth = w;
        this.rebuild();
      }
    });
    this.resize.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resize?.disconnect();
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('gather') && this.gather) {
      this.byPrompt = new Map();
      this.gather.samples.forEach((s, i) => {
        const list = this.byPrompt.get(s.promptId);
        if (list) list.push(i);
        else this.byPrompt.set(s.promptId, [i]);
      });
    }
    if (changed.has('advantages')) {
      this.byAdvantage = new Map();
      (this.advantages ?? []).forEach((a, i) => {
        const shade = Number.isFinite(a) ? Math.round(Math.max(-2, Math.min(2, a)) * 10) / 10 : Number.NaN;
        const list = this.byAdvantage.get(shade);
        if (list) list.push(i);
        else this.byAdvantage.set(shade, [i]);
      });
    }
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('gather') || changed.has('rows') || changed.has('ranks') || changed.has('method')) this.rebuild();
    else this.draw(this.phase, this.progress);
  }

  /** Shows phase `phase` (index into phaseIds) with movement `progress` in [0, 1] from the previous phase. */
  show(phase: number, progress: number): void {
    this.phase = phase;
    this.progress = progress;
    this.draw(phase, progress);
  }

  /** Every tile's current place and state (what a person sees). */
  tileRects(): TileRect[] {
    const scene = this.scene;
    const canvas = this.canvas;
    if (!scene || !canvas) return [];
    const box = canvas.getBoundingClientRect();
    const out: TileRect[] = [];
    const { x, y } = this.positions(scene);
    scene.samples.forEach((s, i) => {
      out.push({
        gatheredIndex: i,
        promptId: s.promptId,
        rank: s.rank,
        stepIndex: s.stepIndex,
        slot: s.slot,
        x: box.left + MARGIN_LEFT + x[i]! * this.cell,
        y: box.top + this.py(y[i]!),
        w: this.cell,
        h: this.cell,
        highlighted: this.activePrompt() === s.promptId,
      });
    });
    return out;
  }

  /** Height in px of the header line (row 0 in tile units), readable even when tiles are tiny. */
  private get header(): number {
    return Math.max(this.cell, 24);
  }

  /** Tile units → px from the canvas top: row 0 is the header line, rows ≥ 1 are cells. */
  private py(units: number): number {
    return units <= 1 ? units * this.header : this.header + (units - 1) * this.cell;
  }

  private unitY(px: number): number {
    return px <= this.header ? px / this.header : 1 + (px - this.header) / this.cell;
  }

  private get canvas(): HTMLCanvasElement | null {
    return this.renderRoot.querySelector('canvas');
  }

  private ariaText(): string {
    const n = this.gather?.samples.length ?? 0;
    return `${n} samples of the followed gather, phase ${phaseIds[this.phase] ?? ''}`;
  }

  private activePrompt(): number | null {
    return this.hover ?? this.highlight;
  }

  /** Recomputes the cell size and the scene for the current width, then redraws. */
  private rebuild(): void {
    if (!this.gather) {
      this.scene = null;
      this.draw(this.phase, this.progress);
      return;
    }
    // The cell size comes from the scatter grid (the widest picture that must fit unwrapped).
    const stepWidths = new Map<number, number>();
    for (const s of this.gather.samples) stepWidths.set(s.stepIndex, Math.max(stepWidths.get(s.stepIndex) ?? 0, s.slot + 1));
    const gridCols = [...stepWidths.values()].reduce((a, b) => a + b, 0) + stepWidths.size - 1;
    const avail = Math.max(100, this.cssWidth - MARGIN_LEFT - MARGIN_RIGHT);
    this.cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(avail / Math.max(1, gridCols))));
    const budget = Math.max(gridCols, Math.floor(avail / this.cell));
    this.drawWidth = Math.max(this.cssWidth, MARGIN_LEFT + gridCols * this.cell + MARGIN_RIGHT);
    this.scene = buildScene(this.gather, this.rows, this.ranks, budget, this.method);
    this.draw(this.phase, this.progress);
  }

  /** Tile positions (tile units) at the current phase and progress. */
  private positions(scene: Scene): { x: Float32Array; y: Float32Array } {
    const to = scene.phases[phaseIds[this.phase]!];
    if (this.progress >= 1 || this.phase === 0) return to;
    const from = scene.phases[phaseIds[this.phase - 1]!];
    return this.interpolate(from, to, this.progress);
  }

  private interpolate(from: PhaseGeometry, to: PhaseGeometry, progress: number): { x: Float32Array; y: Float32Array } {
    const n = from.x.length;
    const x = new Float32Array(n),
      y = new Float32Array(n);
    const spread = 0.35; // later tiles start later, so the movement reads as a flow, in gathered order
    for (let i = 0; i < n; i++) {
      const local = Math.min(1, Math.max(0, (progress - (spread * i) / Math.max(1, n)) / (1 - spread)));
      const e = ease(local);
      x[i] = from.x[i]! + (to.x[i]! - from.x[i]!) * e;
      y[i] = from.y[i]! + (to.y[i]! - from.y[i]!) * e;
    }
    return { x, y };
  }

  private draw(phase: number, progress: number): void {
    const canvas = this.canvas;
    if (!canvas) return;
    const t0 = performance.now();
    const scene = this.scene;
    const cell = this.cell;
    const dpr = window.devicePixelRatio || 1;
    const cssH = scene ? Math.ceil(this.py(scene.rows + 0.4)) + 4 : 40;
    const cssW = this.drawWidth;
    if (canvas.width !== Math.round(cssW * dpr) || canvas.height !== Math.round(cssH * dpr)) {
      canvas.width = Math.round(cssW * dpr);
      canvas.height = Math.round(cssH * dpr);
      canvas.style.width = `${cssW}px`;
      canvas.style.height = `${cssH}px`;
    }
    // A CPU-backed canvas: thousands of small rects raster faster in Skia's software path than through
    // a GPU emulated in software (SwiftShader on GPU-less machines), and as fast on real GPUs.
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    if (!scene) return;
    const id = phaseIds[phase]!;
    const geo = scene.phases[id];
    const { x, y } = this.positions(scene);
    const active = this.activePrompt();
    const pad = cell >= 12 ? Math.max(1, Math.round(cell * 0.07)) : cell >= 6 ? 0.5 : 0;
    const size = cell - 2 * pad;
    const showAdvantage = this.advantages !== null && (phase > phaseIds.indexOf('advantages') || id === 'advantages');
    const advantageMix = id === 'advantages' ? progress : 1;

    // Group boxes behind the tiles (regroup: fading in with the movement).
    if (geo.boxes.length > 0) {
      ctx.globalAlpha = id === 'regroup' || id === 'gather' ? progress : 1;
      for (const b of geo.boxes) {
        const bx = MARGIN_LEFT + b.x * cell - 2,
          by = this.py(b.y) - 2;
        ctx.lineWidth = b.mixed || b.offSize ? 2.5 : 1;
        ctx.strokeStyle = b.mixed ? '#d62728' : b.offSize ? '#9467bd' : '#b9b9b4';
        if (b.mixed) {
          ctx.fillStyle = 'rgba(214,39,40,0.10)';
          ctx.fillRect(bx, by, b.w * cell + 4, b.h * cell + 4);
        }
        ctx.strokeRect(bx, by, b.w * cell + 4, b.h * cell + 4);
      }
      ctx.globalAlpha = 1;
    }

    const n = scene.samples.length;
    const rect = (i: number, top = 0) => ctx.fillRect(MARGIN_LEFT + x[i]! * cell + pad, this.py(y[i]!) + pad + top, size, size - top);
    // Tiles are filled grouped by style (per prompt, per advantage shade) so a frame costs a few
    // hundred style changes, not one per tile; fillRect stays on the rasteriser's fast path.
    for (const [promptId, members] of this.byPrompt) {
      ctx.fillStyle = this.colours.get(promptId) ?? '#888';
      for (const i of members) rect(i);
    }
    // The advantage fills each tile below a strip of its prompt's colour, so identity stays visible.
    const strip = Math.max(1, Math.round(size * 0.28));
    if (showAdvantage && advantageMix > 0) {
      ctx.globalAlpha = advantageMix;
      for (const [shade, members] of this.byAdvantage) {
        ctx.fillStyle = advantageColour(shade);
        for (const i of members) rect(i, strip);
      }
      ctx.globalAlpha = 1;
    }
    // A highlighted prompt: veil every other tile, outline its copies.
    if (active !== null) {
      ctx.fillStyle = 'rgba(255,255,255,0.82)';
      for (let i = 0; i < n; i++) if (scene.samples[i]!.promptId !== active) rect(i);
      ctx.lineWidth = cell >= 16 ? 2.5 : 1.5;
      ctx.strokeStyle = '#111';
      for (const i of this.byPrompt.get(active) ?? []) {
        ctx.strokeRect(MARGIN_LEFT + x[i]! * cell + pad + 0.5, this.py(y[i]!) + pad + 0.5, size - 1, size - 1);
      }
    }

    // Text only where tiles are big enough to read it (then there are few of them).
    if (cell >= 22) {
      const valueLine = cell >= 34;
      const indexCorner = cell >= 28 && (id === 'gather' || id === 'regroup');
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let i = 0; i < n; i++) {
        const s = scene.samples[i]!;
        const px = MARGIN_LEFT + x[i]! * cell + pad,
          py = this.py(y[i]!) + pad;
        ctx.globalAlpha = active !== null && s.promptId !== active ? 0.3 : 1;
        const colour = this.colours.get(s.promptId) ?? '#888';
        const cx = px + size / 2;
        if (showAdvantage && advantageMix > 0.5 && valueLine) {
          const a = this.advantages![i]!;
          ctx.fillStyle = textOn(advantageColour(a));
          ctx.font = `600 ${Math.round(cell * 0.26)}px system-ui, sans-serif`;
          ctx.fillText(`P${s.promptId}`, cx, py + size * 0.42);
          ctx.font = `${Math.round(cell * 0.24)}px system-ui, sans-serif`;
          ctx.fillText(Number.isFinite(a) ? (a >= 0 ? '+' : '') + a.toFixed(2) : 'NaN', cx, py + size * 0.74);
        } else {
          ctx.fillStyle = textOn(showAdvantage && advantageMix > 0.5 ? advantageColour(this.advantages![i]!) : colour);
          ctx.font = `600 ${Math.round(cell * (String(s.promptId).length > 3 ? 0.26 : 0.32))}px system-ui, sans-serif`;
          ctx.fillText(`P${s.promptId}`, cx, py + size * (indexCorner ? 0.42 : 0.5));
          if (indexCorner) {
            ctx.font = `${Math.round(cell * 0.22)}px system-ui, sans-serif`;
            ctx.fillText(`#${i}`, cx, py + size * 0.78);
          }
        }
      }
    }
    ctx.globalAlpha = 1;

    // Labels of the phase being entered, fading in with the movement.
    ctx.globalAlpha = progress;
    const rowEvery = cell >= 13 ? 1 : Math.ceil(13 / cell);
    let rowCount = 0;
    for (const l of geo.labels) {
      if (l.kind === 'row' && rowCount++ % rowEvery !== 0) continue;
      ctx.textBaseline = 'middle';
      ctx.textAlign = l.align;
      ctx.font =
        l.kind === 'header'
          ? `600 ${Math.max(11, Math.min(14, cell * 0.4))}px system-ui, sans-serif`
          : `${Math.max(10, Math.min(13, cell * 0.36))}px system-ui, sans-serif`;
      ctx.fillStyle = l.kind === 'flag' ? '#c0282d' : l.kind === 'header' ? '#333' : '#555';
      const lx = MARGIN_LEFT + l.x * cell - (l.align === 'right' ? 4 : 0);
      const ly = this.py(l.y);
      ctx.fillText(l.text, lx, ly, l.align === 'right' ? Math.max(20, lx - 2) : undefined);
    }
    ctx.globalAlpha = 1;
    if (this.drawTimes.length < 100_000) this.drawTimes.push(performance.now() - t0);
  }

  private tileAt(ev: MouseEvent): number | null {
    const scene = this.scene,
      canvas = this.canvas;
    if (!scene || !canvas) return null;
    const box = canvas.getBoundingClientRect();
    const cx = (ev.clientX - box.left - MARGIN_LEFT) / this.cell,
      cy = this.unitY(ev.clientY - box.top);
    const { x, y } = this.positions(scene);
    for (let i = 0; i < scene.samples.length; i++) {
      if (cx >= x[i]! && cx < x[i]! + 1 && cy >= y[i]! && cy < y[i]! + 1) return i;
    }
    return null;
  }

  private onMove = (ev: MouseEvent) => {
    const i = this.tileAt(ev);
    const prompt = i === null ? null : this.scene!.samples[i]!.promptId;
    const tip = this.renderRoot.querySelector<HTMLElement>('.tip')!;
    if (i === null) tip.hidden = true;
    else {
      const s = this.scene!.samples[i]!;
      const r = this.rewards?.[i],
        a = this.advantages?.[i];
      tip.textContent =
        `prompt ${s.promptId} · rank ${s.rank} · step ${s.stepIndex} · slot ${s.slot} · gathered #${i}` +
        (r !== undefined ? ` · reward ${r.toFixed(3)}` : '') +
        (a !== undefined ? ` · advantage ${a.toFixed(3)}` : '');
      const host = this.getBoundingClientRect();
      tip.style.left = `${Math.min(ev.clientX - host.left + 12, Math.max(0, host.width - 360))}px`;
      tip.style.top = `${ev.clientY - host.top + 14}px`;
      tip.hidden = false;
    }
    if (prompt !== this.hover) {
      this.hover = prompt;
      this.draw(this.phase, this.progress);
      this.dispatchEvent(new CustomEvent('prompt-hover', { detail: prompt, bubbles: true, composed: true }));
    }
  };

  private onLeave = () => {
    this.renderRoot.querySelector<HTMLElement>('.tip')!.hidden = true;
    if (this.hover !== null) {
      this.hover = null;
      this.draw(this.phase, this.progress);
      this.dispatchEvent(new CustomEvent('prompt-hover', { detail: null, bubbles: true, composed: true }));
    }
  };

  private onClick = (ev: MouseEvent) => {
    const i = this.tileAt(ev);
    const prompt = i === null ? null : this.scene!.samples[i]!.promptId;
    this.dispatchEvent(
      new CustomEvent('prompt-select', { detail: prompt === this.highlight ? null : prompt, bubbles: true, composed: true }),
    );
  };
}
customElements.define('grpo-layout-canvas', LayoutCanvas);
