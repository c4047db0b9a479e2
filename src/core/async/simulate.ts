// The asynchronous loop in virtual time, one event at a time. Generation: gen-workers × concurrency slots,
// each decoding one completion at tokens-per-second; a dispatched group's k completions queue for slots in
// order. Training: each step takes a batch the rule selects, lasts step-time (or its tokens ÷ the training
// rate) and ends in a weight update; the generators take the new weights as the rule's WeightSync says.
// Ties in time are broken by the order events were scheduled, so a run is a pure function of its inputs.
import { ConfigError } from '../errors.ts';
import { configError, fact } from '../messages/index.ts';
import { PromptLengths } from './lengths.ts';
import type { RuleDrop, RulePacking, RuleState, StalenessRule } from './rule.ts';
import { summarize } from './summary.ts';
import type { AsyncResult, AsyncWorkload, Dropped, Group, Sample, TrainedSample, TrainedStep } from './types.ts';

/** Times in the result are rounded to microseconds (the same decimal text on every runtime). */
export const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** A run that never reaches its steps (a rule that starves the trainer) stops after this many events. */
const MAX_EVENTS = 5_000_000;

/** Completions a run may generate (under a second of work here): an unbounded rule with a fast generator is refused past it. */
export const MAX_GENERATED = 200_000;

/** A completion's end (its sample; none once aborted) or a trainer step's end. One shape for both (a monomorphic heap). */
class SlotEvent {
  constructor(
    readonly time: number,
    readonly seq: number,
    public kind: 'sample' | 'step',
    public sample: Sample | undefined,
  ) {}
}

/** A binary heap of events by (time, seq): a strict order, so the pops are the same for any heap. */
class Events {
  private readonly heap: SlotEvent[] = [];
  private seq = 0;
  push(time: number, kind: 'sample' | 'step', sample?: Sample): SlotEvent {
    const ev = new SlotEvent(time, this.seq++, kind, sample);
    const h = this.heap;
    let i = h.length;
    h.push(ev);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p]!;
      if (!less(ev, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = ev;
    return ev;
  }
  pop(): SlotEvent | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    const n = h.length;
    if (n > 0 && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        let m = l;
        if (l + 1 < n && less(h[l + 1]!, h[l]!)) m = l + 1;
        if (!less(h[m]!, last)) break;
        h[i] = h[m]!;
        i = m;
      }
      h[i] = last;
    }
    return top;
  }
}
/** Free slots, lowest number first (a completion takes the lowest free slot). */
class FreeSlots {
  private readonly heap: number[];
  constructor(count: number) {
    this.heap = Array.from({ length: count }, (_, i) => i);
  }
  get size(): number {
    return this.heap.length;
  }
  push(slot: number): void {
    const h = this.heap;
    h.push(slot);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]! <= h[i]!) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }
  pop(): number {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l]! < h[m]!) m = l;
        if (r < h.length && h[r]! < h[m]!) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

const less = (a: SlotEvent, b: SlotEvent) => a.time < b.time || (a.time === b.time && a.seq < b.seq);

/** Generation slots (gen-workers × concurrency) the simulation holds at most. */
export const MAX_SLOTS = 1 << 20;

export function checkWorkload(w: AsyncWorkload): void {
  if (w.genWorkers * w.concurrency > MAX_SLOTS)
    throw configError([fact('async.slots', { slots: w.genWorkers * w.concurrency, max: MAX_SLOTS })]);
  if ((w.stepTime === null) === (w.trainTokensPerSecond === null)) throw configError([fact('async.step-time-or-rate')]);
}

