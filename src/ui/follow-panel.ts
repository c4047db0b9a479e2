// <grpo-follow-panel>: what the story follows within a layout — which all-gather, how the
// gathered samples are regrouped, where the rewards come from and TRL's reward scaling.
// Emits `follow-change` with the changed part of the explorer's state.
import { LitElement, css, html, nothing } from 'lit';
import { regroupMethods } from '../core/layout/regroup.ts';
import type { Gather, RegroupMethod } from '../core/layout/types.ts';
import type { RewardSource } from '../core/grpo/toy-rewards.ts';
import type { ScaleRewards } from '../core/grpo/advantages.ts';
import { scaleOptions, type ExplorerState } from './url-state.ts';

export type FollowPatch = Partial<Pick<ExplorerState, 'gather' | 'regroup' | 'rewards' | 'scale'>>;

export class FollowPanel extends LitElement {
  static override properties = {
    gathers: { attribute: false },
    gatherIndex: { type: Number },
    regroup: { type: String },
    rewards: { type: String },
    scale: { type: String },
    hiddenParts: { attribute: false },
  };

  declare gathers: readonly Gather[];
  declare gatherIndex: number;
  declare regroup: RegroupMethod;
  declare rewards: RewardSource;
  declare scale: ScaleRewards;
  declare hiddenParts: ReadonlySet<string>;

  static override styles = css`
    :host { display: grid; gap: 8px; font-size: 13px; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #666; margin: 0; }
    label { display: grid; gap: 2px; }
    select { font: inherit; font-size: 13px; padding: 3px 6px; border: 1px solid #bbb; border-radius: 4px; background: #fff; width: 100%; min-width: 0; }
  `;

  constructor() {
    super();
    this.gathers = [];
    this.gatherIndex = 0;
    this.regroup = 'prompt-id';
    this.rewards = 'random';
    this.scale = 'group';
    this.hiddenParts = new Set();
  }

  override render() {
    const hide = (name: string) => this.hiddenParts.has(name);
    const value = (e: Event) => (e.target as HTMLSelectElement).value;
    return html`<h2>What to follow</h2>
      ${
        hide('gather') || this.gathers.length < 2
          ? nothing
          : html`<label>gather
        <select id="gather" @change=${(e: Event) => this.emit({ gather: Number(value(e)) })}>
          ${this.gathers.map((g, i) => html`<option value=${i} ?selected=${i === this.gatherIndex}>${i + 1}: epoch ${g.epoch}${g.stepIndices.length === 1 ? `, step ${g.stepIndices[0]}` : `, steps ${g.stepIndices[0]}–${g.stepIndices.at(-1)}`}</option>`)}
        </select></label>`
      }
      ${
        hide('regroup')
          ? nothing
          : html`<label>regroup after the gather
        <select id="regroup" @change=${(e: Event) => this.emit({ regroup: value(e) as RegroupMethod })}>
          ${regroupMethods.map((m) => html`<option value=${m.method} ?selected=${m.method === this.regroup}>${m.label}</option>`)}
        </select></label>`
      }
      ${
        hide('rewards')
          ? nothing
          : html`<label>rewards
        <select id="rewards" @change=${(e: Event) => this.emit({ rewards: value(e) as RewardSource })}>
          <option value="random" ?selected=${this.rewards === 'random'}>random (seeded uniform)</option>
          <option value="model" ?selected=${this.rewards === 'model'}>toy reward model (pass / fail)</option>
        </select></label>`
      }
      ${
        hide('scale') || this.regroup !== 'view'
          ? nothing
          : html`<label>TRL scale_rewards
        <select id="scale" @change=${(e: Event) => this.emit({ scale: value(e) as ScaleRewards })}>
          ${scaleOptions.map((o) => html`<option value=${o} ?selected=${o === this.scale}>${o}</option>`)}
        </select></label>`
      }`;
  }

  private emit(patch: FollowPatch): void {
    this.dispatchEvent(new CustomEvent<FollowPatch>('follow-change', { detail: patch, bubbles: true, composed: true }));
  }
}
customElements.define('grpo-follow-panel', FollowPanel);
