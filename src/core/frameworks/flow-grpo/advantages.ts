// flow_grpo's advantages (yifan123/flow_grpo ac4c86e, flow_grpo/stat_tracking.py PerPromptStatTracker):
// its two schemes, the regrouping and scale its samplers' framework uses, and the advantage of the
// prompt-id regrouping.
import { groupBy, mean, normalise, std } from '../../grpo/group-stats.ts';
import { type RegroupAdvantage, type SamplerDefault, schemeDef } from '../../grpo/scheme-types.ts';

/** The commit whose PerPromptStatTracker the fixture ran. */
const VERSION = 'ac4c86e';
const CHECKED_BY =
  "exec'd: PerPromptStatTracker from the flow_grpo checkout (test/fixtures/golden-advantages-frameworks.json, " +
  'scripts/golden/advantages_frameworks.py); also a torch float64 transcription (golden-advantages.json)';

/**
 * flow_grpo's PerPromptStatTracker: groups by prompt (a prompt drawn twice forms one group of
 * 2k), mean per prompt; std (numpy, ddof 0) over ALL gathered rewards when globalStd (the
 * shipped configs), else over the prompt's rewards; advantage (r − mean) / (std + 1e-4).
 * rewards and promptIds: one entry per gathered sample, in gathered order.
 */
export function flowGrpoAdvantages(rewards: ArrayLike<number>, promptIds: ArrayLike<number | string>, globalStd = true): number[] {
  if (promptIds.length !== rewards.length) throw new RangeError(`flow_grpo: ${rewards.length} rewards but ${promptIds.length} prompt ids`);
  const all = Array.from({ length: rewards.length }, (_, i) => i);
  const globalS = std(rewards, all, 0);
  return normalise(rewards, groupBy(promptIds), (g) => ({ mean: mean(rewards, g), std: globalStd ? globalS : std(rewards, g, 0) }), 1e-4);
}

// flow_grpo's PerPromptStatTracker keys its groups by the prompt itself; the sandbox's prompt id stands for it.
const source = { framework: 'flow_grpo', version: VERSION, checkedBy: CHECKED_BY, groupBy: 'prompt-content' } as const;
const rule = { grouping: 'prompt', ddof: 0, eps: 1e-4, divide: true, loneKeepsReward: false } as const;

export const schemes = [
  schemeDef({
    scheme: 'flow-grpo',
    about:
      'PerPromptStatTracker, global_std=True (the shipped configs): group by prompt id, mean per prompt, numpy std (ddof 0) of ALL rewards, eps 1e-4',
    ...source,
    rule: { ...rule, batchStd: true },
    shippedDefault: true,
    refusal: () => null,
    compute: ({ rewards, promptIds }) => flowGrpoAdvantages(rewards, promptIds, true),
  }),
  schemeDef({
    scheme: 'flow-grpo-prompt-std',
    about: 'PerPromptStatTracker, global_std=False (the class default): mean and numpy std (ddof 0) per prompt id, eps 1e-4',
    ...source,
    rule: { ...rule, batchStd: false },
    shippedDefault: false,
    refusal: () => null,
    compute: ({ rewards, promptIds }) => flowGrpoAdvantages(rewards, promptIds, false),
  }),
] as const;

const does = 'gathers the epoch and groups by prompt with its PerPromptStatTracker';

/** What flow_grpo does after sampling, for both of its samplers. */
export const samplerDefaults = [
  { sampler: 'flow-grpo', framework: 'flow_grpo', regroup: 'prompt-id', scale: 'group', does },
  { sampler: 'flow-grpo-lcm', framework: 'flow_grpo', regroup: 'prompt-id', scale: 'group', does },
] as const satisfies readonly SamplerDefault[];

/** prompt-id → flow_grpo: groups by prompt, global std. */
export const regroupAdvantage: RegroupAdvantage<'prompt-id'> = {
  regroup: 'prompt-id',
  compute: (gather, rewards) =>
    flowGrpoAdvantages(
      rewards,
      gather.samples.map((s) => s.promptId),
    ),
};
