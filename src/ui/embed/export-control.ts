// <grpo-figure-export>: a figure size and two buttons (SVG, PNG) that save the `target` view's
// figure through figure-export.ts. Any grpo view can place one next to its picture.
import { section } from '../i18n/index.ts';
import { LitElement, css, html } from 'lit';
import { download, exportFigure, type FigureFormat, type FigureSource } from '../figure-export.ts';

const MSG = section('exportControl');

export class FigureExportControl extends LitElement {
  static override properties = {
    target: { attribute: false },
    name: { type: String },
    width: { type: Number },
    height: { type: Number },
    status: { state: true },
  };

  declare target: FigureSource | null;
  /** File name without extension. */
  declare name: string;
  declare width: number;
  declare height: number;
  declare status: string;

  static override styles = css`
    :host { display: block; font-size: 12px; color: #333; }
    form { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
    input { width: 5.5em; font: inherit; padding: 2px 4px; }
    button { font: inherit; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 2px 10px; cursor: pointer; }
    .status { color: #595959; }
    .status.error { color: #8b1a1a; }
  `;

  constructor() {
    super();
    this.target = null;
    this.name = 'grpo-figure';
    this.width = 1600;
    this.height = 900;
    this.status = '';
  }

  override render() {
    return html`<form @submit=${(e: Event) => e.preventDefault()}>
      <span>${MSG.label}:</span>
      <label>${MSG.width} <input class="width" type="number" min="16" max="8192" .value=${String(this.width)}
        @change=${(e: Event) => (this.width = Number((e.target as HTMLInputElement).value))} /></label>
      <label>${MSG.height} <input class="height" type="number" min="16" max="8192" .value=${String(this.height)}
        @change=${(e: Event) => (this.height = Number((e.target as HTMLInputElement).value))} /></label>
      <button type="button" class="svg" @click=${() => this.save('svg')}>SVG</button>
      <button type="button" class="png" @click=${() => this.save('png')}>PNG</button>
      <span class="status" role="status">${this.status}</span>
    </form>`;
  }

  private async save(format: FigureFormat): Promise<void> {
    if (!this.target) return;
    const file = `${this.name}-${this.width}x${this.height}.${format}`;
    try {
      download(await exportFigure(this.target, format, this.width, this.height), file);
      this.status = MSG.saved(file);
      this.renderRoot.querySelector('.status')?.classList.remove('error');
    } catch (e) {
      this.status = (e as Error).message;
      this.renderRoot.querySelector('.status')?.classList.add('error');
    }
  }
}
customElements.define('grpo-figure-export', FigureExportControl);
