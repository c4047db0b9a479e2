// <grpo-steps>: what each optimizer step sees (src/core/steps computes it; this element draws it):
// a micro-step timeline per rank, blocks coloured by the policy version that generated them, each
// completion's weight ÷ the global token mean's as bar height, the normaliser in each block's
// tooltip, then the findings. Attributes are named like the explorer's URL keys (sampler, ranks,
// batch, k, batches, epochs, dataset, seed, spg, iters, ga …) plus framework, loss, lengths (comma
// separated), max-completion-length and micro-batch, read as `grpo-sandbox steps` reads its flags
// (steps-request.ts), so `?view=steps&…`, a tour and the CLI give the same report. On the verl sampler, one
// optimizer step's micro-batches as token bars (the framework view's packing figure) with verl's use_dynamic_bsz
// switch; `step` picks the optimizer step and `prompt` lights a prompt's copies, as a tap does.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { Layout, LayoutConfig, SamplerName } from '../../core/layout/types.ts';
import { buildLayout, defaultConfig, readsSetting, samplerNames } from '../../core/samplers/index.ts';
import { LAYOUT_SETTINGS } from '../../core/settings.ts';
import { STEPS_ATTRIBUTES, stepsRequest } from './steps-request.ts';
import { FRAMEWORK_NAMES, FRAMEWORKS, buildSteps, defaultFramework, type StepsReport } from '../../core/steps/index.ts';
import { factText, noteText, type Said, saidOf, settingHint, settingLabel, withCode, withCoreMessage } from '../core-text.ts';
import { section } from '../i18n/index.ts';
import type { NormaliserTerms } from '../../core/messages/steps.ts';
import { stepsFigure } from './steps-figure.ts';
import { copiesIn, type StepsPacking, stepsPacking } from './steps-packing.ts';
import { litPromptStyle, packingFigure } from '../frameworks/packing-figure.ts';
import { PromptPick } from '../frameworks/prompt-pick.ts';
import { ElementWidth } from '../element-width.ts';
import { ScrollHint, scrollHintStyles } from '../scroll-hint.ts';

export const MSG = section('steps');
/** The packing figure's words, the framework view's own (the same figure, the same affordance). */
const PACKING = section('framework');

