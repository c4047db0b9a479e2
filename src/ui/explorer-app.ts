import { LitElement, html } from 'lit';

/** Placeholder while the explorer is assembled. */
export class ExplorerApp extends LitElement {
  override render() {
    return html`<p>grpo-sandbox explorer</p>`;
  }
}
customElements.define('grpo-explorer', ExplorerApp);
