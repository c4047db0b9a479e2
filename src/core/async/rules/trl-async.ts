// TRL's asynchronous GRPO (trl.experimental.async_grpo, the trl 1.13.0 wheel). The rollout worker starts one task per
// completion while it has one of max_inflight_tasks slots (default −1 → max(max_staleness, 1) × samples_per_step,
// async_grpo_trainer.py), tags a group with the model_version current when its first task starts, and puts the scored
// group's samples on the queue. The trainer pulls samples (RolloutQueueDataset.__iter__) and drops each whose
// `version − sample.model_version > max_staleness`; a group's samples share model_version, so they go together.
// A weight sync pauses vLLM and resumes it (weight_transfer pause/resume): running completions continue under the
// new weights. Lag ("staleness"): the trainer's model_version − the sample's model_version.
// The trainer then packs the samples it pulls into micro-batches of num_processes rows (trl-async-packing.ts).
import { type RuleDef, type RuleKey, type StalenessRule, fifo, settingsOf } from '../rule.ts';
import { balanceBySquaredLength, packByTokenBudget } from './trl-async-packing.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: 'max_staleness',
    flag: 'max-staleness',
    kind: 'int',
    default: 4,
    min: 0,
    about: 'weight updates a sample may lag at consumption; beyond it the trainer drops it and pulls the next',
  },
  {
    key: 'max_inflight_tasks',
    flag: 'max-inflight-tasks',
    kind: 'int',
    default: null,
    min: 1,
    about: 'completions generating at once; −1 (null here) = max(max_staleness, 1) × samples_per_step (prompts × k per step)',
  },
  {
    key: 'token_budget',
    flag: 'token-budget',
    kind: 'int',
    default: null,
    packer: true,
    about:
      'tokens per row (one rank’s forward): > 0 packs each step’s samples with TokenBudgetBatcher and drops a sample longer than it; ' +
      '≤ 0 balances them as one fixed-count micro-batch; None (null here) = the vLLM server’s max_model_len, which no sample exceeds (rows not reported)',
  },
  {
    key: 'num_processes',
    flag: 'num-processes',
    kind: 'int',
    default: 1,
    packer: true,
    min: 1,
    about: 'DP ranks (accelerate’s num_processes): the rows of each micro-batch',
  },
];

/** RolloutQueueDataset.__iter__'s drop predicate. */
export function trlIsStale(version: number, sampleVersion: number, maxStaleness: number): boolean {
  return version - sampleVersion > maxStaleness;
}

export const trlAsyncRule: RuleDef = {
  framework: 'trl-async',
  pinned: 'huggingface/trl 1.13.0 (wheel)',
  keys: KEYS,
  checkedBy:
    'test/fixtures/golden-async-predicates.json: RolloutQueueDataset.__iter__ run from the wheel on scripted queues (which samples it yields and drops)',
  build(values, batch, k): StalenessRule {
    const maxStaleness = values.max_staleness as number;
    const maxInflight = (values.max_inflight_tasks as number | null) ?? Math.max(maxStaleness, 1) * batch * k;
    const budget = values.token_budget as number | null;
    const ranks = values.num_processes as number;
    return {
      framework: 'trl-async',
      settings: { ...settingsOf(KEYS, values, { max_inflight_tasks: maxInflight }), token_budget: budget ?? 'max_model_len' },
      weightSync: 'in-flight',
      syncEvery: 1,
      lagDefinition: 'the trainer’s model_version − the model_version when the group’s first completion started',
      // Tasks start one completion at a time; the sandbox dispatches a group once all its k fit (or, below k slots, alone).
      admit(state) {
        const open = state.openCompletions;
        return open + k <= maxInflight || open === 0 ? 1 : 0;
      },
      dispatched() {},
      finished() {},
      select: (state) =>
        fifo(
          state,
          (g) => !trlIsStale(state.trainer, g.dispatchVersion, maxStaleness),
          'stale-at-consumption',
          `dropping stale sample (staleness > max=${maxStaleness})`,
        ),
      afterUpdate: () => [],
      lag: (group, trainer) => trainer - group.dispatchVersion,
      ...(budget === null
        ? {}
        : {
            pack: (lengths: readonly number[]) =>
              budget > 0
                ? { ...packByTokenBudget(lengths, ranks, budget), why: `longer than token_budget=${budget}` }
                : { microBatches: [balanceBySquaredLength(lengths, ranks)], dropped: [], why: '' },
          }),
    };
  },
};
