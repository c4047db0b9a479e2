// <grpo-layout-canvas>: the element around the layout picture — its properties, its size
// (cell size from the host's width), hit-testing for hover and click, and the tooltip. The
// geometry comes from scene.ts, the movement from layout-tween.ts, the pixels from
// layout-painter.ts. Draws what it is given; computes no layout itself.
import { LitElement, css, html } from 'lit';
import type { Gather, RegroupMethod, RegroupRow } from '../core/layout/types.ts';
import { buildScene, type Scene } from './scene.ts';
import { tweenPositions } from './layout-tween.ts';
import { advantageShade, Grid, groupIndices, MARGIN_LEFT, MARGIN_RIGHT, paintFrame } from './layout-painter.ts';
import { phaseIds } from './story.ts';

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
  private byPrompt = new Map<number, number[]>();
  private byAdvantage = new Map<number, number[]>();
  private phase = 0;
  private progress = 1;
  private hover: number | null = null;
  private grid = new Grid(20);
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
    if (changed.has('gather') && this.gather) this.byPrompt = groupIndices(this.gather.samples.map((s) => s.promptId));
    if (changed.has('advantages')) this.byAdvantage = groupIndices((this.advantages ?? []).map(advantageShade));
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('gather') || changed.has('rows') || changed.has('ranks') || changed.has('method')) this.rebuild();
    else this.draw();
  }

  /** Shows phase `phase` (index into phaseIds) with movement `progress` in [0, 1] from the previous phase. */
  show(phase: number, progress: number): void {
    this.phase = phase;
    this.progress = progress;
    this.draw();
  }

  /** Every tile's current place and state (what a person sees). */
  tileRects(): TileRect[] {
    const scene = this.scene;
    const canvas = this.canvas;
    if (!scene || !canvas) return [];
    const box = canvas.getBoundingClientRect();
    const { x, y } = tweenPositions(scene, this.phase, this.progress);
    const active = this.activePrompt();
    const cell = this.grid.cell;
    return scene.samples.map((s, i) => ({
      gatheredIndex: i,
      promptId: s.promptId,
      rank: s.rank,
      stepIndex: s.stepIndex,
      slot: s.slot,
      x: box.left + this.grid.px(x[i]!),
      y: box.top + this.grid.py(y[i]!),
      w: cell,
      h: cell,
      highlighted: active === s.promptId,
    }));
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
      this.draw();
      return;
    }
    // The cell size comes from the scatter grid (the widest picture that must fit unwrapped).
    const stepWidths = new Map<number, number>();
    for (const s of this.gather.samples) stepWidths.set(s.stepIndex, Math.max(stepWidths.get(s.stepIndex) ?? 0, s.slot + 1));
    const gridCols = [...stepWidths.values()].reduce((a, b) => a + b, 0) + stepWidths.size - 1;
    const avail = Math.max(100, this.cssWidth - MARGIN_LEFT - MARGIN_RIGHT);
    const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(avail / Math.max(1, gridCols))));
    this.grid = new Grid(cell);
    const budget = Math.max(gridCols, Math.floor(avail / cell));
    this.drawWidth = Math.max(this.cssWidth, MARGIN_LEFT + gridCols * cell + MARGIN_RIGHT);
    this.scene = buildScene(this.gather, this.rows, this.ranks, budget, this.method);
    this.draw();
  }

  private draw(): void {
    const canvas = this.canvas;
    if (!canvas) return;
    const t0 = performance.now();
    const scene = this.scene;
    const dpr = window.devicePixelRatio || 1;
    const cssH = this.grid.height(scene);
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
    if (!scene) {
      ctx.clearRect(0, 0, cssW, cssH);
      return;
    }
    paintFrame(
      ctx,
      {
        scene,
        grid: this.grid,
        phase: this.phase,
        progress: this.progress,
        positions: tweenPositions(scene, this.phase, this.progress),
        colours: this.colours,
        byPrompt: this.byPrompt,
        byAdvantage: this.byAdvantage,
        advantages: this.advantages,
        active: this.activePrompt(),
      },
      cssW,
      cssH,
    );
    if (this.drawTimes.length < 100_000) this.drawTimes.push(performance.now() - t0);
  }

  /** The gathered index of the tile under a pointer position, or null. */
  private tileAt(ev: MouseEvent): number | null {
    const scene = this.scene;
    const canvas = this.canvas;
    if (!scene || !canvas) return null;
    const box = canvas.getBoundingClientRect();
    const cx = this.grid.unitX(ev.clientX - box.left);
    const cy = this.grid.unitY(ev.clientY - box.top);
    const { x, y } = tweenPositions(scene, this.phase, this.progress);
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
      const r = this.rewards?.[i];
      const a = this.advantages?.[i];
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
      this.draw();
      this.dispatchEvent(new CustomEvent('prompt-hover', { detail: prompt, bubbles: true, composed: true }));
    }
  };

  private onLeave = () => {
    this.renderRoot.querySelector<HTMLElement>('.tip')!.hidden = true;
    if (this.hover !== null) {
      this.hover = null;
      this.draw();
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
