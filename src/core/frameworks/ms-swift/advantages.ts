// ms-swift's advantages (modelscope/ms-swift 3602360, swift/rl_core/advantage.py compute_advantages, which
// the HF GRPO trainer's _compute_advantages calls): its shipped default, advantage_estimator 'grpo' with
// scale_rewards None → 'group' (swift/arguments/rlhf_args.py).
import { mean, normalise, std } from '../../grpo/group-stats.ts';
import { type AdvantageInput, schemeDef } from '../../grpo/scheme-types.ts';

/**
 * compute_advantages with advantage_estimator 'grpo', scale_rewards 'group': `rewards.view(-1, K)` rows
 * (whatever prompts they hold), (r − row mean) / (row's unbiased std + 1e-4). k ≥ 2 and a multiple of k
 * rewards (the scheme's refusal checks both).
 */
export function msSwiftAdvantages(rewards: ArrayLike<number>, k: number): number[] {
  const rows: number[][] = [];
  for (let at = 0; at < rewards.length; at += k) rows.push(Array.from({ length: k }, (_, j) => at + j));
  return normalise(rewards, rows, (g) => ({ mean: mean(rewards, g), std: std(rewards, g, 1) }), 1e-4);
}

/** What ms-swift refuses: num_generations 1 for GRPO (rlhf_args.py), and a count view(-1, K) cannot shape. */
function refusal({ rewards: { length: n }, k }: AdvantageInput): string | null {
  if (k < 2) return `ms-swift refuses k=${k} for GRPO (ValueError: num_generations must be greater than 1 for GRPO); give --k 2 or more`;
  if (n % k !== 0)
    return `ms-swift views the ${n} rewards as rows of k=${k} (rewards.view(-1, K)); give a multiple of k rewards or another --k`;
  return null;
}

export const schemes = [
  schemeDef({
    scheme: 'ms-swift',
    about:
      'ms-swift GRPO (advantage_estimator grpo, scale_rewards None → group): rows of view(-1, k), unbiased std per row, eps 1e-4; ' +
      'k ≥ 2',
    framework: 'ms-swift',
    version: '3602360',
    checkedBy:
      "exec'd: swift/rl_core/advantage.py compute_advantages from the ms-swift repository (test/fixtures/golden-ms-swift-advantages.json, " +
      'scripts/golden/ms_swift_advantages.py)',
    groupBy: 'position',
    rule: { grouping: 'runs', ddof: 1, batchStd: false, eps: 1e-4, divide: true, loneKeepsReward: false },
    shippedDefault: true,
    refusal,
    compute: ({ rewards, k }) => msSwiftAdvantages(rewards, k),
  }),
] as const;
