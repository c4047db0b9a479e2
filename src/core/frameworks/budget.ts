// Helpers for a packer's token budget (PackerDef.budget): a setting as a number, a key's own name, a budget that
// is one key's value. Each framework's budget lives in its home's packer; this file names none.
import type { BudgetRule, FrameworkHome, FrameworkKey, FrameworkSettings, TokenBudget } from './types.ts';

export type { BudgetRule, TokenBudget } from './types.ts';

/** A setting's value when it is a finite number, else null. */
export const num = (settings: FrameworkSettings, flag: string): number | null => {
  const v = settings[flag];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/** The framework's own name of the key a flag sets. */
export const keyName = (keys: readonly FrameworkKey[], flag: string): string => keys.find((k) => k.flag === flag)?.key ?? flag;

/** A budget that is one key's value, when it is a positive number. */
export function keyBudget(keys: readonly FrameworkKey[], settings: FrameworkSettings, flag: string, rule: BudgetRule): TokenBudget | null {
  const tokens = num(settings, flag);
  return tokens !== null && tokens > 0 ? { tokens, from: keyName(keys, flag), rule } : null;
}

/** The budget these settings pack each micro-batch of a step (its token counts `seqlens`) under, or null. */
export function packingBudget(home: FrameworkHome, settings: FrameworkSettings, seqlens: readonly number[]): TokenBudget | null {
  return 'absent' in home.packing ? null : home.packing.budget(settings, seqlens);
}
