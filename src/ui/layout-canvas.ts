// <grpo-layout-canvas>: the element around the layout picture — its properties, its size
// (cell size from the host's width), hit-testing for hover, click and tap, the tooltip, and
// keyboard access (arrow keys move a cursor between tiles, Enter pins the cursor's prompt, the
// cursor's tile is read out through a live region). The
// geometry comes from scene.ts, the movement from layout-tween.ts, the pixels from
// layout-painter.ts. Draws what it is given; computes no layout itself.
import { LitElement, css, html, nothing } from 'lit';
import type { Gather, RegroupMethod, RegroupRow } from '../core/layout/types.ts';
import { buildScene, LABELLED_GROUPS_MAX, type Scene } from './scene.ts';
import { ease, type Positions, tweenPositions } from './layout-tween.ts';
import {
  advantageShade,
  colouredByAdvantage,
  Grid,
  groupIndices,
  MARGIN_LEFT,
  MARGIN_LEFT_NARROW,
  MARGIN_RIGHT,
  paintFrame,
} from './layout-painter.ts';
import { phaseIds, phaseTitles } from './story.ts';
import { advantageColour } from './palette.ts';
import { cssZoomOf } from './projector.ts';
import { lang, M } from './i18n/index.ts';
import { ScrollHint, scrollHintStyles } from './scroll-hint.ts';