/** The view's own attributes beside the steps' settings: what it shows, not what the report is (no reader, no CLI flag). */
const VIEW_ATTRIBUTES = ['step', 'prompt'] as const;

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
    ...Object.fromEntries([...STEPS_ATTRIBUTES, ...VIEW_ATTRIBUTES].map((a) => [prop(a), { type: String, attribute: a, reflect: true }])),
    report: { state: true },
    layout: { state: true },
    error: { state: true },
  };

  declare report: StepsReport | null;
  /** The layout the report was built on (its seqlens are the token bars). */
  declare layout: Layout | null;
  /** The prompt under the mouse (a tap selects through the `prompt` attribute instead). */
  declare error: Said | null;
  /** The element's content width: the timeline wraps its optimizer steps to fit it (no sideways scroll on a phone). */
  private readonly figureWidth = new ElementWidth(this, Number.POSITIVE_INFINITY);

  static override styles = [
    scrollHintStyles,
    css`
    :host { display: block; font: 14px/1.45 system-ui, sans-serif; color: #222; }
    h2 { font-size: 16px; margin: 4px 0 8px; }
    form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; margin-bottom: 10px; font-size: 12px; }
    label { display: flex; flex-direction: column; gap: 2px; color: #444; max-width: 14em; }
    /* A hint that names a framework key (actor.ppo_max_token_len_per_gpu) breaks inside it on a phone. */
    label small { color: #595959; font-size: 11px; line-height: 1.3; overflow-wrap: anywhere; }
    label small.derived { color: #1f3b5a; }
    input, select { font: inherit; font-size: 13px; width: 9em; }
    /* A select is as wide as its longest option (a framework name with its commit), within the window. */
    select { width: auto; min-width: 9em; max-width: 100%; }
    .figure { overflow-x: auto; }
    .figure svg { display: block; }
    .figure.packing svg [data-prompt] { cursor: pointer; }
    h3 { font-size: 14px; margin: 14px 0 6px; }
    .bar { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin: 6px 0; font-size: 13px; }
    .bar label { flex-direction: row; align-items: center; gap: 6px; max-width: 100%; }
    .bar button { font: inherit; padding: 2px 10px; border: 1px solid #888; border-radius: 12px; background: #fff; cursor: pointer; }
    .switch { border: 1px solid #c9c9c9; border-radius: 6px; padding: 2px 8px; background: #fafafa; }
    .switch input { width: auto; }
    .switch code, .packing-text code { font-size: 12px; overflow-wrap: anywhere; }
    .packing-text, .copies { font-size: 13px; margin: 4px 0; max-width: 1100px; overflow-wrap: anywhere; }
    .copies { font-weight: 600; min-height: 1.4em; }
    .error { color: #a00; }
    .meta, .notes { font-size: 12px; color: #555; max-width: 1100px; }
    li { margin: 4px 0; max-width: 1100px; }
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
    this.report = null;
    this.layout = null;
    this.error = null;
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
    const own = new Set(['report', 'layout', 'error', ...VIEW_ATTRIBUTES.map(prop)]);
    if (!this.hasUpdated || [...changed.keys()].some((k) => !own.has(String(k)))) this.compute();
  }

  private compute(): void {
    try {
      const { config, options } = stepsRequest(this.attrs());
      this.layout = buildLayout(config);
      this.report = buildSteps(this.layout, options);
      this.error = null;
    } catch (err) {
      this.report = null;
      this.layout = null;
      this.error = saidOf(err);
    }
  }

  private set(name: string, value: string | null): void {
    (this as unknown as Record<string, string | null>)[prop(name)] = value;
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
          const next = (e.target as HTMLSelectElement).value as SamplerName;
          // A setting the next sampler does not read (verl's own) would be refused there: it goes with the sampler.
          for (const s of LAYOUT_SETTINGS) if (s.param !== 'sampler' && !readsSetting(next, s.field)) this.set(s.param, null);
          this.set('sampler', next);
          this.set('framework', '');
          this.set('loss', '');
          this.set('step', null);
          this.set('prompt', null);
        }}>
        ${samplers.map((n) => html`<option .selected=${n === sampler} value=${n}>${n}</option>`)}
      </select><small>${settingHint(samplerSetting)}</small></label>
      ${frameworkSelect}
      <label>${MSG.loss}<select translate="no" name="loss" @change=${(e: Event) => this.set('loss', (e.target as HTMLSelectElement).value)}>
        ${(spec?.losses ?? []).map((l) => html`<option .selected=${l === (this.attr('loss') || spec?.defaultLoss)} value=${l}>${l}</option>`)}
      </select><small>${MSG.lossHint}</small></label>
      ${num('ranks')} ${num('batch')} ${num('k')} ${num('dataset')} ${num('seed')} ${num('epochs')}
      ${num('ga')} ${spg ? num('spg') : nothing} ${num('iters')}
      ${readsSetting(sampler, 'useDynamicBsz') ? html`${num('mini')} ${num('micro')} ${num('maxtok')} ${num('ulysses')}` : nothing}
    </form>`;
  }

  /** verl's use_dynamic_bsz as a switch: on, the micro-batches are cut by tokens; off, by ppo_micro_batch_size_per_gpu. */
  private dynamicSwitch(on: boolean) {
    return html`<div class="bar switches"><span>${MSG.packing.switchLabel}</span>
      <label class="switch"><input type="checkbox" name="switch-dynbsz" .checked=${on}
        @change=${(e: Event) => this.set('dynbsz', String((e.target as HTMLInputElement).checked))} />
        <code translate="no">use_dynamic_bsz</code> ${on ? PACKING.on : PACKING.off}</label></div>`;
  }

  /** One optimizer step's micro-batches as token bars, where the layout has seqlens (the verl sampler). */
  private packingPart(r: StepsReport, packing: StepsPacking) {
    const words = MSG.packing;
    const prompt = this.promptPick.shown();
    const to = (at: number) => this.set('step', String(Math.max(0, Math.min(r.steps.length - 1, at))));
    const budget = packing.budget;
    const svg = packingFigure(
      { seqlens: packing.seqlens },
      packing.packed,
      budget,
      packing.promptOf,
      {
        rank: PACKING.rank,
        microBatches: PACKING.microBatches,
        padding: PACKING.padding,
        paddingStrip: PACKING.paddingStrip,
        micro: PACKING.micro,
        bar: words.bar,
        budget: PACKING.budgetLine,
        more: PACKING.moreMicro,
        moreRanks: PACKING.moreRanksPacked,
      },
      this.figureWidth.value,
    );
    // The budget sentence with verl's key kept as written (the framework view's words).
    const budgetText = () => {
      const [before, after] = PACKING.budget(budget!.tokens, '\u0000', budget!.rule).split('\u0000');
      return html`${before}<code translate="no">${budget!.from}</code>${after}`;
    };
    const index = r.steps[packing.at]!.index;
    return html`<h3>${words.heading(index)}</h3>
      ${this.dynamicSwitch(budget !== null)}
      <p class="legend meta">${words.legend}</p>
      ${
        budget
          ? html`<p class="packing-text budget-text">${budgetText()}</p>
            <p class="packing-text own-counts">${words.ownCounts(budget.tokens, packing.ownCounts ?? [])}</p>
            <p class="packing-text synced">${PACKING.synced(packing.packed.microBatchesPerRank, [])}</p>`
          : html`<p class="packing-text by-samples">${words.bySamples(packing.microBatch)}</p>`
      }
      <div class="bar">
        <button type="button" class="earlier" ?disabled=${packing.at === 0} @click=${() => to(packing.at - 1)}>${words.earlier}</button>
        <span class="meta range">${words.stepOf(index, r.steps.length)}</span>
        <button type="button" class="later" ?disabled=${packing.at >= r.steps.length - 1} @click=${() => to(packing.at + 1)}>${words.later}</button>
      </div>
      <p class="copies" aria-live="polite">
        ${prompt === null ? words.pickHint : words.copies(prompt, copiesIn(packing, prompt))}
        ${this.attr('prompt') ? html` <button type="button" class="clear-pick" @click=${() => this.set('prompt', null)}>${words.clear}</button>` : nothing}
      </p>
      ${prompt === null ? nothing : html`<style>${litPromptStyle(prompt)}</style>`}
      <div class="figure packing" @click=${this.promptPick.onTap} @pointerover=${this.promptPick.onHover} @pointerleave=${this.promptPick.onLeave}>
        ${unsafeHTML(svg)}
      </div>`;
  }

  /** The timeline's words in the page's language, each block's normaliser as the core says it. */
  private figureWords() {
    return { ...MSG.figure, normaliser: (params: NormaliserTerms) => factText({ id: 'steps.normaliser', params }) };
  }

  /** The token bars where the layout has seqlens and the element is not a figure (the article shows the timeline alone). */
  private packed(r: StepsReport) {
    if (this.hasAttribute('figure') || !this.layout) return nothing;
    const packing = stepsPacking(this.layout, r, Number(this.attr('step') ?? 0));
    return packing ? this.packingPart(r, packing) : nothing;
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
            <div class="figure">${unsafeHTML(stepsFigure(r, this.figureWords(), 6, this.figureWidth.value))}</div>
            ${r.steps.length > 6 ? html`<p class="meta">${MSG.more(r.steps.length - 6)}</p>` : nothing}
            ${this.packed(r)}
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
