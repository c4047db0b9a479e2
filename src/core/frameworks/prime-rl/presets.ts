// prime-rl's shipped hendrycks-sanity RL example: the keys of examples/basic/hendrycks-sanity/rl.toml at the pinned commit (559b447) that this home
// reads, values as shipped
// (test/fixtures/configs/prime-rl-hendrycks-sanity.toml holds the same excerpt in the file's own format, read by --config).
import type { FrameworkPreset } from '../types.ts';

export const presets: readonly FrameworkPreset[] = [
  {
    name: 'prime-rl-hendrycks-sanity',
    about: "prime-rl's shipped hendrycks-sanity RL example",
    source: 'examples/basic/hendrycks-sanity/rl.toml @ 559b447',
    config: {
      max_steps: 5000,
      deployment: {
        num_train_gpus: 4,
        num_infer_gpus: 4,
      },
      orchestrator: {
        batch_size: 512,
        group_size: 8,
        seq_len: 8192,
        train: {
          source: [{ name: 'hendrycks-math' }],
        },
      },
    },
  },
];
