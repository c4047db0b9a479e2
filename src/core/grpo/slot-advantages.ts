// The advantages of a range of gathered positions (one rank's slots) under a scheme, without the
// whole batch's groups: scheme-groups.ts's rule evaluated for the groups that hold a position of
// the range, each over all its members, with the same float64 operations in the same order as
// schemeAdvantages (the mean shifted by the group's first member, then the squares), so every
// advantage has schemeAdvantages' bits. A training rank needs only its own slots' advantages; the
// whole batch's grouping on every rank was the largest part of a step it pays for the others.
// The scratch arrays come from the caller (a rank's workspace), so a step of a steady size
// allocates no batch-sized array.
import { LONE_DIVISOR, schemeRule } from './scheme-groups.ts';
import { checkAdvantageInput, isSandboxScheme, schemeAdvantages, type AdvantageInput, type TrainScheme } from './schemes.ts';

/** Where the evaluation keeps its per-group sums: arrays by name, reused when the name and length repeat (src/train/workspace.ts). */
export interface AdvantageScratch {
  f64(name: string, length: number): Float64Array;
}

/** Fresh arrays every call (for callers without a workspace). */
const FRESH: AdvantageScratch = { f64: (_name, length) => new Float64Array(length) };

/** The groups of keys[from, to): each position's group (numbered in order of first appearance), how many, and the table that finds any key's. */
export interface KeyGroups {
  /** group[i − from]: the group of position i. */
  group: Float64Array;
  count: number;
  /** Open addressing: a key and its group per slot (group −1: empty); `bits` = log2 of the slots. */
  tableKey: Float64Array;
  tableGroup: Float64Array;
  bits: number;
}

/** Keys equal as a Map compares them (SameValueZero: NaN equals NaN). */
const sameKey = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/** The slot `key` starts probing at: Fibonacci hashing of its integer part (equal keys probe the same run). */
const home = (key: number, bits: number) => Math.imul(key | 0, 0x9e3779b1) >>> (32 - bits);

/** The group of `key` in `k`, or −1 when no position of its range has that key. */
export function groupOfKey(k: KeyGroups, key: number): number {
  const mask = (1 << k.bits) - 1;
  for (let h = home(key, k.bits); k.tableGroup[h] !== -1; h = (h + 1) & mask) if (sameKey(k.tableKey[h]!, key)) return k.tableGroup[h]!;
  return -1;
}

/**
 * keys[from, to) grouped by value, in an open-addressing table of the scratch's arrays (no Map, no
 * per-group array). The arrays' names are fixed: a later call with the same scratch reuses them.
 */
export function keyGroups(keys: ArrayLike<number>, from: number, to: number, scratch: AdvantageScratch = FRESH): KeyGroups {
  const rows = to - from;
  let bits = 3;
  while (1 << bits < 2 * rows) bits++;
  const mask = (1 << bits) - 1;
  const tableKey = scratch.f64('keyGroups.tableKey', mask + 1);
  const tableGroup = scratch.f64('keyGroups.tableGroup', mask + 1).fill(-1);
  const group = scratch.f64('keyGroups.group', rows);
  let count = 0;
  for (let i = from; i < to; i++) {
    const key = keys[i]!;
    let h = home(key, bits);
    while (tableGroup[h] !== -1 && !sameKey(tableKey[h]!, key)) h = (h + 1) & mask;
    if (tableGroup[h] === -1) {
      tableKey[h] = key;
      tableGroup[h] = count++;
    }
    group[i - from] = tableGroup[h]!;
  }
  return { group, count, tableKey, tableGroup, bits };
}

/**
 * Writes the advantages of gathered positions [from, from + out.length) into `out` (checked input,
 * as schemeAdvantages checks it) and returns it; the same values as schemeAdvantages(scheme,
 * input).slice(from, from + out.length), bit for bit (rounded to float32 when `out` is). A framework
 * home's scheme has no group rule: its advantages are computed over the whole batch, then sliced.
 */
