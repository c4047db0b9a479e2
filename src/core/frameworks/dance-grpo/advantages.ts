// DanceGRPO's advantages (XueZeyue/DanceGRPO 22b85ef, fastvideo/train_grpo_flux.py train_one_step):
// its two schemes, the regrouping and scale its sampler's framework uses, and the advantage of the
// local regrouping.
import { mean, normalise, rowsOf, sliceToRanks, std } from '../../grpo/group-stats.ts';
import { type AdvantageInput, type RegroupAdvantage, type SamplerDefault, schemeDef } from '../../grpo/scheme-types.ts';

/**
 * DanceGRPO: each rank normalises its own consecutive groups of G copies (repeat_interleave
 * keeps them together), unbiased std + 1e-8, no gather. localRewards: one rank's rewards.
 */
export function danceGrpoAdvantages(localRewards: ArrayLike<number>, k: number): number[] {
  const rows = rowsOf(localRewards.length, k, 'dance-local');
  return normalise(localRewards, rows, (g) => ({ mean: mean(localRewards, g), std: std(localRewards, g, 1) }), 1e-8);
}

/**
 * DanceGRPO without `--use_group` (train_one_step's else branch): prompts are not repeated, and
 * each rank's rewards are normalised by the mean and unbiased std of ALL gathered rewards + 1e-8,
 * so every sample's advantage depends on the whole batch, not on its prompt.
 */
export function danceGrpoBatchAdvantages(gathered: ArrayLike<number>): number[] {
  const all = Array.from({ length: gathered.length }, (_, i) => i);
  return normalise(gathered, [all], (g) => ({ mean: mean(gathered, g), std: std(gathered, g, 1) }), 1e-8);
}

/** --use_group: each rank's 1/ranks of the gathered batch, normalised in runs of k there. */
function useGroupRefusal({ rewards: { length: n }, k, ranks }: AdvantageInput): string | null {
  if (n % ranks !== 0) return `dance splits the ${n} rewards over ranks=${ranks}; give a multiple of ranks rewards`;
  if ((n / ranks) % k !== 0) return `dance groups each rank's ${n / ranks} rewards in runs of k=${k}; each rank needs a multiple of k`;
  return null;
}

const source = {
  framework: 'DanceGRPO',
  version: '22b85ef',
  checkedBy:
    "transcribed: train_one_step's two branches in float64 (test/fixtures/golden-advantages-frameworks.json, " +
    'scripts/golden/advantages_frameworks.py; no checkout here)',
} as const;
const rule = { ddof: 1, batchStd: false, eps: 1e-8, divide: true, loneKeepsReward: false } as const;

export const schemes = [
  schemeDef({
    scheme: 'dance',
    about:
      'DanceGRPO --use_group (its shipped scripts): each rank normalises its own consecutive groups of k, unbiased std, eps 1e-8, no gather',
    ...source,
    groupBy: 'position',
    rule: { ...rule, grouping: 'runs' },
    shippedDefault: true,
    refusal: useGroupRefusal,
    compute({ rewards, k, ranks }) {
      const per = rewards.length / ranks;
      const out: number[] = [];
      for (let r = 0; r < ranks; r++) out.push(...danceGrpoAdvantages(Array.from(rewards).slice(r * per, (r + 1) * per), k));
      return out;
    },
  }),
  schemeDef({
    scheme: 'dance-nogroup',
    about: 'DanceGRPO without --use_group: (r − mean) / (unbiased std + 1e-8) over ALL gathered rewards (its run samples each prompt once)',
    ...source,
    groupBy: 'batch',
    rule: { ...rule, grouping: 'all' },
    shippedDefault: false,
    refusal: () => null,
    compute: ({ rewards }) => danceGrpoBatchAdvantages(rewards),
  }),
] as const;

/** What DanceGRPO does after sampling. */
export const samplerDefaults = [
  {
    sampler: 'dance-grpo',
    framework: 'DanceGRPO',
    regroup: 'local',
    scale: 'group',
    does: 'keeps all k copies on one rank and normalises them there, without a gather',
  },
] as const satisfies readonly SamplerDefault[];

/** local → DanceGRPO: each rank normalises its own samples (its slice of the rank-major gathered order) in consecutive runs of k. */
export const regroupAdvantage: RegroupAdvantage<'local'> = {
  regroup: 'local',
  compute(gather, rewards, k) {
    const ranks = new Set(gather.samples.map((s) => s.rank)).size;
    const perRank = sliceToRanks(Array.from(rewards), ranks);
    return perRank.flatMap((local) => danceGrpoAdvantages(local, k));
  },
};
