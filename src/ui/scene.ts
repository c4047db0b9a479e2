// Where each sample's tile sits in every phase of the story, in tile units (one tile = one
// cell; the canvas scales cells to pixels). Pure geometry over the core's data: the gather's
// samples (rank, step, slot, gathered order) and the regrouped rows. Nothing here decides
// which sample goes where in the training run — it only lays out what the core says.
import type { Gather, RegroupMethod, RegroupRow } from '../core/layout/types.ts';
import { section } from './i18n/index.ts';
import { phaseIds, type PhaseId } from './story.ts';

/** The picture's headings and row labels (the en/zh catalogues' `scene` section). */
const S = section('scene');

export interface SceneLabel {
  /** Position in tile units; y is the row's centre line. */
  x: number;
  y: number;
  text: string;
  align: 'left' | 'right' | 'center';
  /** `flag`: a group that mixes prompts (wrong advantages, the error colour); `note`: a group of another size than k (its box's colour). */
  kind: 'header' | 'row' | 'flag' | 'note';
}

/** A regrouped row drawn as a box around its members (regroup and advantages phases). */
export interface GroupBox {
  /** Index of the regrouped row, or -1 for a rank's segment of the gathered order. */
  row: number;
  x: number;
  y: number;
  w: number;
  h: number;
  mixed: boolean;
  offSize: boolean;
}

export interface PhaseGeometry {
  /** x[i], y[i]: top-left cell of the tile of gathered sample i. */
  x: Float32Array;
  y: Float32Array;
  labels: SceneLabel[];
  boxes: GroupBox[];
}

export interface Scene {
  /** Samples in gathered order (tile i = gatheredIndex i). */
  samples: Gather['samples'];
  phases: Record<PhaseId, PhaseGeometry>;
  /** Extent in tile units over all phases (the canvas's drawing size: it is never reallocated mid-story). */
  cols: number;
  rows: number;
  /** Each phase's own extent in rows (tiles, group boxes and labels): what is shown of the drawing at rest in that phase. */
  phaseRows: Record<PhaseId, number>;
  /** Which regrouped row each sample belongs to. */
  rowOf: Int32Array;
}

function geometry(n: number): PhaseGeometry {
  return { x: new Float32Array(n), y: new Float32Array(n), labels: [], boxes: [] };
}

/** Short label of a regrouped row's key for the given method. */
export function rowLabel(method: RegroupMethod, row: RegroupRow): string {
  const key = row.key;
  if (method === 'prompt-id') return `P${row.promptIds[0]}`;
  if (method === 'view') return `row ${key}`;
  if (method === 'local') return key.replace(/^r(\d+):(\d+)$/, 'rank $1 · $2');
  return key.length > 10 ? `${key.slice(0, 9)}…` : key;
}

/** Most groups the regroup phase gives a labelled line each (with a flag after a mixed or odd-sized one); more go in a grid. */
export const LABELLED_GROUPS_MAX = 32;

/**
 * Lays out one gather for every phase. `ranks`: world size; `budget`: how many tile columns
 * fit the canvas (wide rows wrap within it); `method`: how `rows` were regrouped.
 */
