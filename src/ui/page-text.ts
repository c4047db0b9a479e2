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

/** Who forms the rows an advantage error is about, and where the counted samples sit (the core names them for the CLI). */
const rowMakers: Record<string, { who: string; where: string }> = {
  'TRL view(-1, G)': { who: "TRL's rewards.view(-1, k)", where: 'the gather holds' },
  'DanceGRPO local groups': { who: "DanceGRPO's local groups", where: 'a rank holds' },
};

/**
 * Why the advantages cannot be computed, in the page's words. The core throws for the CLI
 * ("TRL view(-1, G): 30 rewards cannot be viewed as rows of 4; …"); the page says which
 * framework's rows fail and what count they needed.
 */
export function advantageErrorWords(message: string): string {
  const rows = /^(.*?): (\d+) rewards cannot be viewed as rows of (\d+)/.exec(message);
  if (rows) {
    const maker = rowMakers[rows[1]!] ?? { who: rows[1]!, where: 'the gather holds' };
    return (
      `No advantages for this regrouping: ${maker.who} needs rows of k = ${rows[3]} samples, but ${maker.where} ${rows[2]}, ` +
      `which is not a multiple of ${rows[3]}.`
    );
  }
  const slice = /^slice back: (\d+) gathered values do not split evenly over (\d+) ranks/.exec(message);
  if (slice) return `No advantages to slice back: the ${slice[1]} gathered samples do not split evenly over ${slice[2]} ranks.`;
  return `No advantages for this regrouping: ${pageWords(message)}`;
}