export function slotAdvantages<A extends Float32Array | Float64Array>(
  scheme: TrainScheme,
  input: AdvantageInput,
  from: number,
  out: A,
  scratch: AdvantageScratch = FRESH,
): A {
  checkAdvantageInput(scheme, input);
  const { rewards, promptIds, k } = input;
  const n = rewards.length;
  const to = from + out.length;
  if (!Number.isInteger(from) || from < 0 || to > n)
    throw new RangeError(`slotAdvantages: positions [${from}, ${to}) are outside the ${n} gathered samples`);
  if (!isSandboxScheme(scheme)) {
    out.set(schemeAdvantages(scheme, input).slice(from, to));
    return out;
  }
  const rule = schemeRule(scheme);
  const byPrompt = rule.grouping === 'prompt';
  // The groups that hold a position of the range: by prompt id, else runs of k (numbered from the
  // range's first run) or the one group of all; and their members, in gathered order (runs and the
  // single group are ranges; prompt groups take a pass over all positions).
  const keyed = byPrompt ? keyGroups(promptIds, from, to, scratch) : null;
  const firstRun = rule.grouping === 'runs' ? Math.floor(from / k) : 0;
  const groups = keyed ? keyed.count : rule.grouping === 'runs' ? Math.ceil(to / k) - firstRun : 1;
  const lo = rule.grouping === 'runs' ? firstRun * k : 0;
  const hi = rule.grouping === 'runs' ? Math.ceil(to / k) * k : n;
  // Each member's group (−1: a position in none of them), then the sums over members in gathered order.
  // Per-group arrays hold as many groups as the range has positions, so their lengths stay put step to step.
  const member = scratch.f64('slotAdvantages.member', hi - lo);
  for (let i = lo; i < hi; i++)
    member[i - lo] = keyed ? groupOfKey(keyed, promptIds[i]!) : rule.grouping === 'runs' ? Math.floor(i / k) - firstRun : 0;
  const capacity = Math.max(out.length, groups);
  const first = scratch.f64('slotAdvantages.first', capacity);
  const mean = scratch.f64('slotAdvantages.mean', capacity).fill(0);
  const sq = scratch.f64('slotAdvantages.sq', capacity).fill(0);
  const count = scratch.f64('slotAdvantages.count', capacity).fill(0);
  for (let i = lo; i < hi; i++) {
    const g = member[i - lo]!;
    if (g < 0) continue;
    if (count[g] === 0) first[g] = rewards[i]!;
    mean[g]! += rewards[i]! - first[g]!;
    count[g]!++;
  }
  for (let g = 0; g < groups; g++) mean[g] = first[g]! + mean[g]! / count[g]!;
  for (let i = lo; i < hi; i++) {
    const g = member[i - lo]!;
    if (g >= 0) sq[g]! += (rewards[i]! - mean[g]!) ** 2;
  }
  const batchStd = rule.batchStd ? batchStandardDeviation(rewards, rule.ddof) : 0;
  for (let i = from; i < to; i++) {
    const g = member[i - lo]!;
    const r = rewards[i]!;
    if (count[g] === 1 && rule.loneKeepsReward) out[i - from] = rule.divide ? r / LONE_DIVISOR : r;
    else if (!rule.divide) out[i - from] = r - mean[g]!;
    else out[i - from] = (r - mean[g]!) / ((rule.batchStd ? batchStd : Math.sqrt(sq[g]! / (count[g]! - rule.ddof))) + rule.eps);
  }
  return out;
}

/** The std of all rewards as the schemes take it: mean shifted by the first reward, then the squares. */
function batchStandardDeviation(rewards: ArrayLike<number>, ddof: 0 | 1): number {
  const n = rewards.length;
  const first = rewards[0]!;
  let s = 0;
  for (let i = 0; i < n; i++) s += rewards[i]! - first;
  const mean = first + s / n;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (rewards[i]! - mean) ** 2;
  return Math.sqrt(sq / (n - ddof));
}