/** The largest tile at zoom 1 (CSS px); `zoom` multiplies it, for a projector. */
const MAX_CELL = 46;
const MIN_CELL = 4;
/** Tallest drawing in CSS px: tiles shrink (down to MIN_CELL) so many rows still fit a few screens. */
const MAX_HEIGHT = 4096;
/** Pixels kept right of the widest group for its flag ("size 8 ≠ k", "✗ mixes …") where a group has one. */
const FLAG_ROOM = 90;
/** The same on a picture under NARROW px ("size 8 ≠ k" at 11 px), and the width below which the picture keeps narrower margins. */
const FLAG_ROOM_NARROW = 56;
const NARROW = 480;
/** The most prompts the colour key lists (the palette's distinct hues; more would not be told apart by colour anyway). */
const KEY_PROMPTS_MAX = 12;

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
  /** Says when the drawing is wider than the page (the smallest tiles do not fit: it scrolls). */
  readonly scrollHint = new ScrollHint(this, '.scroll');
  static override properties = {
    gather: { attribute: false },
    rows: { attribute: false },
    ranks: { type: Number },
    method: { type: String },
    colours: { attribute: false },
    rewards: { attribute: false },
    advantages: { attribute: false },
    highlight: { attribute: false },
    zoom: { type: Number },
    peerRows: { attribute: false },
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
  /** Picture size for a projector: tiles up to zoom × MAX_CELL (1 = normal). */
  declare zoom: number;
  /**
   * The rows of a picture drawn beside this one (compare side by side), or empty: the tile size is fitted to
   * both pictures' widest group, so the pair is drawn at one scale.
   */
  declare peerRows: readonly RegroupRow[];

  /** Milliseconds spent in each draw (for the frame-time measurement). */
  readonly drawTimes: number[] = [];
  scene: Scene | null = null;
  private byPrompt = new Map<number, number[]>();
  private byAdvantage = new Map<number, number[]>();
  private phase = 0;
  private progress = 1;
  private hover: number | null = null;
  /** The keyboard cursor (a gathered index), or null. */
  private cursor: number | null = null;
  /** How the last pointer went down: a touch tap pins the tooltip until the next tap. */
  private pointerType = 'mouse';
  private grid = new Grid(20);
  /** Width of the host (what fits), and of the drawing (wider when even the smallest tiles do not fit: then it scrolls). */
  private cssWidth = 800;
  private drawWidth = 800;
  /** Whether cssWidth is the host's measured width (the ResizeObserver's first report may come after the first draw). */
  private measured = false;
  private resize?: ResizeObserver;

  static override styles = [
    scrollHintStyles,
    css`
    :host { display: block; position: relative; }
    .scroll { overflow-x: auto; overflow-y: hidden; }
    /* Shows as much of the drawing as the phase on screen fills (draw() sets its height each frame). */
    .clip { width: max-content; overflow: hidden; }
    /* Its own compositor layer: a frame repaints the canvas only, not the page around it. */
    canvas { display: block; cursor: pointer; will-change: transform; }
    canvas:focus-visible { outline: 2px solid #4e79a7; outline-offset: 2px; }
    .tip { position: absolute; pointer-events: none; background: #1d1d1f; color: #fff; font: 12px/1.35 system-ui, sans-serif;
      padding: 4px 8px; border-radius: 4px; max-width: calc(100% - 8px); box-sizing: border-box; z-index: 2; }
    .tip[hidden] { display: none; }
    .key { display: flex; flex-wrap: wrap; gap: 2px 10px; align-items: center; margin: 6px 0 0; font: 13px/1.4 system-ui, sans-serif; color: #444; }
    /* Out of sight, not out of the layout: the picture below and around it never moves between phases. */
    .key.off { visibility: hidden; }
    /* The prompt key and the advantage key share one cell: the picture above never moves when one replaces the other. */
    .keys { display: grid; }
    .keys > .key { grid-area: 1 / 1; }
    .key span { display: inline-flex; align-items: center; gap: 4px; }
    .key i { width: 14px; height: 14px; border-radius: 2px; display: inline-block; }
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  `,
  ];

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
    this.peerRows = [];
  }

  override render() {
    return html`<div class="scroll"><div class="clip"><canvas role="img" tabindex="0" aria-label=${this.ariaText()} aria-describedby="cursor"
        @mousemove=${this.onMove} @mouseleave=${this.onLeave} @click=${this.onClick} @keydown=${this.onKeyDown}
        @pointerdown=${this.onPointer} @pointermove=${this.onPointer} @blur=${this.onBlur}></canvas></div></div>
      <div class="keys">${this.colourKey()}${this.advantageKey()}</div>
      <div class="tip" hidden></div><div class="sr" id="cursor" aria-live="polite"></div>`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.resize = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]!.contentRect.width);
      if (w > 0 && w !== this.cssWidth) {
        this.measured = true;
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
    if (
      changed.has('gather') ||
      changed.has('rows') ||
      changed.has('ranks') ||
      changed.has('method') ||
      changed.has('zoom') ||
      changed.has('peerRows')
    )
      this.rebuild();
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

  /**
   * The key to the prompts' colours (a few prompts only), shown while the tiles are coloured by prompt: on a
   * phone the tiles are too small for their P-labels, so colour alone told the prompts apart.
   */
  private colourKey() {
    if (this.colours.size === 0 || this.colours.size > KEY_PROMPTS_MAX) return nothing;
    const ids = [...this.colours.keys()].sort((a, b) => a - b);
    return html`<p class=${this.keyHidden() ? 'key off' : 'key'}>${M().canvas.colourKey}
      ${ids.map((id) => html`<span><i style="background:${this.colours.get(id)}"></i>P${id}</span>`)}</p>`;
  }

  /**
   * The key to the advantage colours, shown while the tiles are coloured by advantage (the phase that is
   * about them and after): the scale's values, and this gather's lowest and highest, readable without a tap.
   */
  private advantageKey() {
    const a = (this.advantages ?? []).filter((x) => Number.isFinite(x));
    if (a.length === 0) return nothing;
    const fmt = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '') + Math.abs(x).toFixed(2);
    return html`<p class=${this.keyHidden() ? 'key advantage-key' : 'key advantage-key off'}>${M().canvas.advantageKey}
      ${[-2, -1, 0, 1, 2].map((v) => html`<span><i style="background:${advantageColour(v)}"></i>${fmt(v).replace('.00', '')}</span>`)}
      <span class="range">${M().canvas.advantageRange(fmt(Math.min(...a)), fmt(Math.max(...a)))}</span></p>`;
  }

  private keyHidden(): boolean {
    return colouredByAdvantage(this.phase, this.advantages !== null);
  }

  private get canvas(): HTMLCanvasElement | null {
    return this.renderRoot.querySelector('canvas');
  }

  private ariaText(): string {
    const n = this.gather?.samples.length ?? 0;
    const id = phaseIds[this.phase];
    // English keeps the phase's URL id (as before the catalogues); other languages say its title.
    return M().canvas.aria(n, lang() === 'en' ? (id ?? '') : id ? phaseTitles[id] : '');
  }

  /** A tile in words: where it sits, plus reward and advantage once the story has computed them. */
  tileText(i: number): string {
    const s = this.scene!.samples[i]!;
    const scored = this.phase >= phaseIds.indexOf('advantages');
    const r = scored ? this.rewards?.[i] : undefined;
    const a = scored ? this.advantages?.[i] : undefined;
    return (
      M().canvas.tile(s.promptId, s.rank, s.stepIndex, s.slot, i) +
      (r !== undefined ? M().canvas.reward(r.toFixed(3)) : '') +
      (a !== undefined ? M().canvas.advantage(a.toFixed(3)) : '')
    );
  }

  /** Shows the tooltip for tile i near (x, y), client pixels, kept inside the element. */
  private showTip(i: number, x: number, y: number): void {
    const tip = this.renderRoot.querySelector<HTMLElement>('.tip')!;
    tip.textContent = this.tileText(i);
    tip.hidden = false;
    const host = this.getBoundingClientRect();
    const left = Math.max(0, Math.min(x - host.left + 12, host.width - tip.offsetWidth - 4));
    tip.style.left = `${left}px`;
    tip.style.top = `${y - host.top + 14}px`;
  }

  private hideTip(): void {
    this.renderRoot.querySelector<HTMLElement>('.tip')!.hidden = true;
  }

  /** The prompt under the pointer or cursor changed: redraw and tell the page. */
  private setHover(prompt: number | null): void {
    if (prompt === this.hover) return;
    this.hover = prompt;
    this.draw();
    this.dispatchEvent(new CustomEvent('prompt-hover', { detail: prompt, bubbles: true, composed: true }));
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
    // The first picture is built for the width it gets, not built twice (a guess now, the real width when the observer reports).
    if (!this.measured) {
      const w = Math.floor(this.getBoundingClientRect().width);
      if (w > 0) [this.cssWidth, this.measured] = [w, true];
    }
    // The cell size comes from the widest lines that must fit unwrapped: the scatter grid, and a group of the
    // regroup phase (one line, its flag after it; a group of 2k was cut off on a phone and in the article's pair).
    const stepWidths = new Map<number, number>();
    for (const s of this.gather.samples) stepWidths.set(s.stepIndex, Math.max(stepWidths.get(s.stepIndex) ?? 0, s.slot + 1));
    const gridCols = [...stepWidths.values()].reduce((a, b) => a + b, 0) + stepWidths.size - 1;
    const both = [this.rows, this.peerRows ?? []];
    const widestGroup = Math.max(0, ...both.flat().map((r) => r.members.length));
    // On a phone the margins are narrower, so seed-000's groups of 2k get tiles large enough for their labels (28 px, not 18).
    const narrow = this.cssWidth < NARROW;
    const left = narrow ? MARGIN_LEFT_NARROW : MARGIN_LEFT;
    const flagged = both.some((rows) => rows.length <= LABELLED_GROUPS_MAX && rows.some((r) => r.mixed || r.offSize));
    const flagRoom = flagged ? (narrow ? FLAG_ROOM_NARROW : FLAG_ROOM) : 0;
    const avail = Math.max(100, this.cssWidth - left - MARGIN_RIGHT);
    let cell = Math.max(
      MIN_CELL,
      Math.min(
        Math.round(MAX_CELL * (this.zoom || 1)),
        Math.floor(avail / Math.max(1, gridCols)),
        Math.floor(Math.max(0, avail - flagRoom) / Math.max(1, widestGroup)),
      ),
    );
    // Fit in both directions: when the tallest phase would not fit MAX_HEIGHT, smaller tiles (and
    // so more of them per wrapped line) until it does or the tiles reach their smallest size.
    for (let attempt = 0; attempt < 3; attempt++) {
      this.grid = new Grid(cell, left);
      const budget = Math.max(gridCols, Math.floor(avail / cell));
      this.drawWidth = Math.max(this.cssWidth, left + Math.max(gridCols * cell, widestGroup * cell + flagRoom) + MARGIN_RIGHT);
      this.scene = buildScene(this.gather, this.rows, this.ranks, budget, this.method);
      const height = this.grid.height(this.scene);
      if (height <= MAX_HEIGHT || cell === MIN_CELL) break;
      cell = Math.max(MIN_CELL, Math.floor((cell * MAX_HEIGHT) / height));
    }
    this.draw();
  }

  private draw(): void {
    const canvas = this.canvas;
    if (!canvas) return;
    const t0 = performance.now();
    // A phase change draws without a Lit render: the key follows what the tiles' colours mean here.
    const key = this.renderRoot.querySelector<HTMLElement>('.key:not(.advantage-key)');
    key?.classList.toggle('off', this.keyHidden());
    this.renderRoot.querySelector<HTMLElement>('.advantage-key')?.classList.toggle('off', !this.keyHidden());
    const scene = this.scene;
    // Projector mode zooms the page: the canvas's pixels follow, so its tiles and labels stay sharp (projector.ts).
    const dpr = (window.devicePixelRatio || 1) * cssZoomOf(this);
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
      this.showHeight(cssH);
      ctx.clearRect(0, 0, cssW, cssH);
      return;
    }
    const positions = tweenPositions(scene, this.phase, this.progress);
    this.showHeight(this.grid.heightOf(this.shownRows(scene, positions)));
    paintFrame(
      ctx,
      {
        scene,
        grid: this.grid,
        phase: this.phase,
        progress: this.progress,
        positions,
        colours: this.colours,
        byPrompt: this.byPrompt,
        byAdvantage: this.byAdvantage,
        advantages: this.advantages,
        active: this.activePrompt(),
        cursor: this.cursor,
      },
      cssW,
      cssH,
    );
    if (this.drawTimes.length === 0) performance.mark('grpo-first-draw');
    if (this.drawTimes.length < 100_000) this.drawTimes.push(performance.now() - t0);
  }

  /**
   * How many rows of the drawing are shown: at rest, the phase's own (no blank under a short phase's
   * picture); while the tiles move, enough for the lowest tile and for an eased blend of the two phases'
   * extents, so the height follows the tiles frame by frame and what is under the picture glides with them
   * instead of jumping. The drawing itself stays as tall as the tallest phase (never reallocated mid-story).
   */
  private shownRows(scene: Scene, positions: Positions): number {
    const to = scene.phaseRows[phaseIds[this.phase]!];
    if (this.progress >= 1 || this.phase === 0) return to;
    const from = scene.phaseRows[phaseIds[this.phase - 1]!];
    let lowest = 0;
    for (const y of positions.y) lowest = Math.max(lowest, y + 1);
    return Math.max(lowest, from + (to - from) * ease(this.progress));
  }

  /** Sets the shown height of the drawing (CSS px), only when it changes (a change lays the page out again). */
  private showHeight(px: number): void {
    const clip = this.renderRoot.querySelector<HTMLElement>('.clip');
    const h = `${Math.ceil(px)}px`;
    if (clip && clip.style.height !== h) clip.style.height = h;
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
    if (this.pointerType === 'touch') return; // a tap's emulated mouse events: onClick handles taps
    const i = this.tileAt(ev);
    if (i === null) this.hideTip();
    else this.showTip(i, ev.clientX, ev.clientY);
    this.setHover(i === null ? null : this.scene!.samples[i]!.promptId);
  };

  private onLeave = () => {
    if (this.pointerType === 'touch') return;
    this.hideTip();
    this.setHover(null);
  };

  private onClick = (ev: MouseEvent) => {
    const i = this.tileAt(ev);
    const prompt = i === null ? null : this.scene!.samples[i]!.promptId;
    const next = prompt === this.highlight ? null : prompt;
    if (this.pointerType === 'touch') {
      // Tap-to-pin: the tooltip stays with the selected prompt's tile; tapping it again, or
      // tapping beside the tiles, dismisses both.
      if (i === null || next === null) this.hideTip();
      else this.showTip(i, ev.clientX, ev.clientY);
    }
    this.dispatchEvent(new CustomEvent('prompt-select', { detail: next, bubbles: true, composed: true }));
  };

  private onPointer = (e: PointerEvent) => {
    this.pointerType = e.pointerType;
  };

  private onBlur = () => {
    if (this.cursor === null) return;
    this.cursor = null;
    this.hideTip();
    this.setHover(null);
  };

  /** Arrow keys move the cursor to the nearest tile in that direction; Enter pins its prompt. */
  private onKeyDown = (ev: KeyboardEvent) => {
    const scene = this.scene;
    if (!scene || scene.samples.length === 0 || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const dirs: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const dir = dirs[ev.key];
    if (ev.key === 'Enter' && this.cursor !== null) {
      const prompt = scene.samples[this.cursor]!.promptId;
      this.dispatchEvent(
        new CustomEvent('prompt-select', { detail: prompt === this.highlight ? null : prompt, bubbles: true, composed: true }),
      );
    } else if (dir) {
      this.cursor = this.nextTile(this.cursor, dir);
      const { x, y } = tweenPositions(scene, this.phase, this.progress);
      const box = this.canvas!.getBoundingClientRect();
      const i = this.cursor;
      this.showTip(i, box.left + this.grid.px(x[i]! + 1), box.top + this.grid.py(y[i]!));
      this.renderRoot.querySelector('#cursor')!.textContent = this.tileText(i);
      this.setHover(scene.samples[i]!.promptId);
      this.draw();
    } else return;
    // The story's shortcuts (keyboard-controller.ts) must not also act on these keys.
    ev.preventDefault();
    ev.stopPropagation();
  };

  /** The tile nearest to `from` in direction `dir` (or the first tile in reading order). */
  private nextTile(from: number | null, dir: [number, number]): number {
    const { x, y } = tweenPositions(this.scene!, this.phase, this.progress);
    const n = x.length;
    if (from === null) {
      let best = 0;
      for (let i = 1; i < n; i++) if (y[i]! < y[best]! || (y[i] === y[best] && x[i]! < x[best]!)) best = i;
      return best;
    }
    let best = from;
    let bestScore = Number.POSITIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const along = (x[i]! - x[from]!) * dir[0] + (y[i]! - y[from]!) * dir[1];
      if (along < 0.5) continue;
      const across = Math.abs((x[i]! - x[from]!) * dir[1]) + Math.abs((y[i]! - y[from]!) * dir[0]);
      const score = along + 3 * across;
      if (score < bestScore) {
        bestScore = score;
        best = i;
      }
    }
    return best;
  }
}
customElements.define('grpo-layout-canvas', LayoutCanvas);
