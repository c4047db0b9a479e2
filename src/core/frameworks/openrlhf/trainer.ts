// OpenRLHF's optimizer steps and loss weights (@ 3c3be62). The actor (openrlhf/trainer/ray/ppo_actor.py ppo_train)
// reads its replay buffer in micro-batches of train.micro_batch_size (DataLoader, drop_last) and
// openrlhf/utils/loss_utils.py iter_grad_accum_global_norm groups them into windows of accumulated_gradient (gas)
// micro-batches, one DeepSpeed optimizer step each, with batch_num_tokens = the window's response tokens summed over
// the data-parallel ranks / gas (global_batch_size: its non-empty samples / gas, both float32).
// openrlhf/models/loss.py aggregate_loss returns masked-sum / batch_num_tokens × dp_size (token_level_loss, policy
// loss "ppo") or Σ per-sample token means / global_batch_size × dp_size ("gspo"); DeepSpeed divides the loss by gas
// and averages gradients over the ranks, so every token of the window weighs 1 / its global tokens. Under
// --train.dynamic_batch_enable the optimizer steps are setup_dynamic_batch's (packing.ts), DeepSpeed's gas is 1,
// and the normalisers are each step's global tokens / non-empty samples.
import { ConfigError } from '../../errors.ts';
import {
  chunks,
  microBatch,
  offPolicyFinding,
  padToLongest,
  type TrainerRun,
  type TrainerWithFindings,
  versions,
  weightSpreadFinding,
} from '../trainer.ts';
import type { FrameworkSettings, FrameworkStep, TrainerStep } from '../types.ts';
import { dynamicMicroBatches } from './packing.ts';
import { runSizes } from './sizes.ts';
import { VERSION } from './version.ts';

export const OPENRLHF_LOSSES = ['ppo', 'gspo'] as const;

interface Window {
  /** Each rank's micro-batches of the optimizer step, in order. */
  ranks: number[][][];
  /** The divisor applied to the loss normaliser: gas (1 under dynamic batching). */
  gas: number;
}

function windows(step: FrameworkStep, settings: FrameworkSettings): Window[] {
  const s = runSizes(settings);
  if (s.parallel.duplicate > 1) {
    throw new ConfigError(
      `ds.ring_attn_size × ds.tensor_parallel_size = ${s.parallel.duplicate}: the sandbox models the loss weights with one GPU per data-parallel ` +
        `rank (${VERSION})`,
    );
  }
  const ranks = step.sources;
  const out: Window[] = [];
  if (s.dynamic) {
    const packed = dynamicMicroBatches(ranks, step.seqlens ?? [], s.parallel, {
      trainBatchSize: s.trainBatchSize,
      expectedSteps: s.optimizerStepsPerStep,
      trainMaxTokens: s.trainMaxTokens,
    });
    const groups: [number, number][] = [];
    let start = 0;
    packed.optimizerStepEnds.forEach((end, m) => {
      if (end) {
        groups.push([start, m + 1]);
        start = m + 1;
      }
    });
    for (let e = 0; e < s.maxEpochs; e++) {
      for (const [a, b] of groups) out.push({ ranks: packed.ranks.map((r) => r.slice(a, b)), gas: 1 });
    }
    return out;
  }
  // accumulated_gradient (DeepspeedStrategy.__init__): train.batch_size × ring × TP // micro_batch_size // world size.
  const gas = Math.floor(Math.floor((s.trainBatchSize * s.parallel.duplicate) / s.trainMicroBatch) / s.parallel.actors);
  if (gas < 1) {
    throw new ConfigError(
      `accumulated_gradient = train.batch_size ${s.trainBatchSize} // train.micro_batch_size ${s.trainMicroBatch} // world size ${s.parallel.actors} = 0: ` +
        `DeepSpeed refuses a train_batch_size below micro_batch_size × world size; raise --train.batch_size (${VERSION})`,
    );
  }
  const perRank = ranks.map((r) => chunks(r, s.trainMicroBatch).filter((mb) => mb.length === s.trainMicroBatch));
  const counts = perRank.map((r) => r.length);
  if (counts.some((c) => c !== counts[0])) {
    throw new ConfigError(
      `the ranks hold ${counts.join(', ')} micro-batches of ${s.trainMicroBatch}: DeepSpeed's gradient all-reduce would wait for a rank that has none left; ` +
        `make rollout.batch_size × n_samples_per_prompt a multiple of rollout.micro_batch_size × the ranks (${VERSION})`,
    );
  }
  if (counts[0]! % gas !== 0) {
    throw new ConfigError(
      `each rank runs ${counts[0]} micro-batches, not a multiple of accumulated_gradient ${gas}: the last window's gradients would carry into the next ` +
        `training step's first optimizer step, which the sandbox does not model; make the samples per rank a multiple of train.batch_size / ranks (${VERSION})`,
    );
  }
  for (let e = 0; e < s.maxEpochs; e++) {
    for (let a = 0; a < counts[0]!; a += gas) out.push({ ranks: perRank.map((r) => r.slice(a, a + gas)), gas });
  }
  return out;
}

