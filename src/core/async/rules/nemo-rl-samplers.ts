// The two gated NeMo RL policies the home's StalenessSampler (src/core/frameworks/nemo-rl/staleness.ts: windowed,
// ready_first) does not cover, from nemo_rl/algorithms/async_utils/staleness_sampler.py @ 7ea279a, over the same
// buffer of slots (reserve appends an unready slot, commit makes it ready, select and evict remove):
// - weight_fifo (WeightFifoSampler): gate ≤ max_staleness_versions batches ahead; select takes the oldest start
//   weight in [max(0, v − s), v] among ALL slots (ready or not) and only ready slots of that weight, so it waits for
//   that weight's stragglers; evict drops ready slots below the window (BaseSampler.evict).
// - in_order (InOrderSampler): gate ≤ max_lookahead_versions batches ahead; each batch is stamped with its dispatch
//   index as target_step; select takes ready slots whose target_step is v; evict drops ready slots whose target is < v.
// Both never abort in-flight rollouts (BaseSampler.should_abort_inflight is False).
import type { BufferSlot } from '../../frameworks/nemo-rl/staleness.ts';
import { nemoError } from '../../frameworks/nemo-rl/version.ts';

export type GatedPolicyName = 'weight_fifo' | 'in_order';

export class GatedSampler {
  readonly slots: BufferSlot[] = [];
  dispatchIndex = -1;

  constructor(
    readonly name: GatedPolicyName,
    readonly gateWindow: number,
  ) {
    if (gateWindow < 0) throw nemoError('ValueError', `gate_window must be non-negative, got ${gateWindow}`);
  }

  get isOnPolicy(): boolean {
    return this.gateWindow === 0;
  }

  requiredBufferCapacity(groupsPerStep: number): number {
    return groupsPerStep * (this.gateWindow + 1);
  }

  /** _GatedSampler.admit without its wait: blocked, or the target_step stamp (in_order) / null. */
  admit(trainer: number): { blocked: true } | { blocked: false; stamp: number | null } {
    if (this.dispatchIndex >= trainer + this.gateWindow) return { blocked: true };
    this.dispatchIndex += 1;
    return { blocked: false, stamp: this.name === 'in_order' ? this.dispatchIndex : null };
  }

  reserve(group: string, startWeight: number, targetStep: number | null = null): void {
    this.slots.push({ group, startWeight, targetStep, ready: false });
  }

  commit(group: string): void {
    const slot = this.slots.find((s) => s.group === group);
    if (!slot)
      throw nemoError(
        'ValueError',
        `commit called with unknown group_id='${group}'; reserve() must precede commit() (or the slot was already removed)`,
      );
    slot.ready = true;
  }

  private remove(indices: number[]): string[] {
    const groups = indices.map((i) => this.slots[i]!.group);
    for (const i of [...indices].sort((a, b) => b - a)) this.slots.splice(i, 1);
    return groups;
  }

  select(trainer: number, min: number, max: number): string[] | null {
    if (min < 1) throw nemoError('ValueError', `min_prompt_groups must be >= 1, got ${min}`);
    if (max < min) throw nemoError('ValueError', `max_prompt_groups (${max}) must be >= min_prompt_groups (${min})`);
    let eligible: number[];
    if (this.name === 'weight_fifo') {
      const lowest = Math.max(0, trainer - this.gateWindow);
      const inWindow = this.slots.map((s) => s.startWeight).filter((w) => lowest <= w && w <= trainer);
      if (inWindow.length === 0) return null;
      const target = Math.min(...inWindow);
      eligible = this.slots.flatMap((s, i) => (s.startWeight === target && s.ready ? [i] : []));
    } else {
      eligible = this.slots.flatMap((s, i) => (s.targetStep === trainer && s.ready ? [i] : []));
    }
    if (eligible.length < min) return null;
    return this.remove(eligible.slice(0, Math.min(eligible.length, max)));
  }

  evict(trainer: number): string[] {
    if (this.name === 'weight_fifo') {
      const lowest = Math.max(0, trainer - this.gateWindow);
      return this.remove(this.slots.flatMap((s, i) => (s.ready && s.startWeight < lowest ? [i] : [])));
    }
    return this.remove(this.slots.flatMap((s, i) => (s.ready && s.targetStep !== null && s.targetStep < trainer ? [i] : [])));
  }

  shouldAbortInflight(): boolean {
    return false;
  }
}
