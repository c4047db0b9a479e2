// Text from the core as a page shows it: the core writes for the CLI (flags such as
// `--batches-per-epoch`, code in backticks, "got NaN" for an empty number box); here flags
// become the settings' labels, backticks become <code>, and NaN is said in words.
import { html, type TemplateResult } from 'lit';
import { LAYOUT_SETTINGS } from '../core/settings.ts';

/** A ConfigError message or fix in the page's words. */
export function pageWords(message: string): string {
  return message
    .replace(/--([a-z][a-z-]*)(?:[ =])?/g, (whole, flag: string) => {
      const setting = LAYOUT_SETTINGS.find((s) => s.flag === flag);
      return setting ? `${setting.label} ` : whole;
    })
    .replace(/\bgot NaN\b/g, 'got an empty or non-numeric value')
    .replace(/\s+([,;:)])/g, '$1');
}

/** Text with `code` spans rendered as <code> (no raw backticks on the page). */
export function withCode(text: string): (string | TemplateResult)[] {
  return text.split(/`([^`]*)`/).map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));
}
