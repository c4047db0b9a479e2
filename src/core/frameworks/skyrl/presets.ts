// SkyRL's shipped GSM8K GRPO example, examples/train/gsm8k/run_gsm8k.sh @ a956457: its key.path=value overrides that this
// home reads, values as shipped with the script's default NUM_GPUS=4
// (test/fixtures/configs/skyrl-run_gsm8k.yaml holds the same excerpt as YAML, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'skyrl-gsm8k',
    about: "SkyRL's shipped GSM8K GRPO example: 1024 prompts × 5 samples, 4 mini-batches of 256 prompts over 4 GPUs, 20 epochs",
    source: 'examples/train/gsm8k/run_gsm8k.sh @ a956457',
    config: {
      trainer: {
        strategy: 'fsdp',
        placement: { policy_num_gpus_per_node: 4, ref_num_gpus_per_node: 4 },
        epochs: 20,
        update_epochs_per_batch: 1,
        train_batch_size: 1024,
        policy_mini_batch_size: 256,
        micro_train_batch_size_per_gpu: 64,
        algorithm: { use_kl_loss: true },
      },
      generator: { n_samples_per_prompt: 5 },
    },
  },
];