/** Runs the workload under one framework's rule. */
export function simulate(workload: AsyncWorkload, rule: StalenessRule): AsyncResult {
  checkWorkload(workload);
  const { trainBatchSize: batch, k, steps: stepsWanted } = workload;
  const lengths = new PromptLengths(workload.lengths, k, workload.seed);
  const slotCount = workload.genWorkers * workload.concurrency;
  const free = new FreeSlots(slotCount);
  const running = new Map<number, { sample: Sample; event: SlotEvent }>();
  const pending = new SampleQueue();
  const events = new Events();
  const groups: Group[] = [];
  const inFlight: Group[] = [];
  const ready: Group[] = [];
  const dropped: Dropped[] = [];
  const steps: TrainedStep[] = [];
  /** Completions that finished (the length bias's "generated"), and those aborted part-way. */
  const generated: Sample[] = [];
  const aborted: Sample[] = [];
  let now = 0;
  let trainer = 0;
  let generator = 0;
  let trained = 0;
  /** Σ open over inFlight (RuleState.openCompletions). */
  let openCompletions = 0;
  let trainerBusy = false;
  let trainerFreeSince = 0;
  /** An update held back until the batch being generated finishes (WeightSync 'after-batch'). */
  let syncPending = false;
  /**
   * Whether what select reads may have changed since it last answered null: a group dispatched, finished or dropped, a
   * trainer step or a weight update (a completion that leaves its group open changes none of it). See StalenessRule.select.
   */
  let selectable = true;

  const state = (): RuleState => ({
    trainer,
    generator,
    batch,
    k,
    dispatched: groups.length,
    inFlight,
    openCompletions,
    ready,
    trained,
    droppedCount: dropped.length,
  });

  const remove = (list: Group[], g: Group) => {
    const i = list.indexOf(g);
    if (i >= 0) list.splice(i, 1);
  };

  const drop = (d: RuleDrop) => {
    selectable = true;
    const g = d.group;
    const wasInFlight = inFlight.includes(g);
    if (wasInFlight) {
      remove(inFlight, g);
      openCompletions -= g.open;
      // Abort: free its slots, forget its queued completions; what it generated so far counts as generated.
      for (const s of g.samples) {
        const r = running.get(s.slot);
        if (r && r.sample === s) {
          running.delete(s.slot);
          r.event.kind = 'sample';
          r.event.sample = undefined;
          s.length = Math.round((now - s.start) * workload.tokensPerSecond);
          s.end = now;
          free.push(s.slot);
          aborted.push(s);
        }
        pending.remove(s);
      }
    } else remove(ready, g);
    dropped.push({
      prompt: g.prompt,
      group: g.id,
      atVersion: trainer,
      time: round6(now),
      why: d.why,
      detail: d.detail,
      lag: wasInFlight ? null : rule.lag(g, trainer),
      lengths: g.samples.filter((s) => s.end >= 0 && s.end <= now).map((s) => s.length),
      requeued: false,
    });
  };

  const dispatch = () => {
    while (!syncPending && pending.length === 0 && free.size > 0) {
      const n = rule.admit(state());
      if (n <= 0) return;
      for (let i = 0; i < n; i++) {
        const id = groups.length;
        const avail = lengths.available;
        if (avail !== null && id >= avail) {
          if (i === 0) return;
          break;
        }
        const ls = lengths.lengths(id);
        const g: Group = {
          id,
          prompt: id,
          difficulty: lengths.difficulty(id),
          dispatchedAt: now,
          dispatchVersion: generator,
          stamp: null,
          samples: [],
          open: k,
          readyAt: null,
        };
        g.samples = ls.map((length, index) => ({ group: id, index, length, start: -1, end: -1, versions: [], slot: -1 }));
        groups.push(g);
        inFlight.push(g);
        openCompletions += k;
        selectable = true;
        pending.pushAll(g.samples);
        rule.dispatched(g, state());
      }
    }
  };

  const startSamples = () => {
    while (pending.length > 0 && free.size > 0) {
      const s = pending.shift()!;
      const slot = free.pop();
      s.slot = slot;
      s.start = now;
      s.versions = [generator];
      const event = events.push(now + s.length / workload.tokensPerSecond, 'sample', s);
      running.set(slot, { sample: s, event });
    }
  };

  const applyUpdate = () => {
    selectable = true;
    syncPending = false;
    generator = trainer;
    if (rule.weightSync === 'in-flight') for (const { sample } of running.values()) sample.versions.push(generator);
    rule.synced?.(state());
  };

  const tryTrain = () => {
    if (trainerBusy || syncPending || steps.length >= stepsWanted || !selectable) return;
    for (;;) {
      const sel = rule.select(state());
      if (!sel) {
        selectable = false;
        return;
      }
      for (const d of sel.dropped) drop(d);
      if (sel.take.length === 0) continue;
      const version = trainer;
      const step: TrainedStep = {
        step: steps.length,
        version,
        start: round6(now),
        end: 0,
        trainerIdle: round6(now - trainerFreeSince),
        generatorIdle: 0,
        byVersion: {},
        samples: [],
      };
      for (const g of sel.take) {
        remove(ready, g);
        trained += 1;
        const lag = rule.lag(g, version);
        for (const s of g.samples) {
          const v = s.versions[0]!;
          step.byVersion[v] = (step.byVersion[v] ?? 0) + 1;
          const wait = round6(now - s.end);
          // The keys in this order (the JSON's): version or versions, then lag and wait, then difficulty where known.
          const trained: TrainedSample =
            s.versions.length === 1
              ? { prompt: g.prompt, group: g.id, index: s.index, length: s.length, version: v, lag, wait }
              : { prompt: g.prompt, group: g.id, index: s.index, length: s.length, versions: [...s.versions], lag, wait };
          if (g.difficulty !== null) trained.difficulty = g.difficulty;
          step.samples.push(trained);
        }
      }
      if (rule.pack) packStep(step, rule.pack(step.samples.map((s) => s.length)));
      const duration = workload.stepTime ?? step.samples.reduce((t, s) => t + s.length, 0) / workload.trainTokensPerSecond!;
      step.end = round6(now + duration);
      steps.push(step);
      trainerBusy = true;
      events.push(now + duration, 'step');
      return;
    }
  };

  const afterUpdate = () => {
    for (const d of rule.afterUpdate(state())) drop(d);
  };

  /** Dispatch and start completions until neither moves (a group's completions take the free slots in order). */
  const fill = () => {
    for (;;) {
      const before = groups.length;
      dispatch();
      startSamples();
      if (groups.length === before) return;
    }
  };

  let guard = 0;
  fill();
  tryTrain();
  while (steps.length < stepsWanted || trainerBusy) {
    const ev = events.pop();
    if (!ev) {
      throw new ConfigError(
        `${rule.framework}: the run stalls after ${steps.length} of ${stepsWanted} steps: nothing is generating and the rule admits nothing more ` +
          `(${ready.length} ready groups, ${dropped.length} dropped); raise the staleness bound or give more prompts`,
      );
    }
    if (++guard > MAX_EVENTS)
      throw new ConfigError(`${rule.framework}: the run took over ${MAX_EVENTS} events; lower --steps or --train-batch-size`);
    now = ev.time;
    if (ev.kind === 'sample') {
      const s = ev.sample;
      if (!s) continue; // aborted
      running.delete(s.slot);
      free.push(s.slot);
      s.end = now;
      generated.push(s);
      if (generated.length > MAX_GENERATED) {
        throw new ConfigError(
          `${rule.framework}: generation ran ${MAX_GENERATED} completions ahead before step ${steps.length} of ${stepsWanted}: its rule lets the generators ` +
            'outrun the trainer; lower --gen-workers × --concurrency or --tokens-per-second, or --steps',
        );
      }
      const g = groups[s.group]!;
      g.open -= 1;
      openCompletions -= 1;
      if (g.open === 0) {
        selectable = true;
        g.readyAt = now;
        remove(inFlight, g);
        ready.push(g);
        rule.finished(g, state());
      }
      if (syncPending && inFlight.length === 0) {
        applyUpdate();
        afterUpdate();
      }
    } else {
      trainerBusy = false;
      trainerFreeSince = now;
      trainer += 1;
      selectable = true;
      if (trainer % rule.syncEvery === 0) {
        if (rule.weightSync === 'after-batch' && inFlight.length > 0) syncPending = true;
        else applyUpdate();
      }
      if (!syncPending) afterUpdate();
      if (steps.length >= stepsWanted) break;
    }
    fill();
    tryTrain();
    fill();
  }
  const decoding = [...running.values()].map(({ sample }) => ({ ...sample, end: now }));
  fillGeneratorIdle(steps, [...generated, ...aborted, ...decoding], slotCount, now);
  return {
    framework: rule.framework,
    settings: { ...rule.settings },
    lagDefinition: rule.lagDefinition,
    steps,
    dropped,
    summary: summarize(steps, dropped, generated, groups, now),
  };
}

