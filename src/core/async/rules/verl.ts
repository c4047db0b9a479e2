// verl's fully asynchronous trainer (volcengine/verl @ b178a3c, verl/experimental/fully_async_policy and
// docs/advance/fully_async.md). The trainer takes required_samples = ppo_mini_batch_size × require_batches prompts per
// local update (the sandbox's train-batch-size) and syncs the parameters every trigger_parameter_sync_step updates. The
// rollouter (fully_async_rollouter.py) pauses when its queue holds max_queue_size samples or when staleness_samples
// ≥ max_required_samples = int(required_samples × (staleness_threshold + 1) × trigger_parameter_sync_step); it counts one
// staleness sample per prompt taken from the pending queue and, at each parameter update, resets the count to the
// active tasks + the cancel queue + the message queue. Concurrency: min(servers × 16, max_required_samples). With
// partial_rollout the sync cancels running tasks and resumes them under the new parameters (a sample spans versions);
// without it the sync waits for them. Nothing is dropped. Lag: parameter versions (syncs) between a sample's and the trainer's.
import { type RuleDef, type RuleKey, type StalenessRule, fifo, settingsOf } from '../rule.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: 'async_training.staleness_threshold',
    flag: 'max-staleness',
    kind: 'float',
    default: 0.1,
    min: 0,
    about: 'the fraction of stale samples allowed (fully_async_ppo_trainer.yaml: 0.1; the rollouter reads 1 when unset); 0 = synchronous',
  },
  {
    key: 'async_training.trigger_parameter_sync_step',
    flag: 'trigger-parameter-sync-step',
    kind: 'int',
    default: 4,
    min: 1,
    about: 'local updates between parameter syncs',
  },
  {
    key: 'async_training.partial_rollout',
    flag: 'partial-rollout',
    kind: 'bool',
    default: true,
    about: 'the sync interrupts running samples and resumes them under the new parameters',
  },
];

/** The rollouter's pause bound: int(required_samples × (staleness_threshold + 1) × trigger_parameter_sync_step). */
export function maxRequiredSamples(requiredSamples: number, stalenessThreshold: number, triggerSyncStep: number): number {
  return Math.floor(requiredSamples * (stalenessThreshold + 1) * triggerSyncStep);
}

export const verlRule: RuleDef = {
  framework: 'verl',
  pinned: 'volcengine/verl b178a3c',
  keys: KEYS,
  checkedBy:
    'transcribed from fully_async_rollouter.py (set_max_required_samples, update_param_version, _should_pause_generation): Ray actors; ' +
    'max_required_samples is checked against the formula in docs/advance/fully_async.md',
  build(values, batch, _k, genWorkers): StalenessRule {
    const threshold = values['async_training.staleness_threshold'] as number;
    const trigger = values['async_training.trigger_parameter_sync_step'] as number;
    const partial = values['async_training.partial_rollout'] as boolean;
    const maxRequired = maxRequiredSamples(batch, threshold, trigger);
    // set_max_required_samples: len(server_handles) × 16, at most max_required_samples (one server per gen-worker).
    const maxConcurrent = Math.min(genWorkers * 16, maxRequired);
    let stalenessSamples = 0;
    return {
      framework: 'verl',
      settings: settingsOf(KEYS, values),
      weightSync: partial ? 'in-flight' : 'after-batch',
      syncEvery: trigger,
      lagDefinition: 'the trainer’s parameter version − the parameter version the sample was generated with (one version per sync)',
      synced(state) {
        stalenessSamples = state.inFlight.length + state.ready.length;
      },
      admit(state) {
        if (state.ready.length >= maxRequired || stalenessSamples >= maxRequired) return 0;
        return state.inFlight.length < maxConcurrent ? 1 : 0;
      },
      dispatched() {
        stalenessSamples += 1;
      },
      finished() {},
      select: (state) => fifo(state),
      afterUpdate: () => [],
      lag: (group, trainer) => Math.floor(trainer / trigger) - Math.floor(group.dispatchVersion / trigger),
    };
  },
};
