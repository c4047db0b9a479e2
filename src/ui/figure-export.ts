// Figures for slides: any grpo view as SVG or PNG at a chosen size. Every view exposes figure()
// (its main chart: a canvas or an SVG); a view that can draw itself afresh at a size (the layout
// picture, through its pure painter) also exposes paintFigure(ctx, width, height), which gives a
// vector SVG and a sharp PNG. Otherwise a canvas is scaled into the PNG and wrapped as an
// <image> in the SVG, and an SVG is resized through its viewBox (and rasterised for the PNG).
import { section } from './i18n/index.ts';
import { SvgContext, type PaintContext } from './embed/svg-context.ts';

export type FigureFormat = 'svg' | 'png';

/** What an element offers to the export (the grpo element convention). */
export interface FigureSource {
  figure(): SVGSVGElement | HTMLCanvasElement | null;
  /** Draws the figure itself into a 2D-like context of `width` × `height` px (vector SVG, sharp PNG). */
  paintFigure?(ctx: PaintContext, width: number, height: number): void;
}

/** The export's sentences (the figureExport section of the en/zh catalogues). */
export const MSG = section('figureExport');

export const MAX_SIDE = 8192;

function checkSize(width: number, height: number): void {
  const ok = (n: number) => Number.isInteger(n) && n >= 16 && n <= MAX_SIDE;
  if (!ok(width) || !ok(height)) throw new RangeError(MSG.size);
}

/** The element's figure as a Blob of `format` at exactly `width` × `height` px (aspect kept, centred on white). */
export async function exportFigure(el: FigureSource, format: FigureFormat, width: number, height: number): Promise<Blob> {
  checkSize(width, height);
  if (format === 'svg') return new Blob([svgText(el, width, height)], { type: 'image/svg+xml' });
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  if (el.paintFigure) el.paintFigure(ctx, width, height);
  else await drawFitted(ctx, requireFigure(el), width, height);
  // Whatever a painter cleared to transparent becomes the white of the page.
  ctx.globalCompositeOperation = 'destination-over';
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(MSG.png))), 'image/png'));
}

/** The element's figure as SVG markup of `width` × `height` px. */
export function svgText(el: FigureSource, width: number, height: number): string {
  checkSize(width, height);
  if (el.paintFigure) {
    const ctx = new SvgContext(width, height);
    el.paintFigure(ctx, width, height);
    return ctx.toSvg();
  }
  const fig = requireFigure(el);
  if (fig instanceof HTMLCanvasElement) {
    const { x, y, w, h } = fit(fig.width, fig.height, width, height);
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
      `<rect width="${width}" height="${height}" fill="#fff"/>` +
      `<image href="${fig.toDataURL('image/png')}" x="${x}" y="${y}" width="${w}" height="${h}" preserveAspectRatio="none"/></svg>`
    );
  }
  const copy = fig.cloneNode(true) as SVGSVGElement;
  if (!copy.hasAttribute('viewBox')) {
    const box = fig.getBoundingClientRect();
    copy.setAttribute('viewBox', `0 0 ${box.width || width} ${box.height || height}`);
  }
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  return new XMLSerializer().serializeToString(copy);
}

/** Saves `blob` as a file named `name` (a download in the browser). */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function requireFigure(el: FigureSource): SVGSVGElement | HTMLCanvasElement {
  const fig = el.figure();
  if (!fig) throw new Error(MSG.nothing);
  return fig;
}

const side = (n: number) => Math.max(16, Math.min(MAX_SIDE, Math.round(n)));

/** Where a w0 × h0 picture goes inside w × h, aspect kept and centred. */
function fit(w0: number, h0: number, w: number, h: number): { x: number; y: number; w: number; h: number } {
  const s = Math.min(w / Math.max(1, w0), h / Math.max(1, h0));
  return { x: (w - w0 * s) / 2, y: (h - h0 * s) / 2, w: w0 * s, h: h0 * s };
}

async function drawFitted(
  ctx: CanvasRenderingContext2D,
  fig: SVGSVGElement | HTMLCanvasElement,
  width: number,
  height: number,
): Promise<void> {
  let image: CanvasImageSource = fig as HTMLCanvasElement;
  let w0 = (fig as HTMLCanvasElement).width;
  let h0 = (fig as HTMLCanvasElement).height;
  if (!(fig instanceof HTMLCanvasElement)) {
    // An SVG goes through an <img> (its own size from the viewBox), then onto the canvas.
    const box = fig.getBoundingClientRect();
    w0 = box.width || width;
    h0 = box.height || height;
    const url = URL.createObjectURL(new Blob([svgText({ figure: () => fig }, side(w0), side(h0))], { type: 'image/svg+xml' }));
    try {
      const img = new Image();
      img.src = url;
      await img.decode();
      image = img;
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  const { x, y, w, h } = fit(w0, h0, width, height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, x, y, w, h);
}
