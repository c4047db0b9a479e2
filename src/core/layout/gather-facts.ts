// What happened to the groups of one all-gather, phase by phase of the explorer's story: how
// many draws each step holds, whether a draw's copies stay within one step, how many copies of
// one draw a rank holds after the scatter and after accumulating its steps. The explorer's
// captions only restate these facts (src/ui/story.ts), so a caption cannot claim what the
// layout on screen contradicts. A group here is one draw of a prompt (its k copies share a uid).
import type { Gather } from './types.ts';

export interface StepFacts {
  stepIndex: number;
  samples: number;
  /** Distinct prompt ids, and distinct draws (uids), with at least one copy in this step. */
  prompts: number;
  draws: number;
  /** Draws whose every copy in the gather lies in this step. */
  wholeDraws: number;
}

export interface GatherFacts {
  steps: StepFacts[];
  draws: number;
  prompts: number;
  /** Draws with copies in more than one step of the gather. */
  drawsAcrossSteps: number;
  /** Draws with a number of copies other than k in this gather (split over gathers, or padding). */
  drawsOffSize: number;
  /** Most copies of one draw on one rank within one step (what the scatter leaves). */
  maxCopiesOnOneRankInStep: number;
  /** Most copies of one draw on one rank over the gather's steps (what accumulation leaves). */
  maxCopiesOnOneRank: number;
  /** Draws whose copies all sit on one rank before the gather (that rank could compute the group's mean alone). */
  drawsWholeOnOneRank: number;
}

/** Counts the facts of `gather` for groups of `k` copies. */
export function gatherFacts(gather: Gather, k: number): GatherFacts {
  const perStep = new Map<number, { samples: number; prompts: Set<number>; uids: Set<string> }>();
  for (const i of gather.stepIndices) perStep.set(i, { samples: 0, prompts: new Set(), uids: new Set() });
  const stepsOfDraw = new Map<string, Set<number>>();
  const copies = new Map<string, number>();
  const perRank = new Map<string, number>(); // `${uid}|${rank}` → copies over the gather
  const perRankStep = new Map<string, number>(); // `${uid}|${rank}|${step}` → copies in that step
  let maxInStep = 0;
  let maxOnRank = 0;
  for (const s of gather.samples) {
    const step = perStep.get(s.stepIndex)!;
    step.samples++;
    step.prompts.add(s.promptId);
    step.uids.add(s.uid);
    let steps = stepsOfDraw.get(s.uid);
    if (!steps) stepsOfDraw.set(s.uid, (steps = new Set()));
    steps.add(s.stepIndex);
    copies.set(s.uid, (copies.get(s.uid) ?? 0) + 1);
    const rk = `${s.uid}|${s.rank}`;
    const onRank = (perRank.get(rk) ?? 0) + 1;
    perRank.set(rk, onRank);
    maxOnRank = Math.max(maxOnRank, onRank);
    const sk = `${rk}|${s.stepIndex}`;
    const inStep = (perRankStep.get(sk) ?? 0) + 1;
    perRankStep.set(sk, inStep);
    maxInStep = Math.max(maxInStep, inStep);
  }
  let drawsWholeOnOneRank = 0;
  for (const [rk, n] of perRank) if (n === copies.get(rk.slice(0, rk.lastIndexOf('|')))) drawsWholeOnOneRank++;
  const steps: StepFacts[] = gather.stepIndices.map((stepIndex) => {
    const st = perStep.get(stepIndex)!;
    let wholeDraws = 0;
    for (const uid of st.uids) if (stepsOfDraw.get(uid)!.size === 1) wholeDraws++;
    return { stepIndex, samples: st.samples, prompts: st.prompts.size, draws: st.uids.size, wholeDraws };
  });
  return {
    steps,
    draws: copies.size,
    prompts: new Set(gather.samples.map((s) => s.promptId)).size,
    drawsAcrossSteps: [...stepsOfDraw.values()].filter((s) => s.size > 1).length,
    drawsOffSize: [...copies.values()].filter((n) => n !== k).length,
    maxCopiesOnOneRankInStep: maxInStep,
    maxCopiesOnOneRank: maxOnRank,
    drawsWholeOnOneRank,
  };
}
