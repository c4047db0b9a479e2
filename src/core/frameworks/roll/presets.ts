// ROLL's documented GRPO example: the keys of examples/docs_examples/example_grpo.yaml at the pinned commit (8eb27cc) that this home reads, values as shipped
// (test/fixtures/configs/roll-example_grpo.yaml holds the same excerpt in the file's own format, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'roll-example-grpo',
    about: "ROLL's documented GRPO example",
    source: 'examples/docs_examples/example_grpo.yaml @ 8eb27cc',
    config: {
      seed: 42,
      max_steps: 500,
      rollout_batch_size: 64,
      adv_estimator: 'grpo',
      num_return_sequences_in_group: 8,
      ppo_epochs: 1,
      actor_train: {
        training_args: {
          per_device_train_batch_size: 1,
          gradient_accumulation_steps: 32,
        },
        strategy_args: {
          strategy_name: 'megatron_train',
          strategy_config: {
            tensor_model_parallel_size: 1,
            pipeline_model_parallel_size: 1,
          },
        },
        device_mapping: 'list(range(0,16))',
      },
    },
  },
];
