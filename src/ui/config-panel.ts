// <grpo-config-panel>: every setting of a layout plus the presets. Emits `config-change`
// with the whole new configuration; shows the core's ConfigError inline with its suggested
// fixes as buttons (click to apply). Controls named in `hidden` (URL `<name>_hide=true`) are left out.
import { LitElement, css, html, nothing } from 'lit';
import type { ConfigError } from '../core/errors.ts';
import type { Layout, LayoutConfig, SamplerName } from '../core/layout/types.ts';
import type { Preset } from '../core/presets.ts';
import { ownedElsewhere, samplers, withSamplerDefaults } from '../core/samplers/index.ts';
import { LAYOUT_SETTINGS, settingOf, suggestionText } from '../core/settings.ts';
import { loaderNote } from './loader-note.ts';
import { lang, M, withLang } from './i18n/index.ts';
import { coreOriginal, errorText, settingHint, settingLabel, suggestionWords, withCode } from './core-text.ts';

/** The numeric settings, in the table's order (the sampler has its own select). */
const numberSettings = LAYOUT_SETTINGS.filter((s) => s.kind === 'int' || s.kind === 'bool');

/** A sampler's own settings (verl's trainer and actor keys) are shown only while that sampler is chosen. */
const shownFor = (sampler: LayoutConfig['sampler'], field: string) => !ownedElsewhere(sampler, field);

export class ConfigPanel extends LitElement {
  static override properties = {
    config: { attribute: false },
    preset: { attribute: false },
    presets: { attribute: false },
    samplerNames: { attribute: false },
    error: { attribute: false },
    hiddenParts: { attribute: false },
    layout: { attribute: false },
    frameworks: { state: true },
  };

  declare config: LayoutConfig;
  declare preset: string | null;
  declare presets: Record<string, Preset>;
  declare samplerNames: readonly SamplerName[];
  declare error: ConfigError | null;
  declare hiddenParts: ReadonlySet<string>;
  /** The layout drawn (the preset's while a preset is chosen): its loader note completes the preset's description. */
  declare layout: Layout | null;
  /** The frameworks read from their own config (src/core/frameworks' registry, loaded after the panel): links into their view. */
  declare frameworks: readonly string[];

  static override styles = css`
    :host { display: block; }
    fieldset { border: 0; margin: 0; padding: 0; display: grid; gap: 8px; min-width: 0; }
    label { display: grid; grid-template-columns: minmax(0, 1fr) 88px; align-items: center; gap: 8px; font-size: 13px; }
    label > span { min-width: 0; overflow-wrap: anywhere; }
    label small { display: block; color: #595959; font-size: 11px; }
    label.muted { opacity: 0.55; }
    label.choice { grid-template-columns: minmax(0, 1fr) 150px; }
    input, select { font: inherit; font-size: 13px; padding: 3px 6px; border: 1px solid #bbb; border-radius: 4px; background: #fff; min-width: 0; }
    select.wide { grid-column: 1 / -1; }
    .preset { display: grid; gap: 4px; margin-bottom: 10px; }
    .desc { overflow-wrap: anywhere; }
    .desc { color: #555; font-size: 12px; margin: 2px 0 0; }
    .error { border: 1px solid #d62728; background: #fdecea; border-radius: 6px; padding: 8px 10px; margin-top: 10px; font-size: 13px; }
    .error p { margin: 0 0 6px; color: #8b1a1a; }
    .error button { font: inherit; font-size: 12px; margin: 2px 4px 2px 0; padding: 2px 8px; border: 1px solid #8b1a1a; border-radius: 12px;
      background: #fff; color: #8b1a1a; cursor: pointer; }
    .error button:hover, .error button:focus-visible { background: #8b1a1a; color: #fff; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; color: #666; margin: 0 0 8px; }
  `;

  constructor() {
    super();
    this.preset = null;
    this.presets = {};
    this.samplerNames = [];
    this.error = null;
    this.hiddenParts = new Set();
    this.layout = null;
    this.frameworks = [];
    // The registry is a chunk of its own (the homes' code), shared with <grpo-framework>: the explorer's picture never waits for it.
    void import('../core/frameworks/index.ts').then((m) => (this.frameworks = m.FRAMEWORK_HOMES.map((h) => h.name)));
  }

  /** What the published script's loader does to the preset's settings, beside what its document expected. */
  private loaderLine(layout: Layout) {
    const note = loaderNote(layout);
    return note === null ? nothing : html`<p class="desc loader-note">${withCode(note)}</p>`;
  }

