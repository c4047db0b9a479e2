// EasyR1's shipped examples/config.yaml: token-budget micro-batches (padding_free, dynamic_batching): the keys of examples/config.yaml at the pinned
// commit (b44b311) that this home reads, values as shipped
// (test/fixtures/configs/easyr1-config.yaml holds the same excerpt in the file's own format, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'easyr1-example-config',
    about: "EasyR1's shipped examples/config.yaml: token-budget micro-batches (padding_free, dynamic_batching)",
    source: 'examples/config.yaml @ b44b311',
    config: {
      data: {
        max_prompt_length: 2048,
        max_response_length: 2048,
        rollout_batch_size: 512,
        mini_rollout_batch_size: null,
        shuffle: true,
        seed: 1,
      },
      algorithm: {
        adv_estimator: 'grpo',
        online_filtering: false,
      },
      worker: {
        actor: {
          global_batch_size: 128,
          micro_batch_size_per_device_for_update: 1,
          micro_batch_size_per_device_for_experience: 2,
          padding_free: true,
          dynamic_batching: true,
          ulysses_size: 1,
        },
        rollout: {
          n: 5,
          tensor_parallel_size: 2,
        },
      },
      trainer: {
        total_epochs: 15,
        max_steps: null,
        nnodes: 1,
        n_gpus_per_node: 8,
        max_try_make_batch: 20,
      },
    },
  },
];
