// Text from the core as a page shows it: the core writes for the CLI (flags such as
// `--batches-per-epoch`, code in backticks, "got NaN" for an empty number box); here flags
// become the settings' labels, backticks become <code>, and NaN is said in words.
import { html, type TemplateResult } from 'lit';
import { LAYOUT_SETTINGS } from '../core/settings.ts';
import { corePieces, renderPieces, settingLabel } from './i18n/core-errors.ts';
import { lang, M } from './i18n/index.ts';

/** A ConfigError message or fix in the page's words. */
export function pageWords(message: string): string {
  return message
    .replace(/--([a-z][a-z-]*)(?:[ =])?/g, (whole, flag: string) => {
      const setting = LAYOUT_SETTINGS.find((s) => s.flag === flag);
      return setting ? `${settingLabel(setting)} ` : whole;
    })
    .replace(/\bgot NaN\b/g, M().model.gotNaN)
    .replace(/\s+([,;:)])/g, '$1');
}

/** Text with `code` spans rendered as <code> (no raw backticks on the page). */
export function withCode(text: string): (string | TemplateResult)[] {
  return text.split(/`([^`]*)`/).map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));
}

/** A core message for the page, in the page's language (zh: by the clause table, else the English original behind a lead-in), code as <code>. */
export function pageMessage(message: string): (string | TemplateResult)[] {
  if (lang() === 'en') return withCode(pageWords(message));
  return renderPieces(corePieces(message), (s) => withCode(pageWords(s)));
}

/** Who forms the rows an advantage error is about, and where the counted samples sit (the core names them for the CLI). */
const rowMakers: Record<string, 'trl' | 'dance'> = { 'TRL view(-1, G)': 'trl', 'DanceGRPO local groups': 'dance' };

/**
 * Why the advantages cannot be computed, in the page's words. The core throws for the CLI
 * ("TRL view(-1, G): 30 rewards cannot be viewed as rows of 4; …"); the page says which
 * framework's rows fail and what count they needed.
 */
export function advantageErrorWords(message: string): string {
  const rows = /^(.*?): (\d+) rewards cannot be viewed as rows of (\d+)/.exec(message);
  if (rows) {
    const makers = M().model.rowMakers;
    const known = rowMakers[rows[1]!];
    const maker = known ? makers[known] : { ...makers.other, who: rows[1]! };
    return M().model.noAdvantagesRows(maker.who, rows[3]!, maker.where, rows[2]!);
  }
  const slice = /^slice back: (\d+) gathered values do not split evenly over (\d+) ranks/.exec(message);
  if (slice) return M().model.noSliceBack(slice[1]!, slice[2]!);
  return M().model.noAdvantages(pageWords(message));
}
