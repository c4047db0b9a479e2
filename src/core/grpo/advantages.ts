// Group-relative advantages exactly as each framework computes them from gathered rewards
// (docs/frameworks.md). Pure: rewards in, advantages out, same length and order. Each framework's
// functions live in its home (src/core/frameworks/<name>/advantages.ts) and are re-exported here;
// the statistics they share are group-stats.ts's. This file keeps the regrouping registry: which
// framework's advantage goes with each regrouping of src/core/layout/regroup.ts.
import { regroupAdvantage as danceGrpo } from '../frameworks/dance-grpo/advantages.ts';
import { regroupAdvantage as flowGrpo } from '../frameworks/flow-grpo/advantages.ts';
import { regroupAdvantage as trl } from '../frameworks/trl/advantages.ts';
import { regroupAdvantage as verl } from '../frameworks/verl/advantages.ts';
import type { Gather, RegroupMethod } from '../layout/types.ts';
import type { RegroupAdvantage, ScaleRewards } from './scheme-types.ts';

export { danceGrpoAdvantages, danceGrpoBatchAdvantages } from '../frameworks/dance-grpo/advantages.ts';
export { flowGrpoAdvantages } from '../frameworks/flow-grpo/advantages.ts';
export { trlAdvantages, trlAsyncAdvantages } from '../frameworks/trl/advantages.ts';
export { verlAdvantages } from '../frameworks/verl/advantages.ts';
export { sliceToRanks } from './group-stats.ts';
export type { ScaleRewards } from './scheme-types.ts';

/** Each regrouping's advantage, from the homes that regroup so (the compiler names a regrouping none of them covers: Missing). */
const REGROUPS = [flowGrpo, trl, verl, danceGrpo] as const;
type Covered = (typeof REGROUPS)[number] extends RegroupAdvantage<infer M> ? M : never;
type Missing = Exclude<RegroupMethod, Covered>;
const everyRegroupCovered: [Missing] extends [never] ? true : Missing = true;
void everyRegroupCovered;

/**
 * The advantages of one gather's rewards under a regrouping, as the framework that regroups so
 * computes them: prompt-id → flow_grpo (groups by prompt, global std), view → TRL (`view(-1, k)`,
 * `scale` applies), uid → verl (groups by uid), local → DanceGRPO (each rank's consecutive k). Throws a RangeError when the regrouping cannot
 * apply (e.g. view(-1, k) of a count that is not a multiple of k).
 */
export function advantagesOfRegroup(
  method: RegroupMethod,
  gather: Gather,
  rewards: ArrayLike<number>,
  k: number,
  scale: ScaleRewards = 'group',
): number[] {
  return REGROUPS.find((r) => r.regroup === method)!.compute(gather, rewards, k, scale);
}
