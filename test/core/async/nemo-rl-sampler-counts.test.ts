// NeMo RL's StalenessSampler counts the buffer (ready slots by start weight and target step, every slot by start weight,
// each group's slots) so that select and evict answer "nothing" without scanning it. Here the sampler's select and evict
// as NeMo RL's code has them (a scan of every slot on every call, sampler.py and replay_buffer.py), held to the counted
// sampler on many seeded traces: every answer and the buffer after it. golden-nemo-rl.test.ts holds both to NeMo RL's
// own classes on its scripted traces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type BufferSlot, StalenessSampler, type StalenessPolicy } from '../../../src/core/frameworks/nemo-rl/staleness.ts';

/** The buffer and the two scans, slot by slot on every call. */
class ScanningSampler {
  readonly slots: BufferSlot[] = [];
  constructor(readonly policy: StalenessPolicy) {}

  reserve(group: string, startWeight: number, targetStep: number | null): void {
    this.slots.push({ group, startWeight, targetStep, ready: false });
  }

  commit(group: string): boolean {
    const slot = this.slots.find((s) => s.group === group);
    if (!slot) return false;
    slot.ready = true;
    return true;
  }

  removeGroup(group: string): void {
    const i = this.slots.findIndex((s) => s.group === group);
    if (i >= 0) this.slots.splice(i, 1);
  }

  private lowest(trainer: number): number {
    return Math.max(0, trainer - this.policy.maxStalenessVersions);
  }

  private remove(indices: number[]): string[] {
    const groups = indices.map((i) => this.slots[i]!.group);
    for (const i of [...indices].sort((a, b) => b - a)) this.slots.splice(i, 1);
    return groups;
  }

  select(trainer: number, min: number, max: number): string[] | null {
    const eligible = this.eligible(trainer);
    if (eligible === null) return null;
    if (this.policy.name === 'windowed' && this.policy.sampleFreshestFirst) {
      eligible.sort((a, b) => trainer - this.slots[a]!.startWeight - (trainer - this.slots[b]!.startWeight) || a - b);
    }
    if (eligible.length < min) return null;
    return this.remove(eligible.slice(0, Math.min(eligible.length, max)));
  }

  private eligible(trainer: number): number[] | null {
    const ready = (keep: (s: BufferSlot) => boolean) => this.slots.flatMap((s, i) => (s.ready && keep(s) ? [i] : []));
    switch (this.policy.name) {
      case 'windowed': {
        const lowest = this.lowest(trainer);
        return ready((s) => lowest <= s.startWeight && s.startWeight <= trainer);
      }
      case 'ready_first':
        return ready((s) => s.startWeight <= trainer);
      case 'weight_fifo': {
        const lowest = this.lowest(trainer);
        const inWindow = this.slots.map((s) => s.startWeight).filter((w) => lowest <= w && w <= trainer);
        if (inWindow.length === 0) return null;
        const target = Math.min(...inWindow);
        return ready((s) => s.startWeight === target);
      }
      case 'in_order':
        return ready((s) => s.targetStep === trainer);
    }
  }

  evict(trainer: number): string[] {
    if (this.policy.name === 'ready_first') return [];
    if (this.policy.name === 'in_order')
      return this.remove(this.slots.flatMap((s, i) => (s.ready && s.targetStep !== null && s.targetStep < trainer ? [i] : [])));
    const lowest = this.lowest(trainer);
    return this.remove(this.slots.flatMap((s, i) => (s.ready && s.startWeight < lowest ? [i] : [])));
  }
}

const POLICIES: StalenessPolicy[] = [0, 1, 2, 3].flatMap((s): StalenessPolicy[] => [
  { name: 'windowed', maxStalenessVersions: s, sampleFreshestFirst: false },
  { name: 'windowed', maxStalenessVersions: s, sampleFreshestFirst: true },
  { name: 'ready_first', maxStalenessVersions: s },
  { name: 'weight_fifo', maxStalenessVersions: s },
  { name: 'in_order', maxStalenessVersions: s },
]);

test(`the counted sampler answers as the scans on ${POLICIES.length} × 30 seeded traces (reserve, commit, select, evict, abort)`, () => {
  let seed = 2024;
  /** mulberry32: an integer in [0, m). */
  const next = (m: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * m);
  };
  let selected = 0;
  let evicted = 0;
  for (const policy of POLICIES) {
    for (let trace = 0; trace < 30; trace++) {
      const fast = new StalenessSampler(policy);
      const scans = new ScanningSampler(policy);
      let trainer = 0;
      let groups = 0;
      // Mostly in dispatch order, as the simulation reserves; sometimes any weight or a group id reserved twice.
      const ordered = next(3) > 0;
      for (let op = 0; op < 160; op++) {
        const what = next(12);
        const at = `trace ${trace} op ${op} of ${JSON.stringify(policy)}`;
        if (what < 4) {
          const group = next(8) === 0 && groups > 0 ? String(next(groups)) : String(groups++);
          const weight = ordered ? Math.max(0, trainer - next(4)) : next(8);
          const target = policy.name === 'in_order' ? (ordered ? trainer + next(2) : next(6)) : null;
          fast.reserve(group, weight, target);
          scans.reserve(group, weight, target);
        } else if (what < 7) {
          const group = String(next(groups + 1));
          let threw = false;
          try {
            fast.commit(group);
          } catch {
            threw = true;
          }
          assert.equal(threw, !scans.commit(group), at);
        } else if (what < 8) {
          const min = 1 + next(4);
          const max = min + next(4);
          const got = fast.select(trainer, min, max);
          assert.deepEqual(got, scans.select(trainer, min, max), at);
          selected += got?.length ?? 0;
        } else if (what < 9) {
          const got = fast.evict(trainer);
          assert.deepEqual(got, scans.evict(trainer), at);
          evicted += got.length;
        } else if (what === 11) {
          const group = String(next(groups + 1));
          fast.removeGroup(group);
          scans.removeGroup(group);
        } else trainer += 1;
        assert.deepEqual(fast.slots, scans.slots, at);
      }
    }
  }
  assert.ok(selected > 1000 && evicted > 100, `${selected} selected, ${evicted} evicted`);
});
