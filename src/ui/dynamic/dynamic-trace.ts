// The step as the page draws it: the same protocol (src/core/dynamic's dynamicStep) run by W
// copies in this thread (core's runLocal, the sweep's in-process world), recording what every
// rank generated in every draw so the view can mark each gathered group valid or flat. The real
// rank workers run the very same function; the view compares their plan with this one.
import {
  type DynamicConfig,
  dynamicStep,
  filterGroups,
  generateSamples,
  keepRuleOf,
  type RewardModel,
  runLocal,
  type Sample,
  type StepPlan,
} from '../../core/dynamic/index.ts';

export interface GroupMark {
  group: string;
  /** Rank that generated it. */
  origin: number;
  rewards: number[];
  valid: boolean;
}

export interface DrawTrace {
  draw: number;
  /** Per rank, its groups of this draw in order (empty when it generated nothing: stream's full ranks). */
  byRank: GroupMark[][];
}

export interface StepTrace {
  plan: StepPlan<Sample>;
  draws: DrawTrace[];
}

/** Runs one step in this thread and records every draw's gathered groups. */
export async function traceStep(c: DynamicConfig, rewards: RewardModel): Promise<StepTrace> {
  const batches = new Map<number, Sample[][]>();
  const plans = await runLocal(c.ranks, (rank, gather) =>
    dynamicStep<Sample>(
      {
        rank,
        size: c.ranks,
        generate: (draw, prompts) => {
          const mine = generateSamples(rewards, draw, rank, prompts, c.k);
          const row = batches.get(draw) ?? Array.from({ length: c.ranks }, () => []);
          row[rank] = mine;
          batches.set(draw, row);
          return mine;
        },
        gather,
      },
      c,
    ),
  );
  const plan = plans[0]!;
  const rule = keepRuleOf(c);
  const draws = plan.events.map((e): DrawTrace => {
    const byRank = (batches.get(e.draw) ?? []).map((samples) => {
      const kept = new Set(filterGroups(samples, c.metric, rule).kept.map((s) => s.group));
      const groups = new Map<string, Sample[]>();
      for (const s of samples) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
      return [...groups].map(([group, members]) => ({
        group,
        origin: members[0]!.origin,
        rewards: members.map((m) => m[c.metric]),
        valid: kept.has(group),
      }));
    });
    return { draw: e.draw, byRank };
  });
  return { plan, draws };
}
