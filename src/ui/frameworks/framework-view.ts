// <grpo-framework> (`?view=framework&framework=nemo-rl&…`): one of the frameworks that have a home
// (src/core/frameworks/), read as `grpo-sandbox layout --sampler NAME` reads it: the picker lists the
// registry, the form is the home's keys (labelled by the framework's own names, with its shipped
// defaults), its presets are buttons, and a pasted config is read in the framework's own format by the
// CLI's one reader (framework-model.ts). Then the layout as ranks × steps of tiles labelled by prompt,
// a prompt's copies lit on hover or tap, and one step's micro-batches as token-length bars where the
// framework packs, with its packing switch. The framework's counts, warnings and notes follow as written.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { TokenBudget } from '../../core/frameworks/budget.ts';
import { FRAMEWORK_HOMES } from '../../core/frameworks/index.ts';
import type { FrameworkKey } from '../../core/frameworks/types.ts';
import { coreOriginal, type Said, saidOf, withCoreMessage } from '../core-text.ts';
import { lang, section } from '../i18n/index.ts';
import { ElementWidth } from '../element-width.ts';
import { ScrollHint, scrollHintStyles } from '../scroll-hint.ts';
import {
  copiesOf,
  FRAMEWORK_ATTRIBUTES,
  type FrameworkPicture,
  type FrameworkRequest,
  frameworkPicture,
  frameworkRequest,
  PASTED,
  packingSwitches,
  promptOfSample,
  SHOWN_STEPS,
} from './framework-model.ts';
import type { ConfigParsers } from './config-text.ts';
import { layoutFigure } from './layout-figure.ts';
import { litPromptStyle, packingFigure } from './packing-figure.ts';
import { PromptPick } from './prompt-pick.ts';

export const MSG = section('framework');

/** Property of an attribute, prefixed so none shadows an HTMLElement member (`seed` → `optSeed`). */
const prop = (a: string) => `opt${a.replace(/(^|-)(\w)/g, (_, _d: string, c: string) => c.toUpperCase())}`;

/** Text the core says only in English: itself in English, the marked original in another language. */
const said = (text: string) => (lang() === 'en' ? text : coreOriginal(text));

export class GrpoFrameworkView extends LitElement {
  readonly scrollHint = new ScrollHint(this, '.figure');
  static override properties = {
    ...Object.fromEntries(FRAMEWORK_ATTRIBUTES.map((a) => [prop(a), { type: String, attribute: a, reflect: true }])),
    pasted: { state: true },
    draft: { state: true },
    request: { state: true },
    picture: { state: true },
    error: { state: true },
  };

  /** The width the figures are drawn at: the element's content box (they fit their column, never scroll). */
  private readonly figureWidth = new ElementWidth(this, Number.POSITIVE_INFINITY);

  /** The config text last read from the paste box, with its parsers (null: none). */
  declare pasted: { text: string; parsers: ConfigParsers } | null;
  /** What the paste box holds now. */
  declare draft: string;
  /** The prompt under the mouse (a tap selects through the `prompt` attribute instead). */
  declare request: FrameworkRequest | null;
  declare picture: FrameworkPicture | null;
  declare error: Said | null;

