// open-instruct's single-node 3B grpo_fast script: the keys of scripts/train/qwen/grpo_fast_3b_single_node.sh at the pinned commit (e6c3044) that
// this home reads, values as shipped
// (test/fixtures/configs/open-instruct-grpo_fast_3b_single_node.sh holds the same excerpt in the file's own format, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'open-instruct-grpo-fast-3b',
    about: "open-instruct's single-node 3B grpo_fast script",
    source: 'scripts/train/qwen/grpo_fast_3b_single_node.sh @ e6c3044',
    config: {
      num_unique_prompts_rollout: '48',
      num_samples_per_prompt_rollout: '16',
      max_prompt_token_length: '2048',
      response_length: '4096',
      pack_length: '6144',
      total_episodes: '1000000',
      per_device_train_batch_size: '1',
      num_mini_batches: '1',
      num_learners_per_node: '4',
      num_epochs: '1',
      seed: '1',
    },
  },
];
