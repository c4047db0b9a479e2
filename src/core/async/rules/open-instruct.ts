// open-instruct grpo_fast (allenai/open-instruct @ e6c3044). The data-preparation actor first pushes
// async_steps × num_unique_prompts_rollout prompts, then each result it processes (kept, filtered or dropped as stale)
// replenishes one prompt (process_group, accumulate_inference_batches with replenish_prompts=True), so that many
// prompts are always outstanding. vLLM stamps each request with the engine's model_step when it is added
// (vllm_utils.add_request); with inflight_updates (default True) a weight broadcast lands under running requests, so a
// response can span versions; without it the update waits for the active requests to finish. Accumulating batch
// `training_step`, a result is dropped when result_is_stale(model_step, training_step, max_result_age_steps =
// async_steps): training_step − model_step > max_result_age_steps. The sandbox merges the preparation actor's look-ahead
// into the trainer's pull: batch t is accumulated when step t can start, judged against t as open-instruct judges it.
import { type RuleDef, type RuleKey, type StalenessRule, fifo, settingsOf } from '../rule.ts';

const KEYS: readonly RuleKey[] = [
  {
    key: 'async_steps',
    flag: 'max-staleness',
    kind: 'int',
    default: 8,
    min: 1,
    about: 'batches of prompts kept outstanding, and max_result_age_steps (must be ≥ 1: "Fully synchronous training is not supported")',
  },
  {
    key: 'inflight_updates',
    flag: 'inflight-updates',
    kind: 'bool',
    default: true,
    about: 'weight updates land under running requests (a response spans versions); false: the update waits for them to finish',
  },
];

/** data_loader.result_is_stale. */
export function resultIsStale(modelStep: number | null, trainingStep: number | null, maxResultAgeSteps: number | null): boolean {
  if (maxResultAgeSteps === null || trainingStep === null || modelStep === null) return false;
  return trainingStep - modelStep > maxResultAgeSteps;
}

export const openInstructRule: RuleDef = {
  framework: 'open-instruct',
  pinned: 'allenai/open-instruct e6c3044',
  keys: KEYS,
  checkedBy:
    'test/fixtures/golden-async-predicates.json: result_is_stale exec’d from open_instruct/data_loader.py; the prompt pool is transcribed',
  build(values, batch): StalenessRule {
    const asyncSteps = values.async_steps as number;
    const inflight = values.inflight_updates as boolean;
    return {
      framework: 'open-instruct',
      settings: settingsOf(KEYS, values),
      weightSync: inflight ? 'in-flight' : 'after-batch',
      syncEvery: 1,
      lagDefinition: 'training_step − the model_step stamped on the request when vLLM added it',
      admit: (state) => (state.dispatched - state.trained - state.droppedCount < asyncSteps * batch ? 1 : 0),
      dispatched() {},
      finished() {},
      select: (state) =>
        fifo(
          state,
          (g) => !resultIsStale(g.dispatchVersion, state.trainer, asyncSteps),
          'stale-at-consumption',
          `result_is_stale: lag > max_result_age_steps=${asyncSteps}; a fresh prompt replaces it`,
        ),
      afterUpdate: () => [],
      lag: (group, trainer) => trainer - group.dispatchVersion,
    };
  },
};
