// NeMo RL's single-controller async loop (NVIDIA-NeMo/RL @ 7ea279a, nemo_rl/algorithms/single_controller.py with
// async_rl.sampler from async_utils/staleness_sampler.py). The rollout pump asks the sampler to admit a batch of
// num_prompts_per_step prompts, then dispatches each while it holds one of max_inflight_prompts and one of
// max_buffered_rollouts permits; a rollout reserves a buffer slot stamped with its start weight and commits it when
// done. The train pump evicts, then selects in chunks of min(min_groups_for_streaming_train, groups still missing)
// until the step is full, all at one trainer version. Before each weight sync, in-flight rollouts the sampler can no
// longer select are aborted (_abort_stale_inflight); the sync itself leaves in-flight generation running (vLLM V1
// updates weights during pending requests). Lag ("age"): trainer version − the rollout's start weight.
// The four built-in policies are the home's StalenessSampler (src/core/frameworks/nemo-rl/staleness.ts);
// custom loads a PromptGroupSampler from async_rl.sampler.target ("module:ClassName"), outside code the sandbox cannot run.
import { configError, fact } from '../../messages/index.ts';
import { StalenessSampler } from '../../frameworks/nemo-rl/staleness.ts';
import { type RuleDef, type RuleDrop, type RuleKey, type StalenessRule, settingsOf } from '../rule.ts';
import type { Group } from '../types.ts';

export const NEMO_POLICIES = ['windowed', 'ready_first', 'weight_fifo', 'in_order', 'custom'] as const;

const KEYS: readonly RuleKey[] = [
  {
    key: 'async_rl.sampler.name',
    flag: 'sampler-policy',
    kind: 'choice',
    choices: NEMO_POLICIES,
    default: 'windowed',
    about:
      'windowed: no admission gate, select and keep groups whose start weight is in [v − s, v], evict and abort the rest; ' +
      'ready_first: generation ≤ s batches ahead, any ready group trains, nothing is dropped; weight_fifo: gated, oldest start weight first, ' +
      'waiting for its stragglers; in_order: gated, batch i trains at step i; custom: a PromptGroupSampler from async_rl.sampler.target (not simulated)',
  },
  {
    key: 'async_rl.sampler.max_staleness_versions',
    flag: 'max-staleness',
    kind: 'int',
    default: 1,
    min: 0,
    about: 'windowed / ready_first / weight_fifo: the weight window (and the gate of the gated ones)',
  },
  {
    key: 'async_rl.sampler.max_lookahead_versions',
    flag: 'max-lookahead-versions',
    kind: 'int',
    default: 1,
    min: 0,
    about: 'in_order: how many batches generation may run ahead of the trainer',
  },
  {
    key: 'async_rl.sampler.sample_freshest_first',
    flag: 'sample-freshest-first',
    kind: 'bool',
    default: false,
    about: 'windowed: pick the smallest lag first instead of buffer order',
  },
  {
    key: 'async_rl.max_inflight_prompts',
    flag: 'max-inflight-prompts',
    kind: 'int',
    default: 32,
    min: 1,
    about: 'groups generating at once',
  },
  {
    key: 'async_rl.max_buffered_rollouts',
    flag: 'max-buffered-rollouts',
    kind: 'int',
    default: 64,
    min: 1,
    about: 'groups dispatched and not yet trained or dropped (backpressure)',
  },
  {
    key: 'async_rl.min_groups_for_streaming_train',
    flag: 'min-groups-for-streaming-train',
    kind: 'int',
    default: 32,
    min: 1,
    about: 'the train pump selects at least min(this, groups still missing) ready groups at a time',
  },
];

export function makeSampler(name: string, staleness: number, lookahead: number, freshestFirst: boolean): StalenessSampler {
  if (name === 'windowed') return new StalenessSampler({ name, maxStalenessVersions: staleness, sampleFreshestFirst: freshestFirst });
  if (name === 'ready_first') return new StalenessSampler({ name, maxStalenessVersions: staleness });
  if (name === 'weight_fifo') return new StalenessSampler({ name, maxStalenessVersions: staleness });
  if (name === 'in_order') return new StalenessSampler({ name, maxStalenessVersions: lookahead });
  throw configError([fact('async.nemo-custom')]);
}

export const nemoRlRule: RuleDef = {
  framework: 'nemo-rl',
  pinned: 'NVIDIA-NeMo/RL 7ea279a',
  keys: KEYS,
  checkedBy:
    'test/fixtures/golden-async-nemo-rl.json: the four built-in samplers and TQReplayBuffer exec’d from the checkout on scripted traces ' +
    '(admit, select, evict, abort after every event); the pumps around them are transcribed from single_controller.py',
  build(values, batch): StalenessRule {
    const name = values['async_rl.sampler.name'] as string;
    const sampler = makeSampler(
      name,
      values['async_rl.sampler.max_staleness_versions'] as number,
      values['async_rl.sampler.max_lookahead_versions'] as number,
      values['async_rl.sampler.sample_freshest_first'] as boolean,
    );
    const maxInflight = values['async_rl.max_inflight_prompts'] as number;
    const maxBuffered = values['async_rl.max_buffered_rollouts'] as number;
    const minStreaming = values['async_rl.min_groups_for_streaming_train'] as number;
    const byId = new Map<string, Group>();
    let batchLeft = 0;
    let stamp: number | null = null;
    let collected: Group[] = [];
    return {
      framework: 'nemo-rl',
      settings: settingsOf(KEYS, values),
      weightSync: 'in-flight',
      syncEvery: 1,
      lagDefinition: 'trainer version − the start weight of the rollout (the weight version when it was reserved)',
      admit(state) {
        if (batchLeft === 0) {
          const a = sampler.admit(state.trainer);
          if (a.blocked) return 0;
          batchLeft = batch;
          stamp = a.stamp;
        }
        const inflightPermits = maxInflight - state.inFlight.length;
        const bufferPermits = maxBuffered - (state.dispatched - state.trained - state.droppedCount);
        return Math.max(0, Math.min(batchLeft, inflightPermits, bufferPermits));
      },
      dispatched(group) {
        group.stamp = stamp;
        sampler.reserve(String(group.id), group.dispatchVersion, stamp);
        byId.set(String(group.id), group);
        batchLeft -= 1;
      },
      finished(group) {
        sampler.commit(String(group.id));
      },
      select(state) {
        const dropped: RuleDrop[] = sampler.evict(state.trainer).map((id) => ({
          group: byId.get(id)!,
          why: 'evicted',
          detail: `${name}: ready group outside the sampler's window at v${state.trainer}`,
        }));
        for (;;) {
          const max = batch - collected.length;
          if (max <= 0) break;
          const ids = sampler.select(state.trainer, Math.min(minStreaming, max), max);
          if (!ids) break;
          collected.push(...ids.map((id) => byId.get(id)!));
        }
        if (collected.length === batch) {
          const take = collected;
          collected = [];
          return { take, dropped };
        }
        return dropped.length > 0 ? { take: [], dropped } : null;
      },
      afterUpdate(state) {
        const aborted = state.inFlight.filter((g) => sampler.shouldAbortInflight(g.dispatchVersion, state.trainer));
        for (const g of aborted) sampler.removeGroup(String(g.id));
        return aborted.map((group) => ({
          group,
          why: 'aborted-in-flight',
          detail: `${name}: should_abort_inflight before the weight sync`,
        }));
      },
      lag: (group, trainer) => trainer - group.dispatchVersion,
    };
  },
};
