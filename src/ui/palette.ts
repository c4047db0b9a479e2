// Colours: each prompt keeps one colour in every phase; advantages use a diverging
// blue–white–orange scale (readable with the common colour-vision deficiencies).

// Twelve well-separated hues (Tableau's), ordered so that consecutive entries differ in hue
// (blue, orange, green, red, teal, yellow, purple, pink, brown, light blue, magenta, light green).
const categorical = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#a0cbe8',
  '#d37295',
  '#8cd17d',
];

/**
 * A colour per prompt id, the same in every view and under every sampler: prompt p takes hue
 * p mod 12 of the categorical palette, so prompts with neighbouring ids never share a colour and
 * a prompt keeps its colour when the sampler (and so the set of prompts on screen) changes.
 */
export function promptColour(promptId: number): string {
  return categorical[((promptId % categorical.length) + categorical.length) % categorical.length]!;
}

/** The colour of each distinct prompt id given (see promptColour). */
export function promptColours(promptIds: Iterable<number>): Map<number, string> {
  const out = new Map<number, string>();
  for (const id of promptIds) if (!out.has(id)) out.set(id, promptColour(id));
  return out;
}

function mix(a: [number, number, number], b: [number, number, number], t: number): string {
  const c = a.map((v, i) => Math.round(v + (b[i]! - v) * t));
  return `rgb(${c[0]} ${c[1]} ${c[2]})`;
}

const negative: [number, number, number] = [33, 102, 172];
const neutral: [number, number, number] = [247, 247, 247];
const positive: [number, number, number] = [214, 96, 14];

/** Colour of an advantage value: white at 0, saturating at |a| = 2. */
export function advantageColour(a: number): string {
  if (!Number.isFinite(a)) return '#999';
  const t = Math.min(1, Math.abs(a) / 2);
  return a < 0 ? mix(neutral, negative, t) : mix(neutral, positive, t);
}

/** Black or white text, whichever reads on the given CSS colour's lightness estimate. */
export function textOn(fill: string): string {
  const m = /^#([0-9a-f]{6})$/i.exec(fill);
  if (m) {
    const v = parseInt(m[1]!, 16);
    const l = 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
    return l > 150 ? '#111' : '#fff';
  }
  const hsl = /hsl\([^ ]+ [^ ]+ (\d+)%\)/.exec(fill);
  if (hsl) return Number(hsl[1]) > 60 ? '#111' : '#fff';
  const rgb = /rgb\((\d+) (\d+) (\d+)\)/.exec(fill);
  if (rgb) return 0.299 * Number(rgb[1]) + 0.587 * Number(rgb[2]) + 0.114 * Number(rgb[3]) > 150 ? '#111' : '#fff';
  return '#111';
}
