// SkyRL (NovaSky-AI/SkyRL @ a956457): skyrl/train/fully_async_trainer.py _AsyncStalenessManager, "modeled after AReaL's
// StalenessManager": a group may be submitted while
//   min(max_concurrent_generation_groups − running, (max_staleness_steps + current_global_step) × mini_batch_size − (accepted + running)) > 0,
// where current_global_step is the step being worked on (trainer version + 1). The trainer takes the first
// mini_batch_size groups to finish; a group that took longer than the bound is still trained ("we still accept the
// trajectory and log the staleness metrics with a warning"). After a step the trainer pauses generation, syncs the
// weights and resumes, so a completion can span versions. Lag: the step a group trains at − the step it was scheduled at.
import { type RuleDef, type RuleKey, type StalenessRule, fifo, settingsOf } from '../rule.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: 'trainer.fully_async.max_staleness_steps',
    flag: 'max-staleness',
    kind: 'int',
    default: 4,
    min: 0,
    about: 'a group scheduled at step i trains at step j ≤ i + max_staleness_steps (a capacity rule, not a per-group guarantee)',
  },
  {
    key: 'trainer.fully_async.num_parallel_generation_workers',
    flag: 'num-parallel-generation-workers',
    kind: 'int',
    default: 768,
    min: 1,
    about: 'groups generating at once (max_concurrent_generation_groups)',
  },
];

/** _AsyncStalenessManager's bookkeeping and capacity (its asyncio waiting left to the simulation). */
export class SkyrlStalenessManager {
  readonly stat = { submitted: 0, accepted: 0, running: 0, filtered: 0 };
  /** The step being worked on (trainer version + 1). */
  currentGlobalStep = 1;

  constructor(
    readonly maxConcurrentGenerationGroups: number,
    readonly miniBatchSize: number,
    readonly maxStalenessSteps: number,
  ) {}

  /** _compute_capacity_unlocked. */
  capacity(): number {
    const consumer = (this.maxStalenessSteps + this.currentGlobalStep) * this.miniBatchSize;
    const producerStaleness = consumer - (this.stat.accepted + this.stat.running);
    return Math.min(this.maxConcurrentGenerationGroups - this.stat.running, producerStaleness);
  }

  /** acquire_submission_slot once capacity > 0. */
  submitted(): void {
    this.stat.submitted += 1;
    this.stat.running += 1;
  }

  accepted(): void {
    this.stat.accepted += 1;
    this.stat.running -= 1;
  }

  filtered(): void {
    this.stat.accepted -= 1;
    this.stat.filtered += 1;
  }

  rejected(): void {
    this.stat.running -= 1;
  }
}

export const skyrlRule: RuleDef = {
  framework: 'skyrl',
  pinned: 'NovaSky-AI/SkyRL a956457',
  keys: KEYS,
  checkedBy:
    'test/fixtures/golden-async-skyrl.json: _AsyncStalenessManager and _RolloutStat exec’d from fully_async_trainer.py, ' +
    'deciding the admissions of scripted rollout loops',
  build(values, batch): StalenessRule {
    const maxStaleness = values['trainer.fully_async.max_staleness_steps'] as number;
    const maxGroups = values['trainer.fully_async.num_parallel_generation_workers'] as number;
    const manager = new SkyrlStalenessManager(maxGroups, batch, maxStaleness);
    return {
      framework: 'skyrl',
      settings: settingsOf(KEYS, values),
      weightSync: 'in-flight',
      syncEvery: 1,
      lagDefinition: 'the global step a group trains at − the global step it was scheduled at',
      admit(state) {
        manager.currentGlobalStep = state.trainer + 1;
        return manager.capacity() > 0 ? 1 : 0;
      },
      dispatched() {
        manager.submitted();
      },
      finished() {
        manager.accepted();
      },
      select: (state) => fifo(state),
      afterUpdate: () => [],
      lag: (group, trainer) => trainer - group.dispatchVersion,
    };
  },
};
