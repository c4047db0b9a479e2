// What a framework's staleness rule decides, as the simulation asks it: admission (may generation
// dispatch more prompts now?), selection (which ready groups the trainer's next step takes, and which it
// drops at consumption), eviction and aborts at a weight update, and the framework's own definition of lag.
import type { DropReason, Group } from './types.ts';

/** When the generators take new weights. */
export type WeightSync =
  /** Paused and resumed: in-flight completions continue under the new weights, so one can span several versions. */
  | 'in-flight'
  /** Only completions started after the update use it; running ones finish under their start weights. */
  | 'next-sample'
  /** The update waits until the batch being generated has finished (the trainer waits too). */
  | 'after-batch';

/** What the rule sees of the run. */
export interface RuleState {
  /** The trainer's version: updates done (the next step trains at this version). */
  readonly trainer: number;
  /** The weights the generators hold. */
  readonly generator: number;
  /** Prompts per trainer step (train-batch-size). */
  readonly batch: number;
  /** Completions per prompt. */
  readonly k: number;
  /** Groups dispatched so far. */
  readonly dispatched: number;
  /** Dispatched groups still generating (not aborted). */
  readonly inFlight: readonly Group[];
  /** Σ open over inFlight: the completions dispatched and not yet finished (queued or decoding), kept as they change. */
  readonly openCompletions: number;
  /** Finished groups not yet trained or dropped, in the order they finished. */
  readonly ready: readonly Group[];
  /** Groups trained so far. */
  readonly trained: number;
  /** Groups dropped so far (at consumption, evicted or aborted). */
  readonly droppedCount: number;
}

export interface RuleDrop {
  group: Group;
  why: DropReason;
  detail: string;
}

export interface Selection {
  /** The groups the step trains, in batch order. */
  take: Group[];
  /** Groups the trainer pulled and threw away (drop at consumption). */
  dropped: RuleDrop[];
}

/** One setting of a rule: the framework's own name, the CLI flag, the shipped default. */
export interface RuleKey {
  /** The framework's own key (config path or CLI flag as written in its source). */
  key: string;
  /** The sandbox's flag: the kebab-case of the key's last part, or `max-staleness` for the main bound. */
  flag: string;
  kind: 'int' | 'float' | 'bool' | 'choice';
  /** The names a 'choice' takes. */
  choices?: readonly string[];
  /** The shipped default; null where the framework derives it (the about says from what). */
  default: number | boolean | string | null;
  min?: number;
  about: string;
  /**
   * A setting of the trainer's packer, applied after the rule admits a step's samples (TRL async's token_budget): the
   * async command shows its rows and the samples it drops; train --async, which trains every admitted sample, does not
   * take it.
   */
  packer?: true;
}

export interface StalenessRule {
  readonly framework: string;
  /** Its settings by the framework's own names. */
  readonly settings: Readonly<Record<string, number | boolean | string>>;
  readonly weightSync: WeightSync;
  /** Trainer steps between weight updates of the generators (verl's trigger_parameter_sync_step; 1 elsewhere). */
  readonly syncEvery: number;
  /** What the framework calls lag, in words. */
  readonly lagDefinition: string;
  /** How many groups to dispatch now as one batch (0: wait). Called only when a slot is free and nothing waits for one. */
  admit(state: RuleState): number;
  /** A group was dispatched (reserve a buffer slot, stamp it). */
  dispatched(group: Group, state: RuleState): void;
  /** A group's last completion finished. */
  finished(group: Group, state: RuleState): void;
  /** The generators just took new weights (state.generator). */
  synced?(state: RuleState): void;
  /**
   * The next step's batch, or null to wait for more. After a null the simulation asks again only once a group was
   * dispatched, finished or dropped, the trainer stepped or the generators took new weights: until then the answer must
   * stay null (select reads neither openCompletions nor a completion's progress).
   */
  select(state: RuleState): Selection | null;
  /** After a weight update: ready groups dropped and in-flight groups aborted. */
  afterUpdate(state: RuleState): RuleDrop[];
  /** The group's lag by the framework's definition when trained at `trainer`. */
  lag(group: Group, trainer: number): number;
  /** How the trainer packs a step's samples (lengths in pull order) into micro-batches of per-rank rows (TRL async only). */
  pack?(lengths: readonly number[]): RulePacking;
}

export interface RulePacking {
  /** Per micro-batch, per rank: indices into the lengths. */
  microBatches: number[][][];
  /** Indices of samples the packer drops (not trained). */
  dropped: number[];
  /** The framework's words for a drop. */
  why: string;
}

/** The first `batch` ready groups in the order they finished (AReaL, SkyRL, prime-rl, OpenRLHF…): a FIFO queue. */
export function fifo(
  state: RuleState,
  keep: (g: Group) => boolean = () => true,
  why: DropReason = 'stale-at-consumption',
  detail = '',
): Selection | null {
  const take: Group[] = [];
  const dropped: RuleDrop[] = [];
  for (const g of state.ready) {
    if (take.length === state.batch) break;
    if (keep(g)) take.push(g);
    else dropped.push({ group: g, why, detail });
  }
  if (take.length < state.batch) {
    // The trainer pulls and drops as samples arrive, so drops happen even when the batch is not full yet.
    return dropped.length > 0 ? { take: [], dropped } : null;
  }
  return { take, dropped };
}

/** Oldest version of a group (the version its first token was generated with). */
export function startVersion(group: Group): number {
  return Math.min(...group.samples.map((s) => s.versions[0]!));
}

/** A setting's value as given or defaulted (null: derived). */
export type RuleValues = Readonly<Record<string, number | boolean | string | null>>;

/** One framework's rule: its settings and how to build it. */
export interface RuleDef {
  framework: string;
  /** Repository and commit the rule was read from. */
  pinned: string;
  keys: readonly RuleKey[];
  /** `batch`, `k` and `genWorkers` are the workload's (train-batch-size, k, gen-workers), which some rules size themselves by. */
  build(values: RuleValues, batch: number, k: number, genWorkers: number): StalenessRule;
  /** How the rule was checked against the framework's code. */
  checkedBy: string;
}

/** The settings as the result reports them: every key, derived ones by their value. */
export function settingsOf(
  keys: readonly RuleKey[],
  values: RuleValues,
  derived: Record<string, number> = {},
): Record<string, number | boolean | string> {
  const out: Record<string, number | boolean | string> = {};
  for (const key of keys) out[key.key] = values[key.key] ?? derived[key.key] ?? 0;
  return out;
}
