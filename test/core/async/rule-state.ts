// A hand-driven RuleState for replaying the frameworks' traces through a rule exactly as the simulation calls it.
import type { RuleState } from '../../../src/core/async/rule.ts';
import type { Group } from '../../../src/core/async/types.ts';

export class TraceState implements RuleState {
  trainer = 0;
  generator = 0;
  dispatched = 0;
  inFlight: Group[] = [];
  ready: Group[] = [];

  /** Σ open over inFlight, as the simulation keeps it. */
  get openCompletions(): number {
    return this.inFlight.reduce((n, g) => n + g.open, 0);
  }

  trained = 0;
  droppedCount = 0;
  readonly groups: Group[] = [];

  constructor(
    readonly batch: number,
    readonly k: number,
  ) {}

  /** A new group as the simulation dispatches it (prompt = id = dispatch order). */
  dispatch(): Group {
    const id = this.groups.length;
    const g: Group = {
      id,
      prompt: id,
      difficulty: null,
      dispatchedAt: 0,
      dispatchVersion: this.generator,
      stamp: null,
      samples: [],
      open: this.k,
      readyAt: null,
    };
    this.groups.push(g);
    this.inFlight.push(g);
    this.dispatched += 1;
    return g;
  }

  finish(id: number): Group {
    const g = this.groups[id]!;
    this.inFlight.splice(this.inFlight.indexOf(g), 1);
    g.open = 0;
    this.ready.push(g);
    return g;
  }

  /** The groups leave the buffer (trained, dropped or aborted). */
  remove(groups: readonly Group[], trained: boolean): void {
    for (const g of groups) {
      for (const list of [this.ready, this.inFlight]) {
        const i = list.indexOf(g);
        if (i >= 0) list.splice(i, 1);
      }
    }
    if (trained) this.trained += groups.length;
    else this.droppedCount += groups.length;
  }
}
