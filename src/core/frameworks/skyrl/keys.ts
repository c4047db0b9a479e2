// The SkyRL settings the sandbox reads, as SkyRL's trainer YAML / `key.path=value` overrides write them,
// with the dataclass defaults of skyrl/train/config/config.py @ a956457 (TrainerConfig, PlacementConfig,
// PolicyConfig, RefConfig, AlgorithmConfig, GeneratorConfig, DataLoaderConfig).
import type { FrameworkKey } from '../types.ts';

export const SKYRL_KEYS: readonly FrameworkKey[] = [
  {
    key: 'trainer.train_batch_size',
    flag: 'train-batch-size',
    kind: 'int',
    default: 1024,
    about: 'prompts per training step: the StatefulDataLoader batch size (drop_last=True)',
  },
  {
    key: 'generator.n_samples_per_prompt',
    flag: 'k',
    kind: 'int',
    default: 5,
    about: "samples per prompt; prepare_generator_input lists a prompt's copies next to each other, all with the prompt's uid",
  },
  {
    key: 'trainer.seed',
    flag: 'seed',
    kind: 'int',
    default: 42,
    about: 'seeds the torch.Generator that build_dataloader gives the StatefulDataLoader (also its RandomSampler)',
  },
  {
    key: 'data.dataloader.num_workers',
    flag: 'dataloader-num-workers',
    kind: 'int',
    default: null,
    about:
      'prompt loader worker processes; the shipped None becomes 8 in SkyRLTrainConfig.__post_init__. With workers each epoch also ' +
      'draws a base seed and a discarded permutation from the loader generator before the one it uses',
  },
  {
    key: 'data.dataloader.persistent_workers',
    flag: 'persistent-workers',
    kind: 'bool',
    default: false,
    about: 'keeps the loader workers across epochs: after the first epoch an epoch draws only its permutation',
  },
  {
    key: 'trainer.epochs',
    flag: 'epochs',
    kind: 'int',
    default: 1,
    about: 'passes over the dataset; total_training_steps = len(train_dataloader) × epochs',
  },
  {
    key: 'trainer.max_training_steps',
    flag: 'max-training-steps',
    kind: 'int',
    default: null,
    about: 'stops training once global_step passes it (None: no limit); total_training_steps = min(…, max_training_steps)',
  },
  {
    key: 'dataset-size',
    flag: 'dataset-size',
    sandbox: true,
    kind: 'int',
    default: 7473,
    about: 'sandbox-only (no SkyRL key): prompts in the training dataset; 7473 = the GSM8K train split of the default data.train_data',
  },
  {
    key: 'trainer.placement.policy_num_gpus_per_node',
    flag: 'policy-num-gpus-per-node',
    kind: 'int',
    default: 1,
    about:
      "GPUs per node for the policy; the policy's data-parallel size is policy_num_nodes × this // policy.sequence_parallel_size " +
      '(fsdp); --ranks writes ranks × sequence_parallel_size here (one node)',
  },
  {
    key: 'trainer.placement.policy_num_nodes',
    flag: 'policy-num-nodes',
    kind: 'int',
    default: 1,
    about: "nodes for the policy; multiplies the policy's GPUs per node",
  },
  {
    key: 'trainer.policy.sequence_parallel_size',
    flag: 'policy-sequence-parallel-size',
    kind: 'int',
    default: 1,
    about: 'Ulysses sequence parallelism: that many GPUs share one data-parallel rank (world // sp, floored)',
  },
  {
    key: 'trainer.strategy',
    flag: 'strategy',
    kind: 'string',
    default: 'fsdp',
    choices: ['fsdp', 'fsdp2', 'megatron'],
    about: "training backend; megatron's data-parallel size is world ÷ (tp × pp × cp), which the sandbox does not model",
  },
  {
    key: 'trainer.algorithm.use_kl_loss',
    flag: 'use-kl-loss',
    kind: 'bool',
    default: true,
    about: 'KL loss against a ref model: the ref exists, so its data-parallel size joins the lcm that trims each batch',
  },
  {
    key: 'trainer.algorithm.use_kl_in_reward',
    flag: 'use-kl-in-reward',
    kind: 'bool',
    default: false,
    about: 'KL penalty in the reward (also needs the ref model); mutually exclusive with use_kl_loss',
  },
  {
    key: 'trainer.placement.ref_num_gpus_per_node',
    flag: 'ref-num-gpus-per-node',
    kind: 'int',
    default: 1,
    about: 'GPUs per node for the ref model; its data-parallel size enters lcm_dp_size when a KL term is on',
  },
  {
    key: 'trainer.placement.ref_num_nodes',
    flag: 'ref-num-nodes',
    kind: 'int',
    default: 1,
    about: 'nodes for the ref model',
  },
  {
    key: 'trainer.ref.sequence_parallel_size',
    flag: 'ref-sequence-parallel-size',
    kind: 'int',
    default: 1,
    about: "the ref model's sequence parallelism (its data-parallel size is world // sp)",
  },
  {
    key: 'trainer.policy_mini_batch_size',
    flag: 'policy-mini-batch-size',
    kind: 'int',
    default: null,
    fileDefault: 256,
    about:
      'prompts per policy mini-batch (one optimizer step), each cut into equal contiguous pieces, one per rank; SkyRL defaults it ' +
      'to 256, a config file without it gets that; the flag form defaults it to train_batch_size (one optimizer step a training step)',
  },
  {
    key: 'trainer.update_epochs_per_batch',
    flag: 'update-epochs-per-batch',
    kind: 'int',
    default: 1,
    about: 'passes over the mini-batches of each training step (each mini-batch one optimizer step per pass)',
  },
  {
    key: 'trainer.micro_train_batch_size_per_gpu',
    flag: 'micro-train-batch-size-per-gpu',
    kind: 'int',
    default: 1,
    about: 'samples per micro-batch on a rank (gradient accumulation), unless max_tokens_per_microbatch > 0',
  },
  {
    key: 'trainer.max_tokens_per_microbatch',
    flag: 'max-tokens-per-microbatch',
    kind: 'int',
    default: -1,
    about:
      "token budget per micro-batch (attention-mask tokens): > 0 packs each rank's mini-batch piece with the 'balanced' packer " +
      '(soft cap) and pads every rank to the most micro-batches; -1 = off',
  },
  {
    key: 'trainer.algorithm.loss_reduction',
    flag: 'loss-reduction',
    kind: 'string',
    default: 'token_mean',
    about:
      'applied per mini-batch by rescaling the advantages before dispatch (÷ the mini-batch’s loss-mask tokens for token_mean); the workers sum token losses',
    choices: ['token_mean', 'token_mean_legacy', 'sequence_mean', 'seq_mean_token_sum_norm', 'prompt_mean'],
  },
  {
    key: 'trainer.algorithm.max_seq_len',
    flag: 'max-seq-len',
    kind: 'int',
    default: null,
    about: 'the constant seq_mean_token_sum_norm divides by (with the mini-batch size); must be set for that mode',
  },
];
