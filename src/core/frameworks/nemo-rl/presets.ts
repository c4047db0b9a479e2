// NeMo RL's shipped 1B math GRPO example: 32 prompts × 16 generations, sequence packing on: the keys of examples/configs/grpo_math_1B.yaml at the
// pinned commit (7ea279a) that this home reads, values as shipped
// (test/fixtures/configs/nemo-rl-grpo_math_1B.yaml holds the same excerpt in the file's own format, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'nemo-rl-math-1b',
    about: "NeMo RL's shipped 1B math GRPO example: 32 prompts × 16 generations, sequence packing on",
    source: 'examples/configs/grpo_math_1B.yaml @ 7ea279a',
    config: {
      grpo: {
        num_prompts_per_step: 32,
        num_generations_per_prompt: 16,
        max_num_epochs: 1,
        max_num_steps: 1000000,
        seed: 42,
      },
      policy: {
        train_global_batch_size: 512,
        train_micro_batch_size: 4,
        max_total_sequence_length: 512,
        dtensor_cfg: {
          tensor_parallel_size: 1,
          context_parallel_size: 1,
        },
        dynamic_batching: {
          enabled: false,
          sequence_length_round: 64,
        },
        sequence_packing: {
          enabled: true,
          algorithm: 'modified_first_fit_decreasing',
          microbatch_order: 'packer',
        },
      },
      data: {
        shuffle: true,
        num_workers: 1,
      },
      cluster: {
        gpus_per_node: 1,
        num_nodes: 1,
      },
    },
  },
];