  override render() {
    const c = this.config;
    const hide = (name: string) => this.hiddenParts.has(name);
    const T = M().config;
    const description = (name: string) => {
      const zh = lang() === 'en' ? undefined : M().core.presets[name];
      return zh !== undefined ? withCode(zh) : coreOriginal(this.presets[name]!.description, withCode);
    };
    return html`
      <h2>${T.title}</h2>
      ${
        hide('presets')
          ? nothing
          : html`<div class="preset">
        <label class="choice"><span>${T.preset}</span>
          <select id="preset" aria-label=${T.preset} @change=${this.onPreset}>
            ${this.preset === null ? html`<option value="" selected>${T.custom}</option>` : nothing}
            ${Object.keys(this.presets).map((name) => html`<option value=${name} ?selected=${name === this.preset}>${name}</option>`)}
          </select>
        </label>
        ${this.preset && this.presets[this.preset] ? html`<p class="desc">${description(this.preset)}</p>` : nothing}
        ${this.preset && this.presets[this.preset] && this.layout ? this.loaderLine(this.layout) : nothing}
      </div>`
      }
      <fieldset>
        ${
          hide(settingOf('sampler').param)
            ? nothing
            : html`<label class="choice"><span>${T.sampler}</span>
          <select id="sampler" aria-label=${T.sampler} @change=${this.onSampler}>
            ${this.samplerNames.map((s) => html`<option value=${s} ?selected=${s === c.sampler}>${s}</option>`)}
            ${this.samplerNames.includes(c.sampler) ? nothing : html`<option selected value=${c.sampler}>${c.sampler}</option>`}
          </select></label>
          ${
            this.frameworks.length
              ? html`<p class="desc frameworks">${T.otherFrameworks}
            ${this.frameworks.map((f) => html`<a translate="no" href=${withLang(`?view=framework&framework=${f}`, lang())}>${f}</a> `)}</p>`
              : nothing
          }`
        }
        ${numberSettings
          .filter((s) => !hide(s.param) && shownFor(c.sampler, s.field))
          .map((s) => {
            if (s.kind === 'bool') {
              return html`
          <label title=${settingHint(s)}>
            <span>${settingLabel(s)}<small>${settingHint(s)}</small></span>
            <input id=${s.param} name=${s.field} type="checkbox" aria-label=${settingLabel(s)}
              .checked=${c[s.field] !== false} @change=${this.onBool} />
          </label>`;
            }
            const value = c[s.field] as number;
            return html`
          <label class=${s.field in (samplers[c.sampler]?.ignores ?? {}) ? 'muted' : ''} title=${settingHint(s)}>
            <span>${settingLabel(s)}<small>${settingHint(s)}</small></span>
            <input id=${s.param} name=${s.field} type="number" step="1" min=${s.min} aria-label=${settingLabel(s)}
              .value=${Number.isFinite(value) ? String(value) : ''} @change=${this.onNumber} />
          </label>`;
          })}
      </fieldset>
      ${
        this.error
          ? html`<div class="error" role="alert">
        <p class="message">${errorText(this.error)}</p>
        ${
          this.error.suggestions.length > 0
            ? html`<div class="suggestions">${T.tryFix}
          ${this.error.suggestions.map(
            (s) =>
              html`<button type="button" class="suggestion" @click=${() => this.apply(s)}>${suggestionWords(s, suggestionText)}</button>`,
          )}
        </div>`
            : nothing
        }
        <p class="desc">${T.showingLast}</p>
      </div>`
          : nothing
      }
    `;
  }

  private emit(config: LayoutConfig, preset: string | null): void {
    this.dispatchEvent(new CustomEvent('config-change', { detail: { config, preset }, bubbles: true, composed: true }));
  }

  private apply(suggestion: Record<string, unknown>): void {
    this.emit({ ...this.config, ...suggestion } as LayoutConfig, null);
  }

  private onPreset = (ev: Event) => {
    const name = (ev.target as HTMLSelectElement).value;
    const preset = this.presets[name];
    if (preset) this.emit({ ...preset.config }, name);
  };

  private onSampler = (ev: Event) => {
    // The chosen sampler's script values for the settings only it reads (flow_grpo's loader).
    this.emit(withSamplerDefaults({ ...this.config, sampler: (ev.target as HTMLSelectElement).value as SamplerName }), null);
  };

  private onBool = (ev: Event) => {
    const input = ev.target as HTMLInputElement;
    this.emit({ ...this.config, [input.name]: input.checked } as LayoutConfig, null);
  };

  private onNumber = (ev: Event) => {
    const input = ev.target as HTMLInputElement;
    const field = input.name as keyof LayoutConfig;
    // An empty or non-numeric entry is passed on as NaN so the core explains what is expected.
    const value = input.value.trim() === '' ? Number.NaN : Number(input.value);
    this.emit({ ...this.config, [field]: value }, null);
  };
}
customElements.define('grpo-config-panel', ConfigPanel);
