// open-instruct's advantages (DataPreparationActor._data_preparation_loop, open_instruct/data_loader.py
// @ e6c3044): the step's scores (NumPy float64) reshaped to rows of num_samples_per_prompt_rollout
// consecutive samples (a group is a position range), then 'centered' (the default) r − row mean, or
// 'standard' (r − mean) / (np.std, ddof 0, + 1e-8). Before that, process_group has dropped every group
// whose rewards all agree (np.std == 0) when filter_zero_std_samples is on (the default).
import { ConfigError } from '../../errors.ts';
import type { AdvantageDef } from '../types.ts';
import { VERSION } from './version.ts';

const mean = (row: readonly number[]) => row.reduce((a, b) => a + b, 0) / row.length;
const std0 = (row: readonly number[]) => {
  const m = mean(row);
  return Math.sqrt(row.reduce((a, r) => a + (r - m) * (r - m), 0) / row.length);
};

function compute(type: 'centered' | 'standard', rewards: readonly number[], promptIds: readonly number[], k: number) {
  if (k < 1 || rewards.length % k !== 0) {
    throw new ConfigError(
      `ValueError: cannot reshape array of size ${rewards.length} into shape (${k}) (scores.reshape(-1, num_samples_per_prompt_rollout), numpy ` +
        `2.4, ${VERSION})`,
    );
  }
  const advantages: number[] = [];
  const warnings: string[] = [];
  for (let start = 0; start < rewards.length; start += k) {
    const row = rewards.slice(start, start + k);
    const ids = promptIds.slice(start, start + k);
    if (ids.some((id) => id !== ids[0])) {
      warnings.push(
        `samples ${start}–${start + k - 1} hold prompts ${[...new Set(ids)].join(', ')}: open-instruct groups n consecutive samples`,
      );
    }
    const m = mean(row);
    const s = std0(row);
    if (s === 0) {
      warnings.push(
        `samples ${start}–${start + k - 1}: all rewards equal, so filter_zero_std_samples (on by default) drops this group before advantages; it ` +
          `is not trained on`,
      );
    }
    for (const r of row) advantages.push(type === 'centered' ? r - m : (r - m) / (s + 1e-8));
  }
  return { advantages, warnings };
}

export const advantages: readonly AdvantageDef[] = [
  {
    scheme: 'open-instruct',
    about:
      'advantage_normalization_type centered (default): rows of n consecutive samples, r − mean, no std; groups with np.std 0 are dropped ' +
      '(filter_zero_std_samples)',
    groupBy: 'position',
    compute: ({ rewards, promptIds, k }) => compute('centered', rewards, promptIds, k),
  },
  {
    scheme: 'open-instruct-standard',
    about:
      'advantage_normalization_type standard: rows of n consecutive samples, (r − mean) / (std ddof 0 + 1e-8); zero-std groups dropped as above',
    groupBy: 'position',
    compute: ({ rewards, promptIds, k }) => compute('standard', rewards, promptIds, k),
  },
];
