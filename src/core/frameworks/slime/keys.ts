// slime's settings as its launch command line spells them (flags without dashes), with the defaults
// of its argparse parser at THUDM/slime 624b824 (slime/utils/arguments.py; the parallel sizes and the
// model shape are Megatron-LM's own flags, which slime's parser extends).
import type { FrameworkKey } from '../types.ts';

/** The advantage estimators `--advantage-estimator` accepts (arguments.py add_algo_arguments). */
export const ADVANTAGE_ESTIMATORS = ['grpo', 'gspo', 'cispo', 'reinforce_plus_plus', 'reinforce_plus_plus_baseline', 'ppo'] as const;

/** The model-shape flags slime's flops_utils.calculate_fwd_flops reads (only for --balance-data / --balance-by-flops). */
export const MODEL_FLAGS = [
  'num-layers',
  'hidden-size',
  'ffn-hidden-size',
  'num-attention-heads',
  'num-query-groups',
  'kv-channels',
  'vocab-size',
] as const;

const model = (key: (typeof MODEL_FLAGS)[number], about: string): FrameworkKey => ({
  key,
  flag: key,
  kind: 'int',
  default: null,
  about: `Megatron model shape (no default; the model script sets it): ${about}; only the FLOPs estimate of --balance-data reads it`,
});

export const keys: readonly FrameworkKey[] = [
  {
    key: 'rollout-batch-size',
    flag: 'train-batch-size',
    kind: 'int',
    default: null,
    about: 'prompts per rollout (required=True in slime: no default); each rollout is trained on before the next is generated',
  },
  {
    key: 'n-samples-per-prompt',
    flag: 'k',
    kind: 'int',
    default: 1,
    about: 'responses per prompt; each prompt becomes a group of n deep copies',
  },
  {
    key: 'global-batch-size',
    flag: 'global-batch-size',
    kind: 'int',
    default: null,
    about:
      'samples (rollouts) per optimizer step; unset: rollout-batch-size × n / num-steps-per-rollout, else Megatron sets micro-batch-size × DP',
  },
  {
    key: 'num-steps-per-rollout',
    flag: 'num-steps-per-rollout',
    kind: 'int',
    default: null,
    about: 'sets global-batch-size = rollout-batch-size × n // this (must agree with --global-batch-size when both are given)',
  },
  {
    key: 'micro-batch-size',
    flag: 'micro-batch-size',
    kind: 'int',
    default: 1,
    about: 'samples per micro-batch; ignored under --use-dynamic-batch-size',
  },
  {
    key: 'rollout-shuffle',
    flag: 'shuffle',
    kind: 'bool',
    default: false,
    about: 'shuffle the prompts each epoch with Python random seeded rollout-seed + epoch',
  },
  { key: 'rollout-seed', flag: 'seed', kind: 'int', default: 42, about: 'seed of the prompt shuffle (random.seed(rollout_seed + epoch))' },
  {
    key: 'use-dynamic-batch-size',
    flag: 'use-dynamic-batch-size',
    kind: 'bool',
    default: false,
    about: 'first-fit micro-batches of at most max-tokens-per-gpu × CP tokens instead of fixed micro-batch-size',
  },
  {
    key: 'max-tokens-per-gpu',
    flag: 'max-tokens-per-gpu',
    kind: 'int',
    default: null,
    about: 'token budget of a micro-batch per GPU (required by dynamic batching)',
  },
  {
    key: 'balance-data',
    flag: 'balance-data',
    kind: 'bool',
    default: false,
    about: 'hand micro-batches to ranks by Karmarkar–Karp on estimated FLOPs instead of round-robin',
  },
  {
    key: 'balance-by-flops',
    flag: 'balance-by-flops',
    kind: 'bool',
    default: false,
    about: 'micro-batches by Karmarkar–Karp on FLOPs (needs dynamic batching; turns on balance-data) — not simulated here',
  },
  { key: 'num-rollout', flag: 'num-rollout', kind: 'int', default: null, about: 'rollouts to run (wins over --num-epoch)' },
  {
    key: 'num-epoch',
    flag: 'epochs',
    kind: 'int',
    default: null,
    about: 'sets num-rollout = len(dataset) // rollout-batch-size × num-epoch when --num-rollout is unset',
  },
  { key: 'actor-num-nodes', flag: 'actor-num-nodes', kind: 'int', default: 1, about: 'training nodes; GPUs = nodes × GPUs per node' },
  { key: 'actor-num-gpus-per-node', flag: 'actor-num-gpus-per-node', kind: 'int', default: 8, about: 'training GPUs per node' },
  {
    key: 'tensor-model-parallel-size',
    flag: 'tensor-model-parallel-size',
    kind: 'int',
    default: 1,
    about: 'Megatron TP; DP = GPUs / (TP × PP × CP)',
  },
  {
    key: 'pipeline-model-parallel-size',
    flag: 'pipeline-model-parallel-size',
    kind: 'int',
    default: 1,
    about: 'Megatron PP; DP = GPUs / (TP × PP × CP)',
  },
  {
    key: 'context-parallel-size',
    flag: 'context-parallel-size',
    kind: 'int',
    default: 1,
    about: 'Megatron CP; DP = GPUs / (TP × PP × CP); the dynamic token budget is max-tokens-per-gpu × CP',
  },
  {
    key: 'advantage-estimator',
    flag: 'advantage-estimator',
    kind: 'string',
    default: 'grpo',
    about: 'grpo/gspo/cispo: group mean and std; reinforce_plus_plus_baseline: group mean only; others: raw rewards here',
    choices: ADVANTAGE_ESTIMATORS,
  },
  {
    key: 'disable-rewards-normalization',
    flag: 'disable-rewards-normalization',
    kind: 'bool',
    default: false,
    about: 'keep raw rewards (no group mean or std)',
  },
  {
    key: 'disable-grpo-std-normalization',
    flag: 'disable-grpo-std-normalization',
    kind: 'bool',
    default: false,
    about: 'subtract the group mean only (Dr. GRPO); forced on when n-samples-per-prompt is 1',
  },
  {
    key: 'dataset-size',
    flag: 'dataset-size',
    sandbox: true,
    kind: 'int',
    default: 1000,
    about: 'sandbox-only (no slime flag: slime counts the rows of --prompt-data): prompts in the dataset, ids 0 … D−1',
  },
  model('num-layers', 'transformer layers'),
  model('hidden-size', 'hidden size'),
  model('ffn-hidden-size', 'MLP width'),
  model('num-attention-heads', 'attention heads'),
  model('num-query-groups', 'key/value head groups'),
  model('kv-channels', 'head dimension'),
  model('vocab-size', 'vocabulary size'),
  {
    key: 'calculate-per-token-loss',
    flag: 'calculate-per-token-loss',
    kind: 'bool',
    default: false,
    about:
      "off: each sample's token mean, summed, × num_microbatches / the step's global batch × DP (Megatron then ÷ num_microbatches, DDP averages); " +
      "on: token sums, Megatron ÷ the step's tokens",
  },
];
