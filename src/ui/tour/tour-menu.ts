// <grpo-tour-menu>: the explorer's "tours" menu, one link per guided tour (`?tour=seed-000` …),
// keeping the page's language. It sits in the explorer's header, above the fold. Only the tours' titles load with it; the panel that plays a tour
// (tour-panel.ts) loads when a link opens one (tour-route.ts).
import { LitElement, css, html } from 'lit';
import { tourNames, tourTitle, tourUi } from './tours.ts';

/** A link to a tour's first step, with the page's `lang` kept. */
export function tourHref(id: string): string {
  const p = new URLSearchParams({ tour: id });
  const lang = new URLSearchParams(location.search).get('lang');
  if (lang !== null) p.set('lang', lang);
  return `?${p}`;
}

export class TourMenu extends LitElement {
  static override styles = css`
    :host { display: inline-block; position: relative; font-size: 13px; }
    summary { cursor: pointer; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 4px 10px; list-style: none; }
    summary::-webkit-details-marker { display: none; }
    summary::after { content: ' ▾'; color: #666; }
    summary:focus-visible { outline: 2px solid #4e79a7; outline-offset: 1px; }
    /* The menu sits in the explorer's header, above the fold: it opens downwards. */
    ul { position: absolute; left: 0; top: 100%; z-index: 20; margin: 4px 0 0; padding: 6px 0; list-style: none; background: #fff; border: 1px solid #ccc;
      border-radius: 6px; box-shadow: 0 4px 16px rgba(0, 0, 0, 0.15); min-width: min(320px, calc(100vw - 40px)); }
    li a { display: block; padding: 4px 12px; color: #1f3b5a; text-decoration: none; }
    li a:hover, li a:focus-visible { background: #eef3f9; }
    li a strong { font-variant-numeric: tabular-nums; margin-right: 6px; }
    /* A phone: the menu spans the window under its button instead of running past the right edge. */
    @media (max-width: 600px) {
      :host { position: static; }
      ul { left: 10px; right: 10px; top: auto; min-width: 0; }
    }
  `;

  override render() {
    return html`<details class="tours"><summary>${tourUi().tours}</summary>
      <ul>${tourNames.map((id) => html`<li><a href=${tourHref(id)} data-tour=${id}><strong>${id}</strong>${tourTitle(id)}</a></li>`)}</ul>
    </details>`;
  }
}

if (!customElements.get('grpo-tour-menu')) customElements.define('grpo-tour-menu', TourMenu);

declare global {
  interface HTMLElementTagNameMap {
    'grpo-tour-menu': TourMenu;
  }
}
