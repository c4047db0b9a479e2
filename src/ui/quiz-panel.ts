// <grpo-quiz>: "predict, then reveal" before the scatter moves the tiles: which ranks will hold
// the copies of one prompt? The reader toggles ranks, then reveals; the answer (given by the
// explorer from the core's gather) is compared with the guess. Emits `quiz-reveal`.
import { LitElement, css, html } from 'lit';

export class QuizPanel extends LitElement {
  static override properties = {
    prompt: { type: Number },
    ranks: { type: Number },
    answer: { attribute: false },
    revealed: { type: Boolean },
    picked: { state: true },
  };

  declare prompt: number;
  declare ranks: number;
  /** Ranks holding copies of the prompt in the followed gather, with how many copies each. */
  declare answer: ReadonlyMap<number, number>;
  declare revealed: boolean;
  declare picked: ReadonlySet<number>;

  static override styles = css`
    :host { display: block; font-size: 14px; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #595959; margin: 0 0 6px; }
    .ranks { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0; }
    button { font: inherit; font-size: 13px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 3px 9px; cursor: pointer; }
    button[aria-pressed='true'] { background: #1d1d1f; color: #fff; border-color: #1d1d1f; }
    button.hit { outline: 2px solid #59a14f; outline-offset: 1px; }
    button.reveal { font-weight: 600; }
    .result { margin: 6px 0 0; }
  `;

  constructor() {
    super();
    this.prompt = 0;
    this.ranks = 1;
    this.answer = new Map();
    this.revealed = false;
    this.picked = new Set();
  }

  override render() {
    const hits = [...this.picked].filter((r) => this.answer.has(r)).length;
    const misses = this.picked.size - hits;
    const list = [...this.answer.entries()].sort((a, b) => a[0] - b[0]);
    return html`<h2>Predict, then reveal</h2>
      <p>Which ranks will hold the copies of <strong>P${this.prompt}</strong> after the scatter? Pick ranks, then reveal.</p>
      <div class="ranks" role="group" aria-label="ranks">
        ${Array.from(
          { length: this.ranks },
          (_, r) => html`<button type="button" class=${this.revealed && this.answer.has(r) ? 'hit' : ''} aria-pressed=${this.picked.has(r)}
            ?disabled=${this.revealed} @click=${() => this.toggle(r)}>rank ${r}</button>`,
        )}
      </div>
      ${
        this.revealed
          ? html`<p class="result" role="status">P${this.prompt}'s copies are on ${list
              .map(([r, n]) => `rank ${r}${n > 1 ? ` (${n} copies)` : ''}`)
              .join(', ')}.
            You picked ${hits} of those ${list.length} rank${list.length === 1 ? '' : 's'}${misses > 0 ? ` and ${misses} that hold none` : ''}.</p>`
          : html`<button type="button" class="reveal" @click=${this.reveal}>reveal</button>`
      }`;
  }

  private toggle(r: number): void {
    const next = new Set(this.picked);
    if (next.has(r)) next.delete(r);
    else next.add(r);
    this.picked = next;
  }

  private reveal = () => {
    this.dispatchEvent(new CustomEvent('quiz-reveal', { bubbles: true, composed: true }));
  };
}
customElements.define('grpo-quiz', QuizPanel);
