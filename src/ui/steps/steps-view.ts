// <grpo-steps>: what each optimizer step sees (src/core/steps computes it; this element draws it):
// a micro-step timeline per rank, blocks coloured by the policy version that generated them, each
// completion's weight ÷ the global token mean's as bar height, the normaliser in each block's
// tooltip, then the findings. Attributes are named like the explorer's URL keys (sampler, ranks,
// batch, k, batches, epochs, dataset, seed, spg, iters, ga …) plus framework, loss, lengths (comma
// separated), max-completion-length and micro-batch, read as `grpo-sandbox steps` reads its flags
// (steps-request.ts), so `?view=steps&…`, a tour and the CLI give the same report.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { LayoutConfig, SamplerName } from '../../core/layout/types.ts';
import { buildLayout, defaultConfig, samplerNames } from '../../core/samplers/index.ts';
import { LAYOUT_SETTINGS } from '../../core/settings.ts';
import { STEPS_ATTRIBUTES, stepsRequest } from './steps-request.ts';
import { FRAMEWORK_NAMES, FRAMEWORKS, buildSteps, defaultFramework, type StepsReport } from '../../core/steps/index.ts';
import { factText, noteText, type Said, saidOf, settingHint, settingLabel, withCode, withCoreMessage } from '../core-text.ts';
import { section } from '../i18n/index.ts';
import type { NormaliserTerms } from '../../core/messages/steps.ts';
import { stepsFigure } from './steps-figure.ts';
import { ScrollHint, scrollHintStyles } from '../scroll-hint.ts';

export const MSG = section('steps');

export { STEPS_ATTRIBUTES };

/**
 * Property name of an attribute, prefixed so that none shadows an HTMLElement member (the URL key
 * `dataset` would otherwise replace the element's own `dataset`): `max-completion-length` → `optMaxCompletionLength`.
 */
const prop = (a: string) => `opt${a.replace(/(^|-)(\w)/g, (_, _d: string, c: string) => c.toUpperCase())}`;

export class GrpoStepsView extends LitElement {
  /** Says when a figure or table is wider than its box. */
  readonly scrollHint = new ScrollHint(this, '.figure');
  static override properties = {
    ...Object.fromEntries(STEPS_ATTRIBUTES.map((a) => [prop(a), { type: String, attribute: a, reflect: true }])),
    report: { state: true },
    error: { state: true },
    figureWidth: { state: true },
  };

