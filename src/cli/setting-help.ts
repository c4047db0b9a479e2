// A feature's settings table as CLI flags: the parseFlags spec (each key a string flag) and the
// `--help` lines (the key, its metavar, its hint), so a setting added to a table is a flag with help.
import type { Setting } from '../core/setting.ts';
import type { FlagSpec } from './flags.ts';
import { helpLine } from './layout-flags.ts';

type Row = Pick<Setting<never>, 'key' | 'metavar' | 'hint'>;

/** One string flag per setting. */
export function settingFlagSpec(table: readonly Row[]): Record<string, { type: 'string' }> {
  return Object.fromEntries(table.map((s) => [s.key, { type: 'string' as const }]));
}

/** The `--help` lines of a table's flags. */
export function settingsHelp(table: readonly Row[]): string {
  return table.map((s) => helpLine(`--${s.key} ${s.metavar}`, s.hint)).join('');
}

export type { FlagSpec };
