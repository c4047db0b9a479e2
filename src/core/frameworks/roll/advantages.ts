// ROLL's reward normalisation (roll/utils/functionals.py reward_postprocess → reward_norm @ 8eb27cc), which
// is the whole advantage for GRPO-style runs: compute_advantage then takes the reinforce return with
// gamma 1 (PPOConfig.gamma) of a token-level reward placed on the last token, so every response token gets
// the normalised reward (whiten_advantages and advantage_clip default off; the shipped configs set
// reward_clip / advantage_clip, clamps not modelled here). Groups are POSITIONS: the domain batch, back
// in generation order, is reshaped to (-1, num_return_sequences). Std is torch.std (unbiased), eps 1e-6 is
// added to the std and every group is divided, so a zero-std group gets 0 and a group of one gets NaN.
// ROLL holds the rewards in float32; the sandbox computes in float64.
import { ConfigError } from '../../errors.ts';
import type { AdvantageDef, FrameworkSettings } from '../types.ts';
import { ROLL_VERSION } from './version.ts';

type Stat = 'group' | 'batch' | null;

const EPS = 1e-6;
/** torch's warning for std over one element (its text, as printed by torch 2.13). */
const STD_DOF_WARNING =
  'std(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor (input numel divided by output numel).';

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** torch.std (unbiased); NaN for one element. */
function std(xs: readonly number[]): number {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) * (x - m), 0) / (xs.length - 1));
}

/** reward_norm(rewards, n_sample=k, norm_mean_type, norm_std_type) for the combinations that keep the batch's shape. */
export function rollRewardNorm(
  rewards: readonly number[],
  k: number,
  meanType: Stat,
  stdType: Stat,
): { values: number[]; warnings: string[] } {
  const grouped = meanType === 'group' || stdType === 'group';
  if (grouped && (k < 1 || rewards.length % k !== 0)) {
    throw new ConfigError(
      `shape '[-1, ${k}]' is invalid for input of size ${rewards.length} (torch, in ROLL ${ROLL_VERSION} reward_norm): ` +
        'the domain batch must hold whole groups of num_return_sequences_in_group',
    );
  }
  const warnings: string[] = [];
  const groupOf = (i: number) => rewards.slice(i - (i % k), i - (i % k) + k);
  const batchMean = mean(rewards);
  const batchStd = std(rewards);
  if ((stdType === 'batch' && rewards.length < 2) || (stdType === 'group' && k < 2)) warnings.push(STD_DOF_WARNING);
  const values = rewards.map((r, i) => {
    const m = meanType === 'group' ? mean(groupOf(i)) : meanType === 'batch' ? batchMean : 0;
    if (stdType === null) return r - m;
    const s = stdType === 'group' ? std(groupOf(i)) : batchStd;
    return (r - m) / (s + EPS);
  });
  return { values, warnings };
}

function scheme(name: string, meanType: Stat, stdType: Stat, about: string): AdvantageDef {
  return {
    scheme: name,
    about,
    groupBy: 'position',
    compute({ rewards, k }) {
      const { values, warnings } = rollRewardNorm(rewards, k, meanType, stdType);
      return { advantages: values.map((v) => (Number.isNaN(v) ? null : v)), warnings };
    },
  };
}

export const ROLL_ADVANTAGES: readonly AdvantageDef[] = [
  scheme(
    'roll',
    'group',
    'group',
    "adv_estimator 'grpo' (forces norm_mean_type = norm_std_type = 'group'): (r − group mean) / (unbiased group std + 1e-6) over each " +
      'k consecutive samples; zero-std group → 0, k = 1 → NaN',
  ),
  scheme(
    'roll-batch',
    'batch',
    'batch',
    "norm_mean_type = norm_std_type = 'batch' (e.g. adv_estimator 'reinforce' in examples/ascend_examples/qwen3_8b_rlvr_fsdp2.yaml): " +
      '(r − batch mean) / (unbiased batch std + 1e-6) over the domain batch',
  ),
  scheme('roll-group-mean', 'group', null, "norm_mean_type 'group', norm_std_type null: r − group mean (no scaling)"),
  scheme('roll-batch-mean', 'batch', null, "norm_mean_type 'batch', norm_std_type null: r − batch mean"),
  scheme(
    'roll-group-mean-batch-std',
    'group',
    'batch',
    "norm_mean_type 'group', norm_std_type 'batch': (r − group mean) / (unbiased batch std + 1e-6)",
  ),
  scheme('roll-raw', null, null, "adv_estimator 'reinforce' with both norm types null (most shipped RLVR examples): the reward itself"),
];

/**
 * The scheme a config selects: reward_postprocess forces 'group'/'group' for adv_estimator 'grpo', else the two
 * norm types as given. Throws for what the sandbox cannot show as one advantage per sample.
 */
export function rollSchemeFor(settings: FrameworkSettings): string {
  const estimator = settings['adv-estimator'];
  if (estimator === 'gae') {
    throw new ConfigError("adv_estimator 'gae' (ROLL's dataclass default) needs a critic's values; set adv_estimator: grpo or reinforce");
  }
  if (estimator === 'grpo') return 'roll';
  const meanType = (settings['norm-mean-type'] ?? null) as string | null;
  const stdType = (settings['norm-std-type'] ?? null) as string | null;
  if (meanType === 'running' || stdType === 'running') {
    throw new ConfigError("norm type 'running' keeps running moments across steps (RunningMoments); not modelled");
  }
  if (stdType === 'group' && meanType !== 'group') {
    throw new ConfigError(
      `norm_mean_type ${JSON.stringify(meanType)} with norm_std_type 'group': ROLL ${ROLL_VERSION}'s reward_norm divides the flat batch by ` +
        'per-group stds and gets a groups × samples tensor, not one value per sample',
    );
  }
  const names: Record<string, string> = {
    'group/group': 'roll',
    'batch/batch': 'roll-batch',
    'group/null': 'roll-group-mean',
    'batch/null': 'roll-batch-mean',
    'group/batch': 'roll-group-mean-batch-std',
    'null/null': 'roll-raw',
  };
  return names[`${meanType}/${stdType}`]!;
}