  static override styles = [
    scrollHintStyles,
    css`
      :host { display: block; font: 14px/1.45 system-ui, sans-serif; color: #222; max-width: 100%; }
      h2 { font-size: 16px; margin: 4px 0 8px; }
      h3 { font-size: 14px; margin: 14px 0 6px; }
      p { margin: 4px 0; max-width: 1100px; overflow-wrap: anywhere; }
      .bar { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin: 6px 0; }
      label { display: inline-flex; gap: 6px; align-items: center; }
      select, input, textarea, button { font: inherit; font-size: 13px; max-width: 100%; }
      button { padding: 2px 10px; border: 1px solid #888; border-radius: 12px; background: #fff; cursor: pointer; }
      button[aria-pressed='true'] { background: #333; color: #fff; border-color: #333; }
      .meta, .legend { font-size: 12px; color: #555; }
      .figure { overflow-x: auto; max-width: 100%; }
      .figure svg { display: block; }
      .figure svg [data-prompt] { cursor: pointer; }
      .copies { font-weight: 600; min-height: 1.4em; }
      .pick input { width: 6em; }
      .switch { border: 1px solid #c9c9c9; border-radius: 6px; padding: 2px 8px; background: #fafafa; }
      .switch code { font-size: 12px; }
      .error { color: #a00; }
      .warnings li { color: #8a4b00; }
      ul { padding-left: 20px; max-width: 1100px; }
      li { margin: 3px 0; overflow-wrap: anywhere; }
      details { margin: 10px 0; max-width: 1100px; }
      summary { cursor: pointer; font-weight: 600; }
      .keys { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 320px), 1fr)); gap: 6px 16px; margin-top: 8px; }
      .key { display: grid; grid-template-columns: minmax(0, 1fr) 8.5em; gap: 6px; align-items: center; font-size: 12px; }
      .key span { min-width: 0; overflow-wrap: anywhere; }
      .key small { display: block; color: #666; }
      .key input, .key select { width: 100%; box-sizing: border-box; }
      /* A key whose values are names (an algorithm, a backend): the field under its key, as wide as the column. */
      .key.named { grid-template-columns: minmax(0, 1fr); }
      textarea { width: 100%; box-sizing: border-box; min-height: 8em; font-family: ui-monospace, monospace; font-size: 12px; }
      code { font-size: 12px; overflow-wrap: anywhere; }
      .i18n-original { color: #555; }
    `,
  ];

  /** The prompt whose copies the figure lights (hover, else the `prompt` attribute). */
  private readonly promptPick = new PromptPick(
    this,
    () => this.attr('prompt'),
    (v) => this.set('prompt', v),
  );

  constructor() {
    super();
    this.pasted = null;
    this.draft = '';
    this.request = null;
    this.picture = null;
    this.error = null;
  }

  private attr(name: string): string | null {
    return (this as unknown as Record<string, string | null | undefined>)[prop(name)] ?? null;
  }

  private set(name: string, value: string | null): void {
    (this as unknown as Record<string, string | null>)[prop(name)] = value;
  }

  private attrs(): Record<string, string | null> {
    return Object.fromEntries(FRAMEWORK_ATTRIBUTES.map((a) => [a, this.attr(a)]));
  }

  protected override willUpdate(changed: PropertyValues): void {
    const own = new Set(['request', 'picture', 'error', 'draft']);
    if (!this.hasUpdated || [...changed.keys()].some((k) => !own.has(String(k)) && k !== prop('prompt'))) this.compute();
  }

  private compute(): void {
    this.request = null;
    this.picture = null;
    try {
      this.request = frameworkRequest(this.attrs(), this.pasted);
      this.picture = frameworkPicture(this.request, Number(this.attr('step') ?? 0));
      this.error = null;
    } catch (err) {
      this.error = saidOf(err, true);
      // A value the framework refuses: the form still shows its keys (at the shipped defaults) to fix it with.
      if (this.request === null) {
        try {
          this.request = frameworkRequest({ framework: this.attr('framework') }, null);
        } catch {
          this.request = frameworkRequest({}, null);
        }
      }
    }
  }

  /** Embedding (embed/lazy.ts): the picture follows the attributes; nothing runs in the background. */
  start(): void {}
  pause(): void {}

  /** The layout figure as drawn (the figure export takes it). */
  figure(): SVGSVGElement | null {
    return this.renderRoot.querySelector('.figure svg');
  }

  /** Another framework: its shipped defaults (no key of the previous one carried over). */
  private pick(name: string): void {
    for (const a of FRAMEWORK_ATTRIBUTES) if (a !== 'framework') this.set(a, null);
    this.pasted = null;
    this.set('framework', name);
  }

  private usePreset(name: string | null): void {
    const home = this.request?.home;
    for (const k of home?.keys ?? []) this.set(k.flag, null);
    this.set('step', null);
    this.set('prompt', null);
    this.pasted = null;
    this.set('preset', name);
  }

