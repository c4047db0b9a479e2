// <grpo-story-controls>: play / pause, step back and forward, jump to any phase, speed.
// Emits `story` ({action, phase?}) and `speed` (number); the explorer owns the StoryController.
import { LitElement, css, html, nothing } from 'lit';
import { phaseIds, phaseTitles } from './story.ts';
import { speeds } from './url-state.ts';
import { M } from './i18n/index.ts';

export type StoryAction = 'play' | 'pause' | 'forward' | 'back' | 'jump';

export class StoryControls extends LitElement {
  static override properties = {
    phase: { type: Number },
    playing: { type: Boolean },
    speed: { type: Number },
    hiddenParts: { attribute: false },
  };

  declare phase: number;
  declare playing: boolean;
  declare speed: number;
  declare hiddenParts: ReadonlySet<string>;

  static override styles = css`
    :host { display: block; }
    .bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
    button, select { font: inherit; font-size: 13px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 4px 10px; cursor: pointer; }
    button:hover { background: #eef2f7; }
    button:focus-visible, select:focus-visible { outline: 2px solid #4e79a7; outline-offset: 1px; }
    button.play { min-width: 78px; font-weight: 600; }
    ol { list-style: none; display: flex; flex-wrap: wrap; gap: 4px; margin: 0; padding: 0; }
    ol button { border-radius: 14px; padding: 3px 10px; font-size: 12px; color: #444; }
    ol button[aria-current='step'] { background: #1d1d1f; color: #fff; border-color: #1d1d1f; }
    ol button.done { background: #e8ecf2; }
    .speed { margin-left: auto; font-size: 12px; color: #555; display: flex; gap: 4px; align-items: center; }
    .keys { font-size: 11px; color: #595959; margin-top: 4px; }
    /* A touch screen without a keyboard has no use for the keys. */
    @media (hover: none) and (pointer: coarse) { .keys { display: none; } }
  `;

  constructor() {
    super();
    this.phase = 0;
    this.playing = false;
    this.speed = 1;
    this.hiddenParts = new Set();
  }

  private onSpeed = (e: Event) => {
    const detail = Number((e.target as HTMLSelectElement).value);
    this.dispatchEvent(new CustomEvent('speed', { detail, bubbles: true, composed: true }));
  };

  override render() {
    const T = M().controls;
    return html`<div class="bar" role="toolbar" aria-label=${T.toolbar}>
        <button class="back" aria-label=${T.back} title=${T.backTitle} @click=${() => this.act('back')}
          ?disabled=${this.phase === 0}>◀</button>
        <button class="play" aria-label=${this.playing ? T.pause : T.play} title=${T.playTitle}
          @click=${() => this.act(this.playing ? 'pause' : 'play')}>${this.playing ? T.pauseButton : T.playButton}</button>
        <button class="forward" aria-label=${T.forward} title=${T.forwardTitle} @click=${() => this.act('forward')}
          ?disabled=${this.phase === phaseIds.length - 1}>▶▶</button>
        <ol aria-label=${T.phases}>
          ${phaseIds.map(
            (
              id,
              i,
            ) => html`<li><button class=${i < this.phase ? 'done' : ''} data-phase=${id} aria-current=${i === this.phase ? 'step' : 'false'}
            title=${T.jump(phaseTitles[id], i + 1)} @click=${() => this.act('jump', i)}>${i + 1}. ${phaseTitles[id]}</button></li>`,
          )}
        </ol>
        ${
          this.hiddenParts.has('speed')
            ? nothing
            : html`<label class="speed">${T.speed}
          <select aria-label=${T.speed} @change=${this.onSpeed}>
            ${speeds.map((s) => html`<option value=${s} ?selected=${s === this.speed}>${s}×</option>`)}
          </select></label>`
        }
      </div>
      <div class="keys">${T.keys(Math.min(9, phaseIds.length))}</div>`;
  }

  private act(action: StoryAction, phase?: number): void {
    this.dispatchEvent(new CustomEvent('story', { detail: { action, phase }, bubbles: true, composed: true }));
  }
}
customElements.define('grpo-story-controls', StoryControls);
