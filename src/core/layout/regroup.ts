// The ways frameworks put samples back into groups: three after the all-gather, one on each rank.
import type { Gather, RegroupMethod, RegroupRow } from './types.ts';

/** Rows keyed by `keyOf`, in order of first appearance; members in gathered order. */
function groupBy(gather: Gather, k: number, keyOf: (i: number) => string): RegroupRow[] {
  const rows = new Map<string, RegroupRow>();
  gather.samples.forEach((s, i) => {
    const key = keyOf(i);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { key, members: [], promptIds: [], mixed: false, offSize: false }));
    row.members.push(i);
    row.promptIds.push(s.promptId);
  });
  return [...rows.values()].map((row) => ({ ...row, mixed: new Set(row.promptIds).size > 1, offSize: row.members.length !== k }));
}

/**
 * Regroups one gather (k = copies per prompt):
 * - 'prompt-id': by prompt over the whole gather, as flow_grpo's PerPromptStatTracker groups by
 *   prompt string over everything since it was last cleared (once per epoch), so a prompt drawn in
 *   two batches of an epoch forms one 2k group (offSize);
 * - 'view': `rewards.view(-1, k)` over the gathered order, as TRL does: rows of k consecutive
 *   samples, `mixed` when a row holds several prompts (scattered layouts), `offSize` for a last
 *   row shorter than k (where torch's view would raise);
 * - 'uid': by the per-draw uid, as verl does: every draw is its own group of k;
 * - 'local': on each rank, rows of k consecutive samples of the rank's own order, as DanceGRPO
 *   does after repeat_interleave (its advantages need no gather); `mixed` when a rank's row
 *   holds several prompts (a layout that scatters copies).
 */
export function regroup(gather: Gather, method: RegroupMethod, k: number): RegroupRow[] {
  switch (method) {
    case 'prompt-id':
      return groupBy(gather, k, (i) => `p${gather.samples[i]!.promptId}`);
    case 'view':
      return groupBy(gather, k, (i) => String(Math.floor(i / k)));
    case 'uid':
      return groupBy(gather, k, (i) => gather.samples[i]!.uid);
    case 'local': {
      const position = new Map<number, number>(); // samples seen so far on each rank
      const keys = gather.samples.map((s) => {
        const at = position.get(s.rank) ?? 0;
        position.set(s.rank, at + 1);
        return `r${s.rank}:${Math.floor(at / k)}`;
      });
      return groupBy(gather, k, (i) => keys[i]!);
    }
  }
}

/** The regroup methods, with the framework each one stands for. */
export const regroupMethods: { method: RegroupMethod; label: string }[] = [
  { method: 'prompt-id', label: 'by prompt id over the gather (flow_grpo PerPromptStatTracker)' },
  { method: 'view', label: 'view(-1, k) over the gathered order (TRL)' },
  { method: 'uid', label: 'by per-draw uid (verl)' },
  { method: 'local', label: 'k consecutive samples on each rank, no gather (DanceGRPO)' },
];
