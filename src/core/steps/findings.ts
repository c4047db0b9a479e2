// The findings of a steps report, one paragraph each, with the run's own numbers.
import type { Schedule } from './frameworks.ts';
import type { StepRow, StepsReport } from './types.ts';

const TOLERANCE = 1e-9;
const fmt = (x: number) => (Math.abs(x) >= 100 || Number.isInteger(x) ? x.toFixed(0) : x.toPrecision(4));
const differs = (a: number, b: number) => Math.abs(a - b) > TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));

/** Why the per-completion weights differ, for each loss. */
const CAUSE: Record<string, string> = {
  grpo:
    'grpo averages each completion over its own tokens first, so a token weighs 1/(its completion’s length × B × GA × W): ' +
    'short completions’ tokens weigh more than long ones’.',
  'seq-mean-token-mean': 'seq-mean-token-mean averages each sequence over its own tokens first: short sequences’ tokens weigh more.',
  bnpo:
    'bnpo divides by the tokens of each rank’s own micro-batch, so a token in a micro-batch with fewer tokens weighs more: ' +
    'which completions share a micro-batch (the order across ranks and micro-steps) changes the update.',
  'token-mean':
    'token-mean divides by the tokens of the micro-batch it sees; where that is one rank’s micro-batch, ' +
    'a token in a micro-batch with fewer tokens weighs more.',
  dr_grpo: 'dr_grpo divides by the constant B × max_completion_length × GA, not by the tokens present.',
  dapo: 'dapo divides by a token count of a generation batch or window, which differs from this optimizer step’s own tokens when the two spans differ.',
  'seq-mean-token-sum':
    'seq-mean-token-sum sums each sequence’s tokens and averages over sequences: every token of every sequence weighs the same, whatever the total.',
  'seq-mean-token-sum-norm': 'seq-mean-token-sum-norm divides by a constant length, not by the tokens present.',
  'sample-mean': 'the diffusion loss is a mean over each training batch, so every sample weighs 1/(B × GA × W).',
};

function range(xs: number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of xs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
}