  /** Reads the paste box (the parsers' chunk loads on the first paste). */
  private async readPasted(): Promise<void> {
    const text = this.draft;
    const parsers = text.trim() === '' ? null : await import('./config-parsers.ts');
    for (const k of this.request?.home.keys ?? []) this.set(k.flag, null);
    this.set('preset', null);
    this.set('step', null);
    this.set('prompt', null);
    this.pasted = parsers ? { text, parsers } : null;
  }

  private picker() {
    const current = this.request?.home.name ?? this.attr('framework') ?? FRAMEWORK_HOMES[0]!.name;
    return html`<div class="bar">
      <label>${MSG.framework}
        <select name="framework" translate="no" @change=${(e: Event) => this.pick((e.target as HTMLSelectElement).value)}>
          ${FRAMEWORK_HOMES.map((h) => html`<option value=${h.name} .selected=${h.name === current}>${h.name} · ${h.title}</option>`)}
        </select>
      </label>
    </div>`;
  }

  private presets() {
    const home = this.request?.home;
    if (!home) return nothing;
    const preset = this.attr('preset');
    return html`<div class="bar presets">
      <span>${home.presets.length ? MSG.presets : MSG.noPresets}</span>
      ${home.presets.map(
        (
          p,
        ) => html`<button type="button" class="preset" data-preset=${p.name} translate="no" title=${lang() === 'en' ? `${p.about} (${p.source})` : nothing}
          aria-pressed=${preset === p.name ? 'true' : 'false'} @click=${() => this.usePreset(p.name)}>${p.name}</button>`,
      )}
      <button type="button" class="defaults" aria-pressed=${!preset && this.pasted === null ? 'true' : 'false'} @click=${() => this.usePreset(null)}>
        ${MSG.defaults}
      </button>
    </div>`;
  }

  /** One key as a field: the framework's name, its shipped default, where the value came from. */
  private keyField(k: FrameworkKey) {
    const r = this.request!.reading;
    const value = r.settings[k.flag];
    const origin = r.origins[k.flag];
    const shown = value === null || value === undefined ? '' : String(value);
    const change = (v: string) => this.set(k.flag, v === '' ? 'null' : v);
    // The framework's own default (a file without the key gets it); the form's own tie is said in `about`.
    const shipped = k.fileDefault !== undefined ? k.fileDefault : k.default;
    const note = [
      MSG.shippedDefault(JSON.stringify(shipped)),
      origin === 'config' ? MSG.fromConfig : origin === 'flag' ? MSG.fromField : null,
      k.sandbox ? MSG.sandboxOnly : null,
      value === null ? MSG.unset : null,
    ]
      .filter(Boolean)
      .join(' · ');
    const input =
      k.kind === 'bool'
        ? html`<select name=${k.flag} @change=${(e: Event) => change((e.target as HTMLSelectElement).value)}>
            ${['true', 'false'].map((v) => html`<option value=${v} .selected=${shown === v}>${v}</option>`)}
          </select>`
        : k.choices
          ? html`<select name=${k.flag} translate="no" @change=${(e: Event) => change((e.target as HTMLSelectElement).value)}>
              ${k.choices.map((v) => html`<option value=${v} .selected=${shown === v}>${v}</option>`)}
            </select>`
          : html`<input name=${k.flag} type=${k.kind === 'string' ? 'text' : 'number'} .value=${shown} placeholder=${value === null ? MSG.unset : ''}
              @change=${(e: Event) => change((e.target as HTMLInputElement).value)} />`;
    return html`<label class=${k.kind === 'string' ? 'key named' : 'key'}>
      <span><code translate="no">${k.key}</code><small>${note}</small><small class="about">${said(k.about)}</small></span>${input}
    </label>`;
  }

