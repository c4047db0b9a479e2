// AReaL's shipped GSM8K GRPO example: 256 prompts × 4 samples on fsdp:d4, max_head_offpolicyness 2: the keys of examples/math/gsm8k_grpo.yaml at the
// pinned commit (4aef98d) that this home reads, values as shipped
// (test/fixtures/configs/areal-gsm8k_grpo.yaml holds the same excerpt in the file's own format, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'areal-gsm8k-grpo',
    about: "AReaL's shipped GSM8K GRPO example: 256 prompts × 4 samples on fsdp:d4, max_head_offpolicyness 2",
    source: 'examples/math/gsm8k_grpo.yaml @ 4aef98d',
    config: {
      seed: 1,
      total_train_epochs: 10,
      rollout: {
        max_concurrent_rollouts: 256,
        max_head_offpolicyness: 2,
      },
      gconfig: {
        n_samples: 4,
      },
      actor: {
        backend: 'fsdp:d4p1t1',
        mb_spec: {
          max_tokens_per_mb: 10240,
          packing_algorithm: 'ffd',
        },
        ppo_n_minibatches: 1,
      },
      train_dataset: {
        batch_size: 256,
        shuffle: true,
        num_workers: 4,
      },
    },
  },
];
