// OpenRLHF's asynchronous PPO trainer (OpenRLHF/OpenRLHF @ 3c3be62, openrlhf/trainer/ppo_trainer_async.py). A token
// pool of async_queue_size slots bounds generation: the generator takes a token, generates a whole batch
// (generate_samples: train-batch-size prompts × k) and puts it on a queue of the same size; the trainer returns the
// token as soon as it takes a batch, trains, then broadcasts the weights. Without partial_rollout_enable the generator
// holds a lock for the whole batch, so the broadcast (and the trainer) wait for the batch being generated to finish;
// with it the broadcast pauses and resumes vLLM, so running samples mix weights. Nothing is dropped for staleness.
// Lag: trainer version − the weights the batch started generating with (≤ async_queue_size in steady state).
import { ConfigError } from '../../errors.ts';
import { type RuleDef, type RuleKey, type StalenessRule, settingsOf } from '../rule.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: '--train.async_queue_size',
    flag: 'max-staleness',
    kind: 'int',
    default: 1,
    min: 1,
    about: 'batches generated ahead of the trainer (a token pool); must be positive',
  },
  {
    key: '--train.partial_rollout_enable',
    flag: 'partial-rollout-enable',
    kind: 'bool',
    default: false,
    about: 'broadcast under running generation (pause/resume), so samples mix weights; off: the broadcast waits for the batch',
  },
];

export const openrlhfRule: RuleDef = {
  framework: 'openrlhf',
  pinned: 'OpenRLHF/OpenRLHF 3c3be62',
  keys: KEYS,
  checkedBy: 'transcribed from ppo_trainer_async.py (Ray actors and queues): the token pool, the lock and the queue',
  build(values, batch): StalenessRule {
    const queueSize = values['--train.async_queue_size'] as number;
    if (queueSize <= 0) throw new ConfigError(`ValueError: async_queue_size must be positive, got ${queueSize} (OpenRLHF 3c3be62)`);
    const partial = values['--train.partial_rollout_enable'] as boolean;
    return {
      framework: 'openrlhf',
      settings: settingsOf(KEYS, values),
      weightSync: partial ? 'in-flight' : 'after-batch',
      syncEvery: 1,
      lagDefinition: 'trainer version − the weights the batch started generating with',
      // One batch at a time, while a token is free: batches generated or queued and not yet taken < async_queue_size.
      admit: (state) => (state.inFlight.length === 0 && state.dispatched - state.trained < queueSize * batch ? batch : 0),
      dispatched() {},
      finished() {},
      // The queue holds whole batches: the oldest batch, once all its groups are done, in the order they finished.
      select(state) {
        if (state.ready.length < batch) return null;
        const oldest = Math.floor(Math.min(...state.ready.map((g) => g.id)) / batch);
        const take = state.ready.filter((g) => Math.floor(g.id / batch) === oldest);
        return take.length === batch ? { take, dropped: [] } : null;
      },
      afterUpdate: () => [],
      lag: (group, trainer) => trainer - group.dispatchVersion,
    };
  },
};
