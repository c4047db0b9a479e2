// OpenRLHF's shipped DAPO hybrid-engine script: the keys of examples/scripts/train_dapo_ray_hybrid_engine.sh at the pinned commit (3c3be62) that this
// home reads, values as shipped
// (test/fixtures/configs/openrlhf-train_dapo_ray_hybrid_engine.sh holds the same excerpt in the file's own format, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'openrlhf-dapo-hybrid-engine',
    about: "OpenRLHF's shipped DAPO hybrid-engine script",
    source: 'examples/scripts/train_dapo_ray_hybrid_engine.sh @ 3c3be62',
    config: {
      'actor.num_nodes': '1',
      'actor.num_gpus_per_node': '8',
      'algo.advantage.estimator': 'group_norm',
      'algo.dynamic_filtering_enable': true,
      'train.micro_batch_size': '8',
      'train.batch_size': '128',
      'rollout.micro_batch_size': '16',
      'rollout.batch_size': '128',
      'rollout.n_samples_per_prompt': '8',
      'train.max_epochs': '1',
      'data.max_samples': '20000',
      'ds.packing_samples': true,
    },
  },
];
