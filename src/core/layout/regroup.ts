// The ways frameworks put samples back into groups: three after the all-gather, one on each rank.
import type { Gather, RegroupMethod, RegroupRow } from './types.ts';

/** A row's flags: `mixed` when its members hold more than one prompt, `offSize` when it does not hold k. */
function finish(row: RegroupRow, k: number): RegroupRow {
  const first = row.promptIds[0];
  for (const id of row.promptIds) {
    if (id !== first) {
      row.mixed = true;
      break;
    }
  }
  row.offSize = row.members.length !== k;
  return row;
}

const newRow = (key: string): RegroupRow => ({ key, members: [], promptIds: [], mixed: false, offSize: false });

/** Rows keyed by `keyOf` (a number or a string), in order of first appearance; members in gathered order; `name` says the key. */
function groupBy<K>(gather: Gather, k: number, keyOf: (i: number) => K, name: (key: K) => string): RegroupRow[] {
  const rows = new Map<K, RegroupRow>();
  const samples = gather.samples;
  for (let i = 0; i < samples.length; i++) {
    const key = keyOf(i);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = newRow(name(key))));
    row.members.push(i);
    row.promptIds.push(samples[i]!.promptId);
  }
  return Array.from(rows.values(), (row) => finish(row, k));
}

/** Rows of k consecutive samples of the gathered order (the last may be short). */
function viewRows(gather: Gather, k: number): RegroupRow[] {
  const samples = gather.samples;
  const rows: RegroupRow[] = [];
  for (let start = 0; start < samples.length; start += k) {
    const row = newRow(String(rows.length));
    const end = Math.min(samples.length, start + k);
    for (let i = start; i < end; i++) {
      row.members.push(i);
      row.promptIds.push(samples[i]!.promptId);
    }
    rows.push(finish(row, k));
  }
  return rows;
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
      return groupBy(
        gather,
        k,
        (i) => gather.samples[i]!.promptId,
        (id) => `p${id}`,
      );
    case 'view':
      return viewRows(gather, k);
    case 'uid':
      return groupBy(
        gather,
        k,
        (i) => gather.samples[i]!.uid,
        (uid) => uid,
      );
    case 'local': {
      const position = new Map<number, number>(); // samples seen so far on each rank
      const keys = gather.samples.map((s) => {
        const at = position.get(s.rank) ?? 0;
        position.set(s.rank, at + 1);
        return `r${s.rank}:${Math.floor(at / k)}`;
      });
      return groupBy(
        gather,
        k,
        (i) => keys[i]!,
        (key) => key,
      );
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
