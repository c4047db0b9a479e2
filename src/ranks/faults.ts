// The errors a world of ranks raises, worded so that a person sees what went wrong and how
// to fix it: where a real cluster would hang or print a bare shape error, every rank here
// names every rank's state.
import { type Arena, kindName, Phase, ST_KIND, ST_PHASE, ST_SEQ } from './arena.ts';

/** Base of every fault raised by a collective; `name` survives the trip through comlink. */
export class CollectiveError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** Ranks posted different shapes or dtypes to a collective that needs equal ones (seed-002). */
export class ShapeMismatchError extends CollectiveError {
  constructor(message: string) {
    super('ShapeMismatchError', message);
  }
}

/** Ranks called different collectives (or different roots/ops) at the same call (seed-004 V2). */
export class CollectiveMismatchError extends CollectiveError {
  constructor(message: string) {
    super('CollectiveMismatchError', message);
  }
}

/** A collective made no progress within the world's timeout: a rank never arrived. */
export class CollectiveTimeoutError extends CollectiveError {
  constructor(message: string) {
    super('CollectiveTimeoutError', message);
  }
}

/** As NCCL under torch: a collective whose ranks disagree hung until the (simulated) watchdog timed out. */
export class WatchdogTimeoutError extends CollectiveError {
  constructor(message: string) {
    super('WatchdogTimeoutError', message);
  }
}

/** Another rank failed; this rank was released from its wait. */
export class RankFailedError extends CollectiveError {
  constructor(message: string) {
    super('RankFailedError', message);
  }
}

/** `ranks 0–2, 5` / `rank 3`: a compact, complete list of rank numbers. */
export function rankList(ranks: readonly number[]): string {
  const sorted = [...ranks].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? `${sorted[i]}` : j === i + 1 ? `${sorted[i]}, ${sorted[j]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return `${sorted.length === 1 ? 'rank' : 'ranks'} ${parts.join(', ')}`;
}

/** Groups ranks by a label, in order of each label's first rank: `ranks 0–2 sent [16, 1]; rank 3 sent [14, 1]`. */
export function groupByLabel(labels: readonly string[]): { ranks: number[]; label: string }[] {
  const groups = new Map<string, number[]>();
  labels.forEach((label, rank) => {
    const g = groups.get(label);
    if (g) g.push(rank);
    else groups.set(label, [rank]);
  });
  return [...groups].map(([label, ranks]) => ({ label, ranks }));
}

/** One line per group of ranks in the same state: in which collective each is, or last finished. */
export function describeRanks(arena: Arena, now = Date.now()): string[] {
  const labels: string[] = [];
  for (let r = 0; r < arena.size; r++) {
    const c = arena.ctrl;
    const kind = kindName(Atomics.load(c, arena.state(r, ST_KIND)));
    const seq = Atomics.load(c, arena.state(r, ST_SEQ));
    const phase = Atomics.load(c, arena.state(r, ST_PHASE)) as Phase;
    if (phase === Phase.In) labels.push(`waiting in ${kind} #${seq} (for ${Math.max(0, Math.round(now - arena.entered[r]!))} ms)`);
    else if (phase === Phase.Done) labels.push(`computing, not in a collective; last finished ${kind} #${seq}`);
    else if (phase === Phase.Failed) labels.push(`failed (its step threw) after ${seq > 0 ? `${kind} #${seq}` : 'no collective'}`);
    else if (phase === Phase.Finished)
      labels.push(`its step returned${seq > 0 ? `; last collective ${kind} #${seq}` : ' without any collective'}`);
    else if (phase === Phase.Started) labels.push('computing, not in a collective; has not finished any yet');
    else labels.push('has not started its step yet');
  }
  // Durations differ by a millisecond or two between ranks; group on the state alone.
  const key = (l: string) => l.replace(/ \(for \d+ ms\)/, '');
  const groups = groupByLabel(labels.map(key));
  return groups.map((g) => `${rankList(g.ranks)}: ${labels[g.ranks[0]!]}`);
}
