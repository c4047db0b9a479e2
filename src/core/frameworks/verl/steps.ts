// verl's loss normalisers (core_algos.agg_loss) on its legacy and engine workers: the step-framework
// specs of `grpo-sandbox steps`. A normaliser gives the factor multiplying d(per-token loss) of each
// token of one rank's micro-batch in that micro-step's backward; FSDP then averages the gradient
// over the W ranks.
import type { SamplerName } from '../../layout/types.ts';
import { constant, perRow, sum, unknownLoss } from '../../steps/normalisers.ts';
import type { FrameworkSpec } from '../../steps/types.ts';
import { trainsFlowGrpoLayouts } from '../flow-grpo/steps.ts';
import { verlSchedule } from './steps-schedule.ts';

/** agg_loss's seq-mean-token-mean divides each sequence by (its tokens + 1e-8). */
const VERL_EPS = 1e-8;
const VERL_LOSSES = ['token-mean', 'seq-mean-token-sum', 'seq-mean-token-mean', 'seq-mean-token-sum-norm'] as const;
/** verl trains on its own layouts and on those flow_grpo's trainer takes (a rank's block of each step), not TRL's or DanceGRPO's. */
const trainsVerlLayouts = (s: SamplerName) => s === 'verl' || trainsFlowGrpoLayouts(s);

const verlLegacy: FrameworkSpec = {
  name: 'verl-b178a3c',
  pinnedTo:
    'verl at b178a3c, the default worker (use_legacy_worker_impl: auto): workers/actor/dp_actor.py update_policy calls ' +
    'core_algos.agg_loss on each micro-batch without global_batch_info and scales by 1 / gradient_accumulation (with ' +
    'use_dynamic_bsz, by the micro-batch’s samples / ppo_mini_batch_size)',
  checkedBy: 'agg_loss exec’d from the checkout (test/fixtures/golden-steps-verl.json); update_policy’s scaling: transcription',
  schedule: verlSchedule,
  losses: VERL_LOSSES,
  defaultLoss: 'token-mean',
  unit: 'token',
  accepts: trainsVerlLayouts,
  defaultFor: ['verl'],
  updateCauses: {},
  normaliser(loss, c) {
    // agg_loss's global_batch_size defaults to the micro-batch's sequences with at least one token.
    const B = Math.max(1, c.rows.filter((n) => n > 0).length);
    const T = sum(c.rows);
    const ga = c.ga;
    // loss_scale_factor: 1 / gradient_accumulation, or with use_dynamic_bsz response_mask.shape[0] / ppo_mini_batch_size.
    const dynamic = c.dynamicMini ? { samples: c.rows.length, mini: c.dynamicMini } : undefined;
    // 1 / (x × GA) as before; with use_dynamic_bsz samples / (mini × x).
    const over = (x: number) => (dynamic ? dynamic.samples / (dynamic.mini * x) : 1 / (x * ga));
    const s = { ga, ...(dynamic ? { dynamic } : {}) };
    if (loss === 'token-mean') return constant(over(Math.max(1, T)), { kind: 'verl-tokens', tokens: T, ...s });
    if (loss === 'seq-mean-token-sum') return constant(over(B), { kind: 'verl-sequences', B, ...s });
    if (loss === 'seq-mean-token-mean') {
      return perRow((i) => over((c.rows[i]! + VERL_EPS) * B), { kind: 'verl-sequence-mean', B, ...s });
    }
    if (loss === 'seq-mean-token-sum-norm') {
      return constant(over(c.maxLength), { kind: 'verl-length', maxLength: c.maxLength, ...s });
    }
    unknownLoss(this.name, loss);
  },
};

const verlEngine: FrameworkSpec = {
  ...verlLegacy,
  name: 'verl-b178a3c-engine',
  pinnedTo:
    'verl at b178a3c with use_legacy_worker_impl: disable: workers/utils/losses.py ppo_loss passes global_batch_info (batch_num_tokens ' +
    'all-reduced over the data-parallel group per mini-batch, global_batch_size, dp_size) to core_algos.agg_loss; no 1/GA',
  defaultFor: [],
  normaliser(loss, c) {
    const W = c.ranks;
    const N = Math.max(1, c.windowTokens);
    const S = c.windowSequences;
    if (loss === 'token-mean') return constant(W / N, { kind: 'engine-tokens', tokens: N, dp: W });
    if (loss === 'seq-mean-token-sum') return constant(W / S, { kind: 'engine-sequences', sequences: S, dp: W });
    if (loss === 'seq-mean-token-mean') {
      return perRow((i) => W / ((c.rows[i]! + VERL_EPS) * S), { kind: 'engine-sequence-mean', sequences: S, dp: W });
    }
    if (loss === 'seq-mean-token-sum-norm') return constant(1 / c.maxLength, { kind: 'engine-length', maxLength: c.maxLength });
    unknownLoss(this.name, loss);
  },
};

/** verl's workers, in display order. */
export const VERL_STEPS: readonly FrameworkSpec[] = [verlLegacy, verlEngine];