  private form() {
    const req = this.request;
    if (!req) return nothing;
    const { home, reading } = req;
    const config = reading.config;
    const source = config ? (config.path === PASTED ? MSG.pastedSource : config.path) : null;
    return html`
      ${
        config && source
          ? html`<p class="meta read">${MSG.readKeys(
              source,
              config.read.map((r) => r.key),
            )}
            ${config.ignored.length ? MSG.ignoredKeys(config.ignored) : nothing}</p>`
          : nothing
      }
      ${req.parents.length ? html`<p class="meta parents">${MSG.parents(req.parents)}</p>` : nothing}
      <details class="paste-box">
        <summary>${MSG.paste}</summary>
        <p class="meta">${MSG.pasteHint(MSG.formats[home.configFormat] ?? home.configFormat)}</p>
        <textarea name="config" spellcheck="false" .value=${this.draft}
          @input=${(e: Event) => (this.draft = (e.target as HTMLTextAreaElement).value)}></textarea>
        <div class="bar">
          <button type="button" class="read-config" @click=${() => void this.readPasted()}>${MSG.read}</button>
          <button type="button" class="clear-config" @click=${() => {
            this.draft = '';
            void this.readPasted();
          }}>${MSG.clear}</button>
        </div>
      </details>
      <details class="keys-box">
        <summary>${MSG.keys(home.keys.length)}</summary>
        <div class="keys">${home.keys.map((k) => this.keyField(k))}</div>
      </details>`;
  }

  private switches() {
    const req = this.request;
    if (!req) return nothing;
    const keys = packingSwitches(req.home);
    if (!keys.length) return nothing;
    return html`<div class="bar switches"><span>${MSG.switchesLabel}</span>
      ${keys.map((k) => {
        const on = req.reading.settings[k.flag] === true;
        return html`<label class="switch">
          <input type="checkbox" name=${`switch-${k.flag}`} .checked=${on}
            @change=${(e: Event) => this.set(k.flag, String((e.target as HTMLInputElement).checked))} />
          <code translate="no">${k.key}</code> ${on ? MSG.on : MSG.off}</label>`;
      })}
    </div>`;
  }

  private layoutPart(p: FrameworkPicture) {
    const total = p.layout.steps.length;
    const last = p.first + p.steps.length - 1;
    const to = (first: number) => this.set('step', String(Math.max(0, Math.min(total - 1, first))));
    const prompt = this.promptPick.shown();
    const svg = layoutFigure(
      p.steps,
      p.first,
      {
        rank: MSG.rank,
        step: MSG.stepLabel,
        more: MSG.more,
        moreRanks: MSG.moreRanks,
        tile: MSG.tile,
      },
      this.figureWidth.value,
    );
    return html`<h3>${MSG.layoutHeading}</h3>
      <p class="legend">${MSG.layoutLegend}</p>
      <div class="bar">
        <button type="button" class="earlier" ?disabled=${p.first === 0} @click=${() => to(p.first - SHOWN_STEPS)}>${MSG.earlier}</button>
        <span class="meta range">${MSG.steps(p.first, last, total)}</span>
        <button type="button" class="later" ?disabled=${last >= total - 1} @click=${() => to(p.first + SHOWN_STEPS)}>${MSG.later}</button>
      </div>
      <p class="copies" aria-live="polite">
        ${prompt === null ? MSG.pickHint : MSG.copies(prompt, copiesOf(p.steps, p.first, prompt))}
        ${this.attr('prompt') ? html` <button type="button" class="clear-pick" @click=${() => this.set('prompt', null)}>${MSG.clearPick}</button>` : nothing}
      </p>
      <label class="meta pick">${MSG.pickPrompt}
        <input name="prompt" type="number" min="0" .value=${this.attr('prompt') ?? ''}
          @change=${(e: Event) => this.set('prompt', (e.target as HTMLInputElement).value || null)} /></label>
      <div class="figure layout" @click=${this.promptPick.onTap} @pointerover=${this.promptPick.onHover} @pointerleave=${this.promptPick.onLeave}>
        ${unsafeHTML(svg)}
      </div>`;
  }