function optimizerSteps(
  step: FrameworkStep,
  completionTokens: readonly number[],
  settings: FrameworkSettings,
  loss: string,
  firstIndex: number,
): TrainerStep[] {
  if (!(OPENRLHF_LOSSES as readonly string[]).includes(loss)) {
    throw new ConfigError(`argument --actor.policy_loss_type: invalid choice: '${loss}' (choose from 'ppo', 'gspo') (${VERSION})`);
  }
  const ranks = step.sources.length;
  const packed = boolPacking(settings);
  return windows(step, settings).map((w, k) => {
    const { policyVersion, trainVersion } = versions(firstIndex, k);
    let tokens = 0;
    let valid = 0;
    for (const r of w.ranks) {
      for (const mb of r) {
        for (const s of mb) {
          const n = completionTokens[s] ?? 0;
          tokens += n;
          if (n > 0) valid++;
        }
      }
    }
    // _optimizer_step_loss_norm: float32 sums / gas (dynamic: the replay buffer's float32 totals, gas 1).
    const batchTokens = Math.fround(tokens / w.gas);
    const batchSize = Math.fround(valid / w.gas);
    const perToken = ((1 / ranks / w.gas) * ranks) / batchTokens;
    const perSample = ((1 / ranks / w.gas) * ranks) / batchSize;
    const normaliser =
      loss === 'ppo'
        ? `Σ loss / batch_num_tokens ${tokens}${w.gas > 1 ? ` / gas ${w.gas}` : ''} × dp_size ${ranks}, ` +
          `÷ ${w.gas > 1 ? `gas ${w.gas} and ` : ''}${ranks} ranks (DeepSpeed)`
        : `Σ sample means / global_batch_size ${valid}${w.gas > 1 ? ` / gas ${w.gas}` : ''} × dp_size ${ranks}, ` +
          `÷ ${w.gas > 1 ? `gas ${w.gas} and ` : ''}${ranks} ranks (DeepSpeed)`;
    const microBatches = w.ranks.flatMap((mbs, rank) =>
      mbs.map((samples) =>
        microBatch({
          rank,
          samples,
          completionTokens,
          padding: packed ? 0 : padToLongest(samples, completionTokens),
          normaliser,
          weight: samples.map((s) => {
            const n = completionTokens[s] ?? 0;
            if (n === 0) return 0;
            // token_counts + 1e-8 is float32: n itself.
            return loss === 'ppo' ? perToken : perSample / n;
          }),
          policyVersion,
          trainVersion,
        }),
      ),
    );
    return { index: firstIndex + k, microBatches };
  });
}

function boolPacking(settings: FrameworkSettings): boolean {
  return settings['packing-samples'] === true;
}

function findings(run: TrainerRun): string[] {
  const out = [
    weightSpreadFinding(run.steps, run.loss === 'gspo' ? 'sample-mean' : 'micro-batch'),
    runSizes(run.settings).dynamic
      ? null
      : "Which samples share an optimizer step is OpenRLHF's DataLoader(shuffle=True) draw on each actor's own RNG; the sandbox shows the replay " +
        "buffer's order.",
    offPolicyFinding(run.steps),
  ];
  return out.filter((s): s is string => s !== null);
}

export const OPENRLHF_TRAINER: TrainerWithFindings = {
  losses: OPENRLHF_LOSSES,
  lossFlag: 'policy-loss-type',
  // gspo: GSPO's sequence-level ratio (the geometric mean of the token ratios), not PPO's per token.
  sequenceRatio: ['gspo'],
  about:
    'aggregate_loss: masked sum / the response tokens of the whole optimizer step on all ranks (iter_grad_accum_global_norm, / gas, × dp_size), ' +
    'undone by DeepSpeed ÷ gas and the rank mean: a global token mean; gspo: per-sample means / the non-empty samples',
  optimizerSteps,
  findings,
};