export function buildScene(gather: Gather, rows: readonly RegroupRow[], ranks: number, budget: number, method: RegroupMethod): Scene {
  const samples = gather.samples;
  const n = samples.length;
  const steps = gather.stepIndices;
  const stepPos = new Map(steps.map((s, i) => [s, i]));
  // Slots per rank in each step of the gather (equal on every rank for every sampler).
  const width = steps.map(() => 0);
  for (const s of samples) {
    const p = stepPos.get(s.stepIndex)!;
    width[p] = Math.max(width[p]!, s.slot + 1);
  }
  const gridCol: number[] = []; // first column of each step block in the scatter grid (1-column gaps)
  const concatCol: number[] = []; // first column of each step in a rank's concatenation (no gaps)
  let g = 0,
    c = 0;
  for (const w of width) {
    gridCol.push(g);
    concatCol.push(c);
    g += w + 1;
    c += w;
  }
  const perRank = Math.max(1, Math.ceil(n / ranks));

  const phases = Object.fromEntries(phaseIds.map((id) => [id, geometry(n)])) as Record<PhaseId, PhaseGeometry>;

  // sample: each step's samples with a prompt's copies side by side, filling the step's block row by row.
  {
    const ph = phases.sample;
    const byStep = steps.map(() => [] as number[]);
    for (let i = 0; i < n; i++) byStep[stepPos.get(samples[i]!.stepIndex)!]!.push(i);
    byStep.forEach((members, p) => {
      const first = new Map<number, number>();
      members.forEach((i, order) => {
        const id = samples[i]!.promptId;
        if (!first.has(id)) first.set(id, order);
      });
      const sorted = [...members].sort((a, b) => first.get(samples[a]!.promptId)! - first.get(samples[b]!.promptId)! || a - b);
      sorted.forEach((i, j) => {
        ph.x[i] = gridCol[p]! + (j % width[p]!);
        ph.y[i] = 1 + Math.floor(j / width[p]!);
      });
      ph.labels.push({ x: gridCol[p]! + width[p]! / 2, y: 0.5, text: S.step(steps[p]!), align: 'center', kind: 'header' });
    });
  }
  // scatter: rank r, slot s of each step's block.
  {
    const ph = phases.scatter;
    samples.forEach((s, i) => {
      const p = stepPos.get(s.stepIndex)!;
      ph.x[i] = gridCol[p]! + s.slot;
      ph.y[i] = 1 + s.rank;
    });
    steps.forEach((s, p) => ph.labels.push({ x: gridCol[p]! + width[p]! / 2, y: 0.5, text: S.step(s), align: 'center', kind: 'header' }));
    for (let r = 0; r < ranks; r++) ph.labels.push({ x: -0.3, y: 1.5 + r, text: S.rank(r), align: 'right', kind: 'row' });
  }
  // accumulate: each rank's batches concatenated in step order.
  {
    const ph = phases.accumulate;
    samples.forEach((s, i) => {
      const p = stepPos.get(s.stepIndex)!;
      ph.x[i] = concatCol[p]! + s.slot;
      ph.y[i] = 1 + s.rank;
    });
    ph.labels.push({
      x: 0,
      y: 0.5,
      text: S.concatenated(steps.length, perRank),
      align: 'left',
      kind: 'header',
    });
    for (let r = 0; r < ranks; r++) ph.labels.push({ x: -0.3, y: 1.5 + r, text: S.rank(r), align: 'right', kind: 'row' });
  }
  // gather: one rank-major line, wrapped at whole ranks when it does not fit.
  const lineWidth = n <= budget ? n : perRank <= budget ? Math.floor(budget / perRank) * perRank : budget;
  {
    const ph = phases.gather;
    for (let i = 0; i < n; i++) {
      ph.x[i] = i % lineWidth;
      ph.y[i] = 1 + Math.floor(i / lineWidth);
    }
    if (lineWidth >= perRank) {
      // A light box around each rank's segment shows where one rank's samples end in the gathered order.
      const ranksPerLine = Math.floor(lineWidth / perRank);
      for (let r = 0; r < ranks; r++) {
        const start = r * perRank;
        const line = Math.floor(start / lineWidth);
        ph.boxes.push({ row: -1, x: start % lineWidth, y: 1 + line, w: perRank, h: 1, mixed: false, offSize: false });
        if (lineWidth === n)
          ph.labels.push({ x: (start % lineWidth) + perRank / 2, y: 0.5, text: S.rank(r), align: 'center', kind: 'header' });
        else if (start % lineWidth === 0) {
          const last = Math.min(ranks - 1, r + ranksPerLine - 1);
          ph.labels.push({ x: -0.3, y: 1.5 + line, text: last === r ? `rank ${r}` : `ranks ${r}–${last}`, align: 'right', kind: 'row' });
        }
      }
      if (lineWidth !== n) ph.labels.push({ x: 0, y: 0.5, text: S.gathered(n), align: 'left', kind: 'header' });
    }
  }
  // regroup and advantages: one row per group when few, else a grid of group cells.
  const rowOf = new Int32Array(n).fill(-1);
  {
    const ph = phases.regroup;
    const widest = rows.reduce((m, r) => Math.max(m, r.members.length), 1);
    // One labelled line per group when there are few, or when only one group would fit a line anyway.
    const oneRowEach = rows.length <= LABELLED_GROUPS_MAX && (widest + 6 <= budget || Math.floor((budget + 1) / (widest + 1)) <= 1);
    const cellW = widest + 1;
    const perLine = oneRowEach ? 1 : Math.max(1, Math.floor((budget + 1) / cellW));
    rows.forEach((row, ri) => {
      const bx = oneRowEach ? 0 : (ri % perLine) * cellW;
      const by = 1 + (oneRowEach ? ri : Math.floor(ri / perLine));
      row.members.forEach((gi, j) => {
        ph.x[gi] = bx + j;
        ph.y[gi] = by;
        rowOf[gi] = ri;
      });
      ph.boxes.push({ row: ri, x: bx, y: by, w: row.members.length, h: 1, mixed: row.mixed, offSize: row.offSize });
      if (oneRowEach) {
        ph.labels.push({ x: -0.3, y: by + 0.5, text: rowLabel(method, row), align: 'right', kind: 'row' });
        if (row.mixed)
          ph.labels.push({
            x: widest + 0.6,
            y: by + 0.5,
            text: S.mixes([...new Set(row.promptIds)].map((p) => `P${p}`).join(' ')),
            align: 'left',
            kind: 'flag',
          });
        else if (row.offSize)
          ph.labels.push({ x: widest + 0.6, y: by + 0.5, text: S.size(row.members.length), align: 'left', kind: 'note' });
      }
    });
    ph.labels.push({ x: 0, y: 0.5, text: S.groups(rows.length), align: 'left', kind: 'header' });
    phases.advantages.x.set(ph.x);
    phases.advantages.y.set(ph.y);
    phases.advantages.boxes = ph.boxes;
    phases.advantages.labels = ph.labels.filter((l) => l.kind !== 'header');
    phases.advantages.labels.push({ x: 0, y: 0.5, text: S.advantage, align: 'left', kind: 'header' });
  }
  // slice: rank r takes gathered[r·n, (r+1)·n): back to the accumulate rows.
  {
    const ph = phases.slice;
    for (let i = 0; i < n; i++) {
      ph.x[i] = i % perRank;
      ph.y[i] = 1 + Math.floor(i / perRank);
    }
    ph.labels.push({ x: 0, y: 0.5, text: S.slice(perRank), align: 'left', kind: 'header' });
    for (let r = 0; r < ranks; r++) ph.labels.push({ x: -0.3, y: 1.5 + r, text: S.rank(r), align: 'right', kind: 'row' });
  }

  let cols = 1,
    rowsUsed = 1;
  const phaseRows = {} as Record<PhaseId, number>;
  for (const id of phaseIds) {
    const ph = phases[id];
    let own = 1;
    for (let i = 0; i < n; i++) {
      cols = Math.max(cols, ph.x[i]! + 1);
      own = Math.max(own, ph.y[i]! + 1);
    }
    for (const b of ph.boxes) own = Math.max(own, b.y + b.h);
    for (const l of ph.labels) own = Math.max(own, l.y + 0.5);
    phaseRows[id] = own;
    rowsUsed = Math.max(rowsUsed, own);
  }
  return { samples, phases, cols, rows: rowsUsed, phaseRows, rowOf };
}