  private packingPart(p: FrameworkPicture) {
    const home = this.request!.home;
    const packing = home.packing;
    if ('absent' in packing)
      return html`<h3>${MSG.packingHeading(p.first)}</h3><p class="meta">${MSG.packingAbsent} ${said(packing.absent)}</p>`;
    const head = html`<h3>${MSG.packingHeading(p.first)}</h3>${this.switches()}<p class="meta about">${said(packing.about)}</p>`;
    if (!p.packer) return html`${head}<p class="packer-off">${MSG.packerOff}</p>`;
    if (!p.packed) return html`${head}<p class="meta">${MSG.noLengths}</p>`;
    const packed = p.packed;
    const step = p.steps[0]!;
    const padded = packed.ranks.flatMap((mbs, r) => (mbs.filter((mb) => mb.length > 0).length < packed.microBatchesPerRank ? [r] : []));
    const svg = packingFigure(
      step,
      packed,
      p.budget,
      promptOfSample(step),
      {
        rank: MSG.rank,
        microBatches: MSG.microBatches,
        padding: MSG.padding,
        paddingStrip: MSG.paddingStrip,
        micro: MSG.micro,
        bar: MSG.bar,
        budget: MSG.budgetLine,
        more: MSG.moreMicro,
        moreRanks: MSG.moreRanksPacked,
      },
      this.figureWidth.value,
    );
    return html`${head}
      <p class="legend">${MSG.packingLegend}</p>
      <p class="budget-text">${p.budget ? this.budgetText(p.budget) : MSG.noBudget}</p>
      <p class="synced">${MSG.synced(packed.microBatchesPerRank, padded)}</p>
      <div class="figure packing" @click=${this.promptPick.onTap} @pointerover=${this.promptPick.onHover} @pointerleave=${this.promptPick.onLeave}>
        ${unsafeHTML(svg)}
      </div>`;
  }

  /** The budget sentence with the framework's own key(s) kept as written. */
  private budgetText(budget: TokenBudget) {
    const [before, after] = MSG.budget(budget.tokens, '\u0000', budget.rule).split('\u0000');
    return html`${before}<code translate="no">${budget.from}</code>${after}`;
  }

  private facts(p: FrameworkPicture) {
    const l = p.layout;
    return html`
      ${
        l.warnings.length
          ? html`<h3>${MSG.warnings}</h3><ul class="warnings">${l.warnings.map((w) => html`<li>${said(w)}</li>`)}</ul>`
          : nothing
      }
      <h3>${MSG.counts}</h3>
      <ul class="counts">${l.counts.map((c) => html`<li><code translate="no">${c.name} = ${c.value}</code>: ${said(c.how)}</li>`)}</ul>
      ${l.notes.length ? html`<h3>${MSG.notes}</h3><ul class="notes">${l.notes.map((n) => html`<li>${said(n)}</li>`)}</ul>` : nothing}`;
  }

  /** The lit prompt's rule: its tiles and bars outlined, every other one faded. */
  private highlight() {
    const p = this.promptPick.shown();
    if (p === null) return nothing;
    return html`<style>${litPromptStyle(p)}</style>`;
  }

  private pinned({ home }: FrameworkRequest) {
    const { repo, commit, date } = home.pinned;
    return html`<p class="meta pinned"><span translate="no">${home.title}</span> · ${MSG.pinned(repo, commit.slice(0, 7), date)}</p>`;
  }

  override render() {
    const req = this.request;
    const p = this.picture;
    return html`<h2>${MSG.title}</h2>
      ${this.picker()}
      ${req ? this.pinned(req) : nothing}
      ${this.presets()}
      ${this.error ? html`<p class="error" role="alert">${withCoreMessage(MSG.error, this.error)}</p>` : nothing}
      ${this.highlight()}
      ${p ? html`${this.layoutPart(p)} ${this.packingPart(p)}` : nothing}
      ${this.form()}
      ${p ? this.facts(p) : nothing}`;
  }
}

if (!customElements.get('grpo-framework')) customElements.define('grpo-framework', GrpoFrameworkView);