  declare report: StepsReport | null;
  declare error: Said | null;
  /** The element's content width: the timeline wraps its optimizer steps to fit it (no sideways scroll on a phone). */
  declare figureWidth: number;
  private readonly sized = new ResizeObserver((entries) => {
    const w = Math.floor(entries[0]!.contentRect.width);
    if (w > 0 && w !== this.figureWidth) this.figureWidth = w;
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.sized.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.sized.disconnect();
  }

  static override styles = [
    scrollHintStyles,
    css`
    :host { display: block; font: 14px/1.45 system-ui, sans-serif; color: #222; }
    h2 { font-size: 16px; margin: 4px 0 8px; }
    form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; margin-bottom: 10px; font-size: 12px; }
    label { display: flex; flex-direction: column; gap: 2px; color: #444; max-width: 14em; }
    label small { color: #595959; font-size: 11px; line-height: 1.3; }
    label small.derived { color: #1f3b5a; }
    input, select { font: inherit; font-size: 13px; width: 9em; }
    /* A select is as wide as its longest option (a framework name with its commit), within the window. */
    select { width: auto; min-width: 9em; max-width: 100%; }
    .figure { overflow-x: auto; }
    .error { color: #a00; }
    .meta, .notes { font-size: 12px; color: #555; max-width: 1100px; }
    li { margin: 4px 0; max-width: 1100px; }
  `,
  ];

  constructor() {
    super();
    this.report = null;
    this.error = null;
    this.figureWidth = Number.POSITIVE_INFINITY;
  }

  private attr(name: string): string | null {
    return (this as unknown as Record<string, string | null | undefined>)[prop(name)] ?? null;
  }

  /** The attributes as the steps' reader takes them. */
  private attrs(): Record<string, string | null> {
    return Object.fromEntries(STEPS_ATTRIBUTES.map((a) => [a, this.attr(a)]));
  }

  /** The layout configuration the attributes ask for (when they ask for none that is valid, the default with their sampler: the form's choices). */
  private config(): LayoutConfig {
    try {
      return stepsRequest(this.attrs()).config;
    } catch {
      return { ...defaultConfig, sampler: (this.attr('sampler') ?? defaultConfig.sampler) as SamplerName };
    }
  }

  protected override willUpdate(changed: PropertyValues): void {
    // The first update too: `?view=steps` with no settings shows the defaults' report, not an empty page.
    if (!this.hasUpdated || [...changed.keys()].some((k) => k !== 'report' && k !== 'error' && k !== 'figureWidth')) this.compute();
  }

  private compute(): void {
    try {
      const { config, options } = stepsRequest(this.attrs());
      this.report = buildSteps(buildLayout(config), options);
      this.error = null;
    } catch (err) {
      this.report = null;
      this.error = saidOf(err);
    }
  }

  private set(name: string, value: string): void {
    (this as unknown as Record<string, string>)[prop(name)] = value;
  }

  /** Embedding (embed/lazy.ts): the report is computed from the attributes as they change; nothing runs in the background. */
  start(): void {}
  pause(): void {}

  /** The timeline as drawn (the figure export takes it). */
  figure(): SVGSVGElement | null {
    return this.renderRoot.querySelector('.figure svg');
  }

  private controls() {
    const config = this.config();
    const sampler = config.sampler;
    const framework = this.attr('framework') || defaultFramework(sampler)?.name || '';
    const spec = FRAMEWORKS[framework];
    const frameworks = FRAMEWORK_NAMES.filter((n) => FRAMEWORKS[n]!.accepts(sampler));
    // TRL's steps_per_generation, a setting only where the sampler's framework reads it.
    const spg = defaultFramework(sampler)?.schedule.readsStepsPerGeneration ?? false;
    // A field not given shows the value the report uses (the explorer's default, or what TRL derives).
    const shown = (name: string) => {
      const field = LAYOUT_SETTINGS.find((s) => s.param === name)?.field;
      return this.attr(name) || (field ? String((config as unknown as Record<string, unknown>)[field] ?? '') : '');
    };
    // Each setting with its label and what it is, in the page (the explorer's words for the same settings).
    const num = (name: string) => {
      const setting = LAYOUT_SETTINGS.find((x) => x.param === name)!;
      // TRL's steps_per_generation, not given, is the gradient accumulation: shown as derived.
      const derived = name === 'spg' && !this.attr('spg') ? html`<small class="derived">${MSG.spgDerived}</small>` : nothing;
      return html`<label title=${settingHint(setting)}><span>${settingLabel(setting)}</span><input type="number" name=${name}
        min=${setting.min ?? 0} .value=${shown(name)} @change=${(e: Event) => this.set(name, (e.target as HTMLInputElement).value)}>
        <small>${settingHint(setting)}</small>${derived}</label>`;
    };
    const frameworkSelect = html`<label>${MSG.framework}<select translate="no" name="framework"
        @change=${(e: Event) => this.set('framework', (e.target as HTMLSelectElement).value)}>
        ${frameworks.map((n) => html`<option .selected=${n === framework} value=${n}>${n}</option>`)}
      </select><small>${MSG.frameworkHint}</small></label>`;
    // The samplers a modelled framework version reads (the framework list follows the sampler).
    const samplers = samplerNames.filter((n) => FRAMEWORK_NAMES.some((f) => FRAMEWORKS[f]!.accepts(n)));
    const samplerSetting = LAYOUT_SETTINGS.find((x) => x.param === 'sampler')!;
    // As a figure (the article): the timeline and one control, the framework version (the bug against its fix).
    if (this.hasAttribute('figure')) return html`<form @submit=${(e: Event) => e.preventDefault()}>${frameworkSelect}</form>`;
    return html`<form @submit=${(e: Event) => e.preventDefault()}>
      <label title=${settingHint(samplerSetting)}>${settingLabel(samplerSetting)}<select translate="no" name="sampler"
        @change=${(e: Event) => {
          this.set('sampler', (e.target as HTMLSelectElement).value);
          this.set('framework', '');
          this.set('loss', '');
        }}>
        ${samplers.map((n) => html`<option .selected=${n === sampler} value=${n}>${n}</option>`)}
      </select><small>${settingHint(samplerSetting)}</small></label>
      ${frameworkSelect}
      <label>${MSG.loss}<select translate="no" name="loss" @change=${(e: Event) => this.set('loss', (e.target as HTMLSelectElement).value)}>
        ${(spec?.losses ?? []).map((l) => html`<option .selected=${l === (this.attr('loss') || spec?.defaultLoss)} value=${l}>${l}</option>`)}
      </select><small>${MSG.lossHint}</small></label>
      ${num('ranks')} ${num('batch')} ${num('k')} ${num('dataset')} ${num('seed')} ${num('epochs')}
      ${num('ga')} ${spg ? num('spg') : nothing} ${num('iters')}
    </form>`;
  }

  /** The timeline's words in the page's language, each block's normaliser as the core says it. */
  private figureWords() {
    return { ...MSG.figure, normaliser: (params: NormaliserTerms) => factText({ id: 'steps.normaliser', params }) };
  }

  override render() {
    const r = this.report;
    const asFigure = this.hasAttribute('figure');
    return html`${asFigure ? nothing : html`<h2>${MSG.title}</h2>`}
      ${this.controls()}
      ${this.error ? html`<p class="error" role="alert">${withCoreMessage(MSG.error, this.error)}</p>` : nothing}
      ${
        r
          ? html`${
              // As a figure (the article) the framework's name says which version, before the legend; the
              // pinned commits and checks are the tool's detail.
              asFigure
                ? html`<p class="meta">${withCode(MSG.meta(r.framework.name, r.loss))}${MSG.legend}</p>`
                : html`<p class="meta">${withCode(MSG.meta(r.framework.name, r.loss))}${noteText({ id: 'steps.pinned', params: r.framework })}</p>
                  <p class="meta">${MSG.legend}</p>`
            }
            <div class="figure">${unsafeHTML(stepsFigure(r, this.figureWords(), 6, this.figureWidth))}</div>
            ${r.steps.length > 6 ? html`<p class="meta">${MSG.more(r.steps.length - 6)}</p>` : nothing}
            ${
              asFigure
                ? nothing
                : html`<h2>${MSG.findings}</h2>
                  <ul>${r.findings.map((f) => html`<li>${noteText(f)}</li>`)}</ul>
                  <ul class="notes">${r.notes.map((n) => html`<li>${noteText(n)}</li>`)}</ul>`
            }`
          : nothing
      }`;
  }
}

if (!customElements.get('grpo-steps')) customElements.define('grpo-steps', GrpoStepsView);
