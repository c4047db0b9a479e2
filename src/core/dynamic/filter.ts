// Which groups carry a learning signal. Every rank runs this on the same gathered rewards, so
// every rank keeps the same groups without another collective.
import type { DynamicConfig, Sample } from './types.ts';

export type KeepRule =
  /** ms-swift, NeMo RL: std > 0. */
  | { kind: 'std' }
  /** verl DAPO: std > 0, or a group of one member. */
  | { kind: 'std-or-single' }
  /** OpenRLHF: min < mean < max (exclusive). */
  | { kind: 'mean-range'; lo: number; hi: number };

export function keepRuleOf(c: Pick<DynamicConfig, 'policy' | 'range'>): KeepRule {
  if (c.policy === 'raise') return { kind: 'std-or-single' };
  if (c.policy === 'stream') return { kind: 'mean-range', lo: c.range[0], hi: c.range[1] };
  return { kind: 'std' };
}

export interface Filtered<S> {
  kept: S[];
  groups: number;
  keptGroups: number;
  /** Groups the rule dropped. */
  flatGroups: number;
}

/** Keeps whole groups (in first-seen order, members in their order) that pass `rule` on `metric`. */
export function filterGroups<S extends Sample>(samples: readonly S[], metric: DynamicConfig['metric'], rule: KeepRule): Filtered<S> {
  const groups = new Map<string, S[]>();
  for (const s of samples) {
    const g = groups.get(s.group);
    if (g) g.push(s);
    else groups.set(s.group, [s]);
  }
  const kept: S[] = [];
  let keptGroups = 0;
  for (const members of groups.values()) {
    if (
      keeps(
        members.map((s) => s[metric]),
        rule,
      )
    ) {
      kept.push(...members);
      keptGroups++;
    }
  }
  return { kept, groups: groups.size, keptGroups, flatGroups: groups.size - keptGroups };
}

function keeps(values: number[], rule: KeepRule): boolean {
  if (rule.kind === 'mean-range') {
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return rule.lo < mean && mean < rule.hi;
  }
  if (rule.kind === 'std-or-single' && values.length === 1) return true;
  // std > 0 exactly when two values differ (for ddof 0 and 1 alike); no rounding involved.
  return values.some((v) => v !== values[0]);
}
