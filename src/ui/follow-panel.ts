// <grpo-follow-panel>: what the story follows within a layout — which all-gather, how the
// gathered samples are regrouped, where the rewards come from and TRL's reward scaling.
// Emits `follow-change` with the changed part of the explorer's state.
import { LitElement, css, html, nothing } from 'lit';
import { regroupMethods } from '../core/layout/regroup.ts';
import type { Gather, RegroupMethod } from '../core/layout/types.ts';
import type { RewardSource } from '../core/grpo/toy-rewards.ts';
import type { ScaleRewards } from '../core/grpo/advantages.ts';
import type { FrameworkDefault } from '../core/grpo/framework-defaults.ts';
import { scaleOptions, type ExplorerState } from './url-state.ts';
import { M } from './i18n/index.ts';

/** Above this many gathers a number box replaces the list (a select of thousands of options stalls the page). */
const MAX_LISTED = 200;

export type FollowPatch = Partial<Pick<ExplorerState, 'gather' | 'regroup' | 'compare' | 'rewards' | 'scale'>>;

export class FollowPanel extends LitElement {
  static override properties = {
    gathers: { attribute: false },
    gatherIndex: { type: Number },
    regroup: { type: String },
    compare: { attribute: false },
    rewards: { type: String },
    scale: { type: String },
    hiddenParts: { attribute: false },
    framework: { attribute: false },
    does: { attribute: false },
  };

  declare gathers: readonly Gather[];
  declare gatherIndex: number;
  declare regroup: RegroupMethod;
  /** The regrouping shown beside it, or null. */
  declare compare: RegroupMethod | null;
  declare rewards: RewardSource;
  declare scale: ScaleRewards;
  declare hiddenParts: ReadonlySet<string>;
  /** What the sampler's framework does (its regrouping and TRL scale), or null. */
  declare framework: FrameworkDefault | null;
  /** What the framework does, in the page's language (null: the core's English clause). */
  declare does: string | null;

  static override styles = css`
    :host { display: grid; gap: 8px; font-size: 13px; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #666; margin: 0; }
    label { display: grid; gap: 2px; }
    input { font: inherit; font-size: 13px; padding: 3px 6px; border: 1px solid #bbb; border-radius: 4px; width: 100%; min-width: 0; box-sizing: border-box; }
    .whatif { margin: 0; padding: 6px 8px; border-left: 3px solid #b07aa1; background: #f7f0f6; color: #4a2745; font-size: 12px; }
    .whatif button { font: inherit; font-size: 12px; margin-top: 4px; padding: 2px 8px; border: 1px solid #b07aa1; border-radius: 12px; background:
      #fff; color: inherit; cursor: pointer; }
    select { font: inherit; font-size: 13px; padding: 3px 6px; border: 1px solid #bbb; border-radius: 4px; background: #fff; width: 100%; min-width: 0; }
  `;

  constructor() {
    super();
    this.gathers = [];
    this.gatherIndex = 0;
    this.regroup = 'prompt-id';
    this.compare = null;
    this.rewards = 'random';
    this.scale = 'group';
    this.hiddenParts = new Set();
    this.framework = null;
    this.does = null;
  }

  override render() {
    const hide = (name: string) => this.hiddenParts.has(name);
    const fw = this.framework;
    const value = (e: Event) => (e.target as HTMLSelectElement | HTMLInputElement).value;
    const T = M().follow;
    // Option text short enough for the settings column (the full label is the option's title).
    const shortLabel = T.short;
    const long = (m: { method: RegroupMethod; label: string }) => M().core.regroup[m.method] ?? m.label;
    const does = (f: FrameworkDefault) => this.does ?? f.does;
    return html`<h2>${T.title}</h2>
      ${
        hide('gather') || this.gathers.length < 2
          ? nothing
          : this.gathers.length > MAX_LISTED
            ? html`<label>${T.gatherRange(this.gathers.length)}
        <input id="gather" type="number" min="1" max=${this.gathers.length} .value=${String(this.gatherIndex + 1)}
          @change=${(e: Event) => this.emit({ gather: Math.min(this.gathers.length, Math.max(1, Math.trunc(Number(value(e))) || 1)) - 1 })} /></label>`
            : html`<label>${T.gather}
        <select id="gather" @change=${(e: Event) => this.emit({ gather: Number(value(e)) })}>
          ${this.gathers.map(
            (g, i) =>
              html`<option value=${i} ?selected=${i === this.gatherIndex}>${T.gatherOption(i + 1, g.epoch, g.stepIndices)}</option>`,
          )}
        </select></label>`
      }
      ${
        hide('regroup')
          ? nothing
          : html`<label>${T.regroup}
        <select id="regroup" @change=${(e: Event) => this.emit({ regroup: value(e) as RegroupMethod })}>
          ${regroupMethods.map(
            (m) =>
              html`<option value=${m.method} title=${long(m)} ?selected=${m.method === this.regroup}>${shortLabel[m.method]}${
                m.method === fw?.regroup ? ' ✓' : ''
              }</option>`,
          )}
        </select></label>
        ${
          fw && fw.regroup !== this.regroup
            ? html`<p class="whatif" role="note"><strong>${T.whatIfLead}</strong>${T.whatIf(fw.framework, does(fw))}
          <button type="button" class="use-default" @click=${() => this.emit({ regroup: fw.regroup, scale: fw.scale })}>${T.useDefault(
            fw.framework,
          )}</button></p>`
            : nothing
        }`
      }
      ${
        hide('compare')
          ? nothing
          : html`<label>${T.compare}
        <select id="compare" @change=${(e: Event) => this.emit({ compare: value(e) === '' ? null : (value(e) as RegroupMethod) })}>
          <option value="" ?selected=${this.compare === null}>${T.nothing}</option>
          ${regroupMethods
            .filter((m) => m.method !== this.regroup)
            .map(
              (m) =>
                html`<option value=${m.method} title=${long(m)} ?selected=${m.method === this.compare}>${shortLabel[m.method]}</option>`,
            )}
        </select></label>`
      }
      ${
        hide('rewards')
          ? nothing
          : html`<label>${T.rewards}
        <select id="rewards" @change=${(e: Event) => this.emit({ rewards: value(e) as RewardSource })}>
          <option value="random" ?selected=${this.rewards === 'random'}>${T.random}</option>
          <option value="model" ?selected=${this.rewards === 'model'}>${T.model}</option>
        </select></label>`
      }
      ${
        hide('scale') || this.regroup !== 'view'
          ? nothing
          : html`<label>${T.scale}
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
