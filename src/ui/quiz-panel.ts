// <grpo-quiz>: "predict, then reveal" before a phase moves the tiles. Shows one question of
// quiz.ts (which ranks will hold a prompt's copies, can a rank compute a group's mean alone, at
// which gathered positions will the copies sit), takes the reader's guess — rank buttons, yes /
// no, or typed numbers — and after the reveal compares it with the answer the explorer read
// from the core's gather. Emits `quiz-reveal`.
import { LitElement, css, html, nothing } from 'lit';
import { M } from './i18n/index.ts';
import { MAX_RANK_BUTTONS, parseNumbers, quizKey, quizQuestion, quizResult, type Quiz, type QuizGuess } from './quiz.ts';

export class QuizPanel extends LitElement {
  static override properties = {
    quiz: { attribute: false },
    revealed: { type: Boolean },
    guess: { state: true },
  };

  declare quiz: Quiz | null;
  declare revealed: boolean;
  declare guess: QuizGuess | null;
  private key = '';

  static override styles = css`
    :host { display: block; font-size: 14px; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #595959; margin: 0 0 6px; }
    .choices { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0; }
    button { font: inherit; font-size: 13px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 3px 9px; cursor: pointer; }
    button[aria-pressed='true'] { background: #1d1d1f; color: #fff; border-color: #1d1d1f; }
    button.hit { outline: 2px solid #3b7a33; outline-offset: 1px; }
    button.reveal { font-weight: 600; }
    input { font: inherit; font-size: 13px; padding: 3px 6px; border: 1px solid #bbb; border-radius: 4px; width: min(260px, 100%); box-sizing: border-box; }
    .result { margin: 6px 0 0; }
  `;

  constructor() {
    super();
    this.quiz = null;
    this.revealed = false;
    this.guess = null;
  }

  override willUpdate(): void {
    // A new question (another phase, gather or layout) starts with no guess.
    const key = this.quiz ? quizKey(this.quiz) : '';
    if (key !== this.key) {
      this.key = key;
      this.guess = null;
    }
  }

  override render() {
    const q = this.quiz;
    if (!q) return nothing;
    return html`<h2>${M().quiz.title}</h2>
      <p class="question">${quizQuestion(q)}</p>
      ${this.renderChoices(q)}
      ${
        this.revealed
          ? html`<p class="result" role="status">${quizResult(q, this.guess)}</p>`
          : html`<button type="button" class="reveal" @click=${this.reveal}>${M().quiz.reveal}</button>`
      }`;
  }

  private renderChoices(q: Quiz) {
    const numbers = this.guess && 'numbers' in this.guess ? this.guess.numbers : new Set<number>();
    const T = M().quiz;
    if (q.kind === 'ranks' && q.ranks <= MAX_RANK_BUTTONS)
      return html`<div class="choices" role="group" aria-label=${T.ranks}>
        ${Array.from(
          { length: q.ranks },
          (_, r) => html`<button type="button" class=${this.revealed && q.answer.has(r) ? 'hit' : ''} aria-pressed=${numbers.has(r)}
            ?disabled=${this.revealed} @click=${() => this.toggle(r)}>${T.rank(r)}</button>`,
        )}
      </div>`;
    if (q.kind === 'yes-no') {
      const yes = this.guess && 'yes' in this.guess ? this.guess.yes : null;
      return html`<div class="choices" role="group" aria-label=${T.answer}>
        ${[true, false].map(
          (v) => html`<button type="button" class=${this.revealed && q.answer === v ? 'hit' : ''} aria-pressed=${yes === v}
            ?disabled=${this.revealed} @click=${() => {
              this.guess = { yes: v };
            }}>${v ? T.yes : T.no}</button>`,
        )}
      </div>`;
    }
    const label = q.kind === 'ranks' ? T.ranks : T.positions;
    return html`<div class="choices"><input type="text" inputmode="numeric" aria-label=${label} placeholder=${T.placeholder}
      ?disabled=${this.revealed} @input=${(e: Event) => {
        this.guess = { numbers: parseNumbers((e.target as HTMLInputElement).value) };
      }} /></div>`;
  }

  private toggle(r: number): void {
    const next = new Set(this.guess && 'numbers' in this.guess ? this.guess.numbers : []);
    if (next.has(r)) next.delete(r);
    else next.add(r);
    this.guess = { numbers: next };
  }

  private reveal = () => {
    this.dispatchEvent(new CustomEvent('quiz-reveal', { bubbles: true, composed: true }));
  };
}
customElements.define('grpo-quiz', QuizPanel);
