// AReaL (inclusionAI/AReaL @ 4aef98d): admission by StalenessManager.get_capacity (areal/infra/staleness_manager.py,
// the home's src/core/frameworks/areal/staleness.ts, reused here), one rollout task per prompt group; the trainer takes
// the first consumer_batch_size groups to finish (the output queue); nothing is dropped for staleness. Generation is
// interruptible: at a weight update the engines pause and resume, so a completion can span versions
// (pause_generation / continue_generation). Lag: trainer version − the version the rollout was submitted at
// ("head off-policyness").
import { StalenessManager } from '../../frameworks/areal/staleness.ts';
import { type RuleDef, type RuleKey, type StalenessRule, fifo, settingsOf } from '../rule.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: 'rollout.max_head_offpolicyness',
    flag: 'max-staleness',
    kind: 'int',
    default: 0,
    min: 0,
    about: 'versions a rollout may lag (get_capacity); default 0 = synchronous, the GRPO example examples/math/gsm8k_grpo.yaml sets 2',
  },
  {
    key: 'rollout.max_concurrent_rollouts',
    flag: 'max-concurrent-rollouts',
    kind: 'int',
    default: null,
    min: 1,
    about: 'rollout tasks (groups) in flight at once; null = consumer_batch_size (the example sets 256)',
  },
];

export const arealRule: RuleDef = {
  framework: 'areal',
  pinned: 'inclusionAI/AReaL 4aef98d',
  keys: KEYS,
  checkedBy:
    'test/fixtures/golden-async-areal.json: StalenessManager exec’d from the checkout, deciding the admissions of scripted rollout loops',
  build(values, batch): StalenessRule {
    const maxStaleness = values['rollout.max_head_offpolicyness'] as number;
    const maxConcurrent = (values['rollout.max_concurrent_rollouts'] as number | null) ?? batch;
    const manager = new StalenessManager(maxConcurrent, batch, maxStaleness);
    return {
      framework: 'areal',
      settings: settingsOf(KEYS, values, { 'rollout.max_concurrent_rollouts': maxConcurrent }),
      weightSync: 'in-flight',
      syncEvery: 1,
      lagDefinition: 'trainer version − the version the rollout was submitted at (head off-policyness)',
      admit(state) {
        manager.version = state.trainer;
        return manager.capacity() > 0 ? 1 : 0;
      },
      dispatched() {
        manager.enqueued();
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
