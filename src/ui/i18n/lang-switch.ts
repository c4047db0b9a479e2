// <grpo-lang-switch>: English / 中文 for the whole page: one button naming the other language (one
// tab stop, so Play stays among the first stops of the explorer's tab order). Sets `lang=` in the address (removed for
// English) and re-renders every element (lang.ts); says so when the link asked for a language the
// page does not speak. Each button names its language in that language, as language menus do.
import { LitElement, css, html, nothing } from 'lit';
import { LANGS, type Lang, lang, M, setLang, unknownLang } from './index.ts';

const NAMES: Record<Lang, string> = { en: 'English', 'zh-CN': '中文' };

export class LangSwitch extends LitElement {
  static override properties = { dismissed: { state: true } };
  declare dismissed: boolean;

  static override styles = css`
    :host { display: inline-flex; gap: 4px; align-items: center; font-size: 13px; flex-wrap: wrap; }
    button { font: inherit; font-size: 12px; border: 1px solid #bbb; background: #fff; border-radius: 12px; padding: 2px 9px; cursor: pointer; }
    .notice { flex-basis: 100%; border: 1px solid #4e79a7; background: #eef3f9; border-radius: 6px; padding: 4px 8px; color: #1f3b5a; }
  `;

  constructor() {
    super();
    this.dismissed = false;
  }

  override render() {
    const now = lang();
    return html`<span role="group" aria-label=${M().lang.label}>${LANGS.filter((l) => l !== now).map(
      (l) =>
        html`<button type="button" lang=${l} data-lang=${l} title=${M().lang.switchTo} @click=${() => void setLang(l)}>${NAMES[l]}</button>`,
    )}</span>${
      unknownLang !== null && !this.dismissed ? html`<span class="notice" role="status">${M().lang.unknown(unknownLang)}</span>` : nothing
    }`;
  }
}
if (!customElements.get('grpo-lang-switch')) customElements.define('grpo-lang-switch', LangSwitch);