/** Records the rule's packing of the step's samples; a sample the packer drops leaves the trained ones (and byVersion). */
function packStep(step: TrainedStep, packing: RulePacking): void {
  const samples = step.samples;
  const gone = new Set(packing.dropped);
  step.packing = {
    rows: packing.microBatches.map((ranks) => ranks.map((row) => row.reduce((t, i) => t + samples[i]!.length, 0))),
    dropped: packing.dropped.map((i) => {
      const s = samples[i]!;
      return { prompt: s.prompt, group: s.group, index: s.index, length: s.length, why: packing.why };
    }),
  };
  step.samples = samples.filter((_, i) => !gone.has(i));
  step.byVersion = {};
  for (const s of step.samples) {
    const v = s.versions?.[0] ?? s.version!;
    step.byVersion[v] = (step.byVersion[v] ?? 0) + 1;
  }
}

/** The completions waiting for a free slot, first in first out: a head index instead of Array.shift (10^5 of them). */
class SampleQueue {
  private items: Sample[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  pushAll(samples: readonly Sample[]): void {
    for (const s of samples) this.items.push(s);
  }

  shift(): Sample | undefined {
    if (this.head >= this.items.length) return undefined;
    const s = this.items[this.head++]!;
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return s;
  }

  /** Takes `s` out of the queue (an aborted group's completion that never started). */
  remove(s: Sample): void {
    const i = this.items.indexOf(s, this.head);
    if (i >= 0) this.items.splice(i, 1);
  }
}

/** Slot-seconds without a completion decoding, per step interval (previous step's end → this step's end). */
function fillGeneratorIdle(steps: TrainedStep[], samples: readonly Sample[], slots: number, end: number): void {
  const n = steps.length;
  const to = steps.map((step) => Math.min(step.end, end));
  const from = to.map((_, i) => (i === 0 ? 0 : to[i - 1]!));
  const busy = new Array<number>(n).fill(0);
  // Each sample adds to the intervals it overlaps, in the samples' order; elsewhere its share is 0 (x + 0 = x), so each
  // sum is the one a pass over every sample per interval makes. The intervals follow each other: the first it reaches
  // is the first ending after its start.
  for (const s of samples) {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (to[mid]! > s.start) hi = mid;
      else lo = mid + 1;
    }
    for (let j = lo; j < n && from[j]! < s.end; j++) busy[j]! += Math.max(0, Math.min(s.end, to[j]!) - Math.max(s.start, from[j]!));
  }
  steps.forEach((step, j) => {
    step.generatorIdle = round6(Math.max(0, slots * (to[j]! - from[j]!) - busy[j]!));
  });
}
