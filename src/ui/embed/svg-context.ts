// A 2D-context look-alike that records what the layout painter (layout-painter.ts) draws as SVG
// markup: rectangles and text, each with the fill, stroke, alpha and font in effect. Only the
// calls the painter makes exist here (PaintContext lists them; the type keeps the two in step),
// so a slide figure is the same frame, in vectors, not a screenshot of the canvas.

/** The part of CanvasRenderingContext2D that paintFrame and the figure layout use. */
export type PaintContext = Pick<
  CanvasRenderingContext2D,
  | 'clearRect'
  | 'fillRect'
  | 'strokeRect'
  | 'fillText'
  | 'save'
  | 'restore'
  | 'translate'
  | 'scale'
  | 'globalAlpha'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'font'
  | 'textAlign'
  | 'textBaseline'
>;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (n: number) => String(Math.round(n * 100) / 100);

interface State {
  globalAlpha: number;
  fillStyle: string;
  strokeStyle: string;
  lineWidth: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  tx: number;
  ty: number;
  sx: number;
  sy: number;
}

export class SvgContext {
  globalAlpha = 1;
  fillStyle: string | CanvasGradient | CanvasPattern = '#000';
  strokeStyle: string | CanvasGradient | CanvasPattern = '#000';
  lineWidth = 1;
  font = '10px sans-serif';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  private tx = 0;
  private ty = 0;
  private sx = 1;
  private sy = 1;
  private readonly stack: State[] = [];
  private parts: string[] = [];

  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  save(): void {
    const { globalAlpha, lineWidth, font, textAlign, textBaseline, tx, ty, sx, sy } = this;
    this.stack.push({
      globalAlpha,
      fillStyle: this.colour(this.fillStyle),
      strokeStyle: this.colour(this.strokeStyle),
      lineWidth,
      font,
      textAlign,
      textBaseline,
      tx,
      ty,
      sx,
      sy,
    });
  }

  restore(): void {
    const s = this.stack.pop();
    if (s) Object.assign(this, s);
  }

  translate(x: number, y: number): void {
    this.tx += x * this.sx;
    this.ty += y * this.sy;
  }

  scale(x: number, y: number): void {
    this.sx *= x;
    this.sy *= y;
  }

  /** Clearing the whole figure drops what was drawn; a partial clear paints the area white (the figure's background). */
  clearRect(x: number, y: number, w: number, h: number): void {
    if (this.tx === 0 && this.ty === 0 && this.sx === 1 && this.sy === 1 && x <= 0 && y <= 0 && x + w >= this.width && y + h >= this.height)
      this.parts = [];
    else this.parts.push(`<rect ${this.box(x, y, w, h)} fill="#fff"/>`);
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    this.parts.push(`<rect ${this.box(x, y, w, h)} fill="${esc(this.colour(this.fillStyle))}"${this.alpha()}/>`);
  }

  strokeRect(x: number, y: number, w: number, h: number): void {
    this.parts.push(
      `<rect ${this.box(x, y, w, h)} fill="none" stroke="${esc(this.colour(this.strokeStyle))}" ` +
        `stroke-width="${num(this.lineWidth * this.sx)}"${this.alpha()}/>`,
    );
  }

  fillText(text: string, x: number, y: number, maxWidth?: number): void {
    const anchor = this.textAlign === 'center' ? 'middle' : this.textAlign === 'right' || this.textAlign === 'end' ? 'end' : 'start';
    const baseline = this.textBaseline === 'middle' ? 'central' : this.textBaseline === 'top' ? 'hanging' : 'auto';
    const font = this.scaledFont();
    // maxWidth: the canvas squeezes the text to fit; SVG has no measure here, so it is clipped by length instead.
    const squeeze =
      maxWidth !== undefined && text.length * fontPx(font) * 0.55 > maxWidth * this.sx
        ? ` textLength="${num(maxWidth * this.sx)}" lengthAdjust="spacingAndGlyphs"`
        : '';
    this.parts.push(
      `<text x="${num(this.tx + x * this.sx)}" y="${num(this.ty + y * this.sy)}" fill="${esc(this.colour(this.fillStyle))}" text-anchor="${anchor}" ` +
        `dominant-baseline="${baseline}" style="font: ${esc(font)}"${squeeze}${this.alpha()}>${esc(text)}</text>`,
    );
  }

  /** The recorded drawing as one SVG document of `width` × `height` (px) showing the `viewWidth` × `viewHeight` area. */
  toSvg(width = this.width, height = this.height, viewWidth = this.width, viewHeight = this.height): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(viewWidth)} ${num(viewHeight)}">` +
      `<rect x="0" y="0" width="${num(viewWidth)}" height="${num(viewHeight)}" fill="#fff"/>${this.parts.join('')}</svg>`
    );
  }

  private box(x: number, y: number, w: number, h: number): string {
    const [px, py] = [this.tx + x * this.sx, this.ty + y * this.sy];
    return `x="${num(px)}" y="${num(py)}" width="${num(Math.max(0, w * this.sx))}" height="${num(Math.max(0, h * this.sy))}"`;
  }

  private alpha(): string {
    return this.globalAlpha < 1 ? ` opacity="${num(this.globalAlpha)}"` : '';
  }

  private colour(c: string | CanvasGradient | CanvasPattern): string {
    return typeof c === 'string' ? c : '#000';
  }

  /** The font with its pixel size scaled like the coordinates. */
  private scaledFont(): string {
    return this.sx === 1 ? this.font : this.font.replace(/(\d+(?:\.\d+)?)px/, (_, px) => `${num(Number(px) * this.sx)}px`);
  }
}

function fontPx(font: string): number {
  return Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 10);
}
