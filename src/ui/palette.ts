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

type Rgb = [number, number, number];

const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const hexOf = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
const toward = (c: Rgb, target: number, t: number): Rgb => c.map((v) => v + (target - v) * t) as Rgb;

/**
 * Ids 12 apart share a hue, so each hue comes in three lightnesses, taken by ⌊id / 12⌋ mod 3:
 * the hue itself, darker (35 % toward black), lighter (50 % toward white). P6 and P18, which
 * sit side by side in seed-000, are then purple and dark purple; the same hue and lightness
 * come back only 36 ids apart. (Measured: every pair of the 36 colours differs by ΔE*ab ≥ 8,
 * each hue's three lightnesses by ≥ 14, neighbouring ids by ≥ 13.)
 */
const shades: readonly (readonly string[])[] = [
  categorical,
  categorical.map((h) => hexOf(toward(rgbOf(h), 0, 0.35))),
  categorical.map((h) => hexOf(toward(rgbOf(h), 255, 0.5))),
];

/** How many distinct prompt colours there are (ids this far apart share one). */
export const promptColourCount = categorical.length * shades.length;

/**
 * A colour per prompt id, the same in every view and under every sampler: prompt p takes hue
 * p mod 12 of the categorical palette in lightness ⌊p / 12⌋ mod 3, so prompts with neighbouring
 * ids, or ids 12 or 24 apart, never share a colour, and a prompt keeps its colour when the
 * sampler (and so the set of prompts on screen) changes.
 */
export function promptColour(promptId: number): string {
  const n = categorical.length;
  const hue = ((promptId % n) + n) % n;
  const band = ((Math.floor(promptId / n) % shades.length) + shades.length) % shades.length;
  return shades[band]![hue]!;
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

/** WCAG 2 relative luminance of an sRGB colour (0 = black, 1 = white). */
export function relativeLuminance(c: Rgb): number {
  const lin = (v: number) => {
    const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
}

/** WCAG 2 contrast ratio of two CSS colours (#rrggbb or rgb(r g b)), 1 … 21. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(parseColour(a));
  const lb = relativeLuminance(parseColour(b));
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** #rrggbb or rgb(r g b) as numbers; anything else is taken as mid grey (#888, what the page draws for an unknown prompt). */
function parseColour(css: string): Rgb {
  if (/^#[0-9a-f]{6}$/i.test(css)) return rgbOf(css);
  if (/^#[0-9a-f]{3}$/i.test(css)) return rgbOf(`#${[...css.slice(1)].map((d) => d + d).join('')}`);
  const rgb = /^rgb\((\d+)[ ,]+(\d+)[ ,]+(\d+)\)$/.exec(css);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  return [136, 136, 136];
}

/**
 * The label colour for text on `fill`: near-black #111 or white, whichever has the higher WCAG
 * contrast ratio. A luma threshold picked white on mid greens and reds (3.2 : 1); this compares
 * the real ratios. Where neither reaches AA's 4.5 : 1 (mid-luminance fills: #111 is a little
 * lighter than black) it takes pure black, which then always does: white falls short only on fills
 * of relative luminance above 0.18, where black's ratio is above 4.6 : 1.
 */
export function textOn(fill: string): string {
  const dark = contrastRatio(fill, '#111111');
  const light = contrastRatio(fill, '#ffffff');
  if (Math.max(dark, light) >= 4.5) return dark >= light ? '#111' : '#fff';
  return '#000';
}
