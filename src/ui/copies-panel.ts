// <grpo-copies-panel>: the highlighted prompt and where each of its copies is — rank, step,
// slot before the gather, gathered index after it, and (from the advantages phase on, once the
// story has computed them) its reward and advantage when the copy is in the followed gather.
// A number box lets the keyboard pick a prompt (emits `prompt-select`).
import { LitElement, css, html, nothing } from 'lit';
import type { CopyPlace, Gather } from '../core/layout/types.ts';

import { M } from './i18n/index.ts';

export class CopiesPanel extends LitElement {
  static override properties = {
    prompt: { attribute: false },
    copies: { attribute: false },
    gathers: { attribute: false },
    gatherIndex: { type: Number },
    rewards: { attribute: false },
    advantages: { attribute: false },
    colour: { type: String },
    scored: { type: Boolean },
  };

  declare prompt: number | null;
  declare copies: readonly CopyPlace[];
  declare gathers: readonly Gather[];
  declare gatherIndex: number;
  declare rewards: readonly number[];
  declare advantages: readonly number[] | null;
  declare colour: string;
  /** Whether the story has reached the advantages: before that, rewards and advantages do not exist yet and are not shown. */
  declare scored: boolean;

  static override styles = css`
    :host { display: block; font-size: 13px; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #666; margin: 0 0 8px; }
    .pick { display: flex; gap: 6px; align-items: center; margin-bottom: 8px; }
    input { width: 80px; font: inherit; padding: 3px 6px; border: 1px solid #bbb; border-radius: 4px; }
    button { font: inherit; font-size: 12px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 3px 8px; cursor: pointer; }
    .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; vertical-align: -1px; margin-right: 4px; }
    table { border-collapse: collapse; font-variant-numeric: tabular-nums; width: 100%; }
    th, td { text-align: right; padding: 2px 6px; border-bottom: 1px solid #e4e4e0; }
    th { color: #666; font-weight: 500; font-size: 12px; }
    tr.other { color: #666; }
    p { color: #666; margin: 4px 0; }
  `;

  constructor() {
    super();
    this.prompt = null;
    this.copies = [];
    this.gathers = [];
    this.gatherIndex = 0;
    this.rewards = [];
    this.advantages = null;
    this.colour = '#888';
    this.scored = false;
  }

  override render() {
    const followed = this.gathers[this.gatherIndex];
    const inFollowed = (c: CopyPlace) => followed?.stepIndices.includes(c.stepIndex) ?? false;
    const gatherOf = (c: CopyPlace) => this.gathers.findIndex((g) => g.stepIndices.includes(c.stepIndex));
    const T = M().copies;
    return html`<h2>${T.title}</h2>
      <div class="pick">
        <label>${T.promptId} <input type="number" min="0" step="1" aria-label=${T.highlight} .value=${this.prompt === null ? '' : String(this.prompt)}
          @change=${this.onPick} /></label>
        ${this.prompt !== null ? html`<button @click=${() => this.select(null)}>${T.clear}</button>` : nothing}
      </div>
      ${
        this.prompt === null
          ? html`<p>${T.hint}</p>`
          : this.copies.length === 0
            ? html`<p>${T.notDrawn(this.prompt)}</p>`
            : html`<p><span class="swatch" style="background:${this.colour}"></span>${T.summary(
                this.prompt,
                this.copies.length,
                this.copies.filter(inFollowed).length,
              )}</p>
            <table>
              <thead><tr>${T.head.map((h) => html`<th>${h}</th>`)}${
                this.scored ? html`<th>${T.reward}</th><th>${T.advantage}</th>` : nothing
              }</tr></thead>
              <tbody>${this.copies.map((c) => {
                const here = inFollowed(c);
                const a = here ? this.advantages?.[c.gatheredIndex] : undefined;
                return html`<tr class=${here ? 'copy' : 'copy other'} data-rank=${c.rank} data-step=${c.stepIndex} data-slot=${c.slot}
                  data-gathered=${c.gatheredIndex}>
                  <td>${c.stepIndex}</td><td>${c.rank}</td><td>${c.slot}</td><td>${gatherOf(c) + 1}</td><td>${c.gatheredIndex}</td>${
                    this.scored
                      ? html`<td>${here ? this.rewards[c.gatheredIndex]!.toFixed(3) : '·'}</td><td>${a !== undefined ? a.toFixed(3) : '·'}</td>`
                      : nothing
                  }</tr>`;
              })}</tbody>
            </table>`
      }`;
  }

  private onPick = (ev: Event) => {
    const v = (ev.target as HTMLInputElement).value.trim();
    const n = Number(v);
    this.select(v === '' || !Number.isInteger(n) || n < 0 ? null : n);
  };

  private select(prompt: number | null): void {
    this.dispatchEvent(new CustomEvent('prompt-select', { detail: prompt, bubbles: true, composed: true }));
  }
}
customElements.define('grpo-copies-panel', CopiesPanel);
