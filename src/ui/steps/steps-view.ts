// <grpo-steps>: what each optimizer step sees (src/core/steps computes it; this element draws it):
// a micro-step timeline per rank, blocks coloured by the policy version that generated them, each
// completion's weight ÷ the global token mean's as bar height, the normaliser in each block's
// tooltip, then the findings. Attributes are named like the explorer's URL keys (sampler, ranks,
// batch, k, batches, epochs, dataset, seed, spg, iters, ga) plus framework, loss, lengths (comma
// separated) and max-len, so `?view=steps&…` and a tour set it the same way.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { LayoutConfig } from '../../core/layout/types.ts';
import { buildLayout, defaultConfig } from '../../core/samplers/index.ts';
import { LAYOUT_SETTINGS } from '../../core/settings.ts';
import { FRAMEWORK_NAMES, FRAMEWORKS, buildSteps, defaultFramework, type StepsReport } from '../../core/steps/index.ts';
import { factText, noteText, type Said, saidOf, withCode, withCoreMessage } from '../core-text.ts';
import { section } from '../i18n/index.ts';
import { stepsFigure } from './steps-figure.ts';
import { ScrollHint, scrollHintStyles } from '../scroll-hint.ts';

export const MSG = section('steps');

/** The element's attributes: the layout settings by URL key, then the steps options. */
export const STEPS_ATTRIBUTES = [...LAYOUT_SETTINGS.map((s) => s.param), 'framework', 'loss', 'lengths', 'max-len'] as const;

/**
 * Property name of an attribute, prefixed so that none shadows an HTMLElement member (the URL key
 * `dataset` would otherwise replace the element's own `dataset`): `max-len` → `optMaxLen`.
 */
const prop = (a: string) => `opt${a.replace(/(^|-)(\w)/g, (_, _d: string, c: string) => c.toUpperCase())}`;

export class GrpoStepsView extends LitElement {
  /** Says when a figure or table is wider than its box. */
  readonly scrollHint = new ScrollHint(this, '.figure');
  static override properties = {
    ...Object.fromEntries(STEPS_ATTRIBUTES.map((a) => [prop(a), { type: String, attribute: a, reflect: true }])),
    report: { state: true },
    error: { state: true },
  };

  declare report: StepsReport | null;
  declare error: Said | null;

  static override styles = [
    scrollHintStyles,
    css`
    :host { display: block; font: 14px/1.45 system-ui, sans-serif; color: #222; }
    h2 { font-size: 16px; margin: 4px 0 8px; }
    form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; margin-bottom: 10px; font-size: 12px; }
    label { display: flex; flex-direction: column; gap: 2px; color: #444; }
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
  }

  private attr(name: string): string | null {
    return (this as unknown as Record<string, string | null | undefined>)[prop(name)] ?? null;
  }

  /** The layout configuration the attributes ask for (the explorer's default, then each given setting). */
  private config(): LayoutConfig {
    const config = { ...defaultConfig } as Record<string, unknown>;
    const given = new Set<string>();
    for (const s of LAYOUT_SETTINGS) {
      const v = this.attr(s.param);
      if (v === null || v === '') continue;
      config[s.field] = s.kind === 'sampler' ? v : Number(v);
      given.add(s.field);
    }
    // TRL derives steps_per_generation from gradient_accumulation_steps when it is not given.
    if (config.sampler === 'trl' && !given.has('stepsPerGeneration')) config.stepsPerGeneration = config.gradientAccumulationSteps;
    return config as unknown as LayoutConfig;
  }

  protected override willUpdate(changed: PropertyValues): void {
    // The first update too: `?view=steps` with no settings shows the defaults' report, not an empty page.
    if (!this.hasUpdated || [...changed.keys()].some((k) => k !== 'report' && k !== 'error')) this.compute();
  }

  private compute(): void {
    try {
      const lengths = this.attr('lengths');
      const maxLen = this.attr('max-len');
      this.report = buildSteps(buildLayout(this.config()), {
        framework: this.attr('framework') || undefined,
        loss: this.attr('loss') || undefined,
        lengths: lengths
          ? lengths
              .split(/[\s,]+/)
              .filter(Boolean)
              .map(Number)
          : undefined,
        lengthsSource: lengths ? 'lengths=' : undefined,
        maxCompletionLength: maxLen ? Number(maxLen) : undefined,
      });
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
    // A field not given shows the value the report uses (the explorer's default, or what TRL derives).
    const shown = (name: string) => {
      const field = LAYOUT_SETTINGS.find((s) => s.param === name)?.field;
      return this.attr(name) || (field ? String((config as unknown as Record<string, unknown>)[field] ?? '') : '');
    };
    const num = (name: string, label: string) =>
      html`<label>${label}<input type="number" min="1" .value=${shown(name)}
        @change=${(e: Event) => this.set(name, (e.target as HTMLInputElement).value)}></label>`;
    const frameworkSelect = html`<label>${MSG.framework}<select translate="no"
        @change=${(e: Event) => this.set('framework', (e.target as HTMLSelectElement).value)}>
        ${frameworks.map((n) => html`<option .selected=${n === framework} value=${n}>${n}</option>`)}
      </select></label>`;
    // As a figure (the article): the timeline and one control, the framework version (the bug against its fix).
    if (this.hasAttribute('figure')) return html`<form @submit=${(e: Event) => e.preventDefault()}>${frameworkSelect}</form>`;
    return html`<form @submit=${(e: Event) => e.preventDefault()}>
      ${frameworkSelect}
      <label>${MSG.loss}<select translate="no" @change=${(e: Event) => this.set('loss', (e.target as HTMLSelectElement).value)}>
        ${(spec?.losses ?? []).map((l) => html`<option .selected=${l === (this.attr('loss') || spec?.defaultLoss)} value=${l}>${l}</option>`)}
      </select></label>
      ${num('ranks', MSG.ranks)} ${num('batch', MSG.batch)} ${num('ga', MSG.ga)} ${sampler === 'trl' ? num('spg', MSG.spg) : nothing}
      ${num('iters', MSG.iters)}
    </form>`;
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
            <div class="figure">${unsafeHTML(stepsFigure(r, { ...MSG.figure, normaliser: (params) => factText({ id: 'steps.normaliser', params }) }))}</div>
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
