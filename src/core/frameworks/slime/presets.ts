// slime's shipped Qwen3-4B launch script: the keys of scripts/run-qwen3-4B.sh at the pinned commit (624b824) that this home reads, values as shipped
// (test/fixtures/configs/slime-run-qwen3-4B.sh holds the same excerpt in the file's own format, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'slime-qwen3-4b',
    about: "slime's shipped Qwen3-4B launch script",
    source: 'scripts/run-qwen3-4B.sh @ 624b824',
    config: {
      'actor-num-nodes': '1',
      'actor-num-gpus-per-node': '8',
      'num-layers': '36',
      'hidden-size': '2560',
      'ffn-hidden-size': '9728',
      'num-attention-heads': '32',
      'num-query-groups': '8',
      'vocab-size': '151936',
      'kv-channels': '128',
      'rollout-shuffle': true,
      'num-rollout': '3000',
      'rollout-batch-size': '32',
      'n-samples-per-prompt': '8',
      'global-batch-size': '256',
      'balance-data': true,
      'advantage-estimator': 'grpo',
      'tensor-model-parallel-size': '2',
      'pipeline-model-parallel-size': '1',
      'context-parallel-size': '1',
      'use-dynamic-batch-size': true,
      'max-tokens-per-gpu': '9216',
    },
  },
];