export function stepsFindings(report: StepsReport, schedule: Schedule): { findings: string[]; notes: string[] } {
  const c = report.config;
  const applied = report.steps.filter((s) => s.applied);
  const rows: StepRow[] = applied.flatMap((s) => s.rows);
  const findings: string[] = [];
  const name = `${report.framework.name} ${report.loss}`;

  // 1. The size of each update against the global token mean (Σ weight × tokens = 1).
  const scales = applied.map((s) => s.updateScale);
  const [lo, hi] = range(scales);
  if (scales.length && (differs(lo, 1) || differs(hi, 1))) {
    const same = !differs(lo, hi);
    let cause = '';
    if (report.loss === 'dapo' && report.framework.name === 'trl-1.9.0') {
      cause =
        ` It divides every micro-step by the generation batch's tokens (N_gen / W) while ${c.gradientAccumulationSteps} micro-steps ` +
        `accumulate and a generation batch spans steps_per_generation ${c.stepsPerGeneration}: the update is scaled by about GA / spg = ` +
        `${fmt(c.gradientAccumulationSteps / c.stepsPerGeneration)} (TRL #5619; PR #6024 added the rescale that 1.13.0 has).`;
    } else if (report.loss === 'dapo' && report.framework.name.startsWith('ms-swift')) {
      cause =
        " It divides by the window's tokens and transformers' Trainer divides by current_gradient_accumulation_steps again, " +
        'so the update is 1/GA of the token mean (ms-swift #10117, fixed by PR #10116).';
    } else if (report.loss === 'dr_grpo' || report.loss === 'seq-mean-token-sum-norm') {
      cause =
        ' A constant length in the denominator makes the update proportional to the tokens actually present ' +
        `(mean length / ${report.maxCompletionLength}).`;
    } else if (report.loss === 'seq-mean-token-sum') {
      cause = ' Sums over tokens divided by sequences make the update grow with the completions’ length.';
    }
    findings.push(
      `Update size: under ${name} the optimizer step's Σ weight × tokens is ${same ? fmt(lo) : `${fmt(lo)} to ${fmt(hi)}`} where the global token ` +
        `mean over the step gives 1, so the effective learning rate is multiplied by ${same ? 'that factor' : 'those factors'}.${cause}`,
    );
  }

  // 2. How unequally completions weigh within a step.
  const ratios = rows.filter((r) => r.intendedWeight > 0).map((r) => r.weight / r.intendedWeight);
  const [rlo, rhi] = range(ratios);
  if (ratios.length && differs(rlo, rhi)) {
    const lowest = rows.find((r) => r.weight / r.intendedWeight === rlo)!;
    const highest = rows.find((r) => r.weight / r.intendedWeight === rhi)!;
    findings.push(
      `Per completion: the weight of a completion's tokens ranges from ${fmt(rlo)} to ${fmt(rhi)} × the global token mean's ` +
        `(${fmt(rhi / rlo)}× apart; e.g. completion ${highest.completion}, ${highest.tokens} tokens on rank ${highest.rank}, against ` +
        `completion ${lowest.completion}, ${lowest.tokens} tokens on rank ${lowest.rank}). ${CAUSE[report.loss] ?? ''}`,
    );
  } else if (ratios.length) {
    findings.push(
      `Per completion: every token of a step weighs the same (${fmt(rlo)} × the global token mean's). ${CAUSE[report.loss] ?? ''}`,
    );
  }

  // 3. Short accumulation windows that still step.
  const ga = report.gradientAccumulation;
  const short = applied.filter((s) => s.microSteps < ga);
  if (short.length) {
    findings.push(
      `Short windows: ${short.length} optimizer step(s) (${short
        .slice(0, 4)
        .map((s) => `step ${s.index}: ${s.microSteps} of ${ga} micro-steps, update ${fmt(s.updateScale)}`)
        .join('; ')}) accumulate fewer than gradient_accumulation_steps micro-steps at the end of an epoch and still step the optimizer.`,
    );
  }

  // 4. Off-policy micro-steps.
  const mbs = applied.flatMap((s) => s.microBatches.filter((m) => m.rank === 0));
  const off = mbs.filter((m) => m.trainVersion > m.policyVersion);
  if (off.length) {
    const lag = Math.max(...off.map((m) => m.trainVersion - m.policyVersion));
    const first = off[0]!;
    findings.push(
      `Off-policy: ${off.length} of ${mbs.length} micro-steps train on completions generated by an older policy (up to ${lag} optimizer ` +
        `step(s) old; first: micro-step ${first.microStep}, generated by policy ${first.policyVersion}, trained at ${first.trainVersion}). ` +
        `There the ratio π/π_old is no longer 1 and clipping can act` +
        (schedule === 'trl'
          ? ` (num_iterations ${c.numIterations}, steps_per_generation ${c.stepsPerGeneration} > GA ${c.gradientAccumulationSteps} ` +
            'or reused batches: TRL #3662).'
          : schedule === 'flow-grpo'
            ? ` (inner epochs ${c.numIterations}, or an epoch cut into several optimizer steps: flow_grpo #138).`
            : ` (ppo_epochs ${c.numIterations}, or several mini-batches per step).`),
    );
  } else if (mbs.length) {
    findings.push('On-policy: every micro-step trains on completions generated by the policy it updates (the ratio is 1 at every token).');
  }

  // 5. Gradients never applied.
  const lost = report.steps.filter((s) => !s.applied);
  if (lost.length) {
    findings.push(
      `Never applied: the last ${lost[0]!.microSteps} micro-step(s) accumulate gradients but the run ends before gradient_accumulation_steps ` +
        `${c.gradientAccumulationSteps} is reached, so the optimizer never steps on them (accelerate's counter carries across epochs).`,
    );
  }

  const notes = [
    `Framework: ${report.framework.name}, pinned to ${report.framework.pinnedTo}. Checked by: ${report.framework.checkedBy}.`,
    `Lengths: ${report.lengthsSource}.`,
  ];
  if (schedule === 'trl') {
    notes.push(
      'TRL shuffles each rank’s generation batch (shuffle_sequence_dict: torch.randperm on the global generator, whose state depends on the ' +
        'model and the sampling) before cutting it into micro-batches; that draw is not reproducible from the seed, so rows keep the block’s order. ' +
        'Only bnpo’s weights depend on it.',
    );
  } else if (schedule === 'flow-grpo') {
    notes.push(
      'flow_grpo reshuffles each rank’s epoch of samples per inner epoch (torch.randperm on the device generator); rows keep the block’s order.',
    );
  } else {
    notes.push('verl splits each rank’s block in order (update_policy: data.split, no shuffle).');
  }
  return { findings, notes };
}
