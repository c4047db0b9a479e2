// The findings of a steps report, one paragraph each, with the run's own numbers, as facts.
import { type Fact, fact } from '../messages/index.ts';
import type { UpdateCause } from '../messages/steps.ts';
import type { FrameworkSpec, StepRow, StepsReport } from './types.ts';

const TOLERANCE = 1e-9;
const differs = (a: number, b: number) => Math.abs(a - b) > TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));

function range(xs: number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of xs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
}

/** Why the update of a run of `loss` under `spec` is not the size of the global token mean: the version's own cause, else the loss's. */
function updateCause(spec: FrameworkSpec, loss: string): UpdateCause {
  const own = spec.updateCauses[loss];
  if (own) return own;
  if (loss === 'dr_grpo' || loss === 'seq-mean-token-sum-norm') return 'constant-length';
  if (loss === 'seq-mean-token-sum') return 'token-sum';
  return 'none';
}

/**
 * What a steps report shows, as facts (src/core/messages/steps.ts says them in English): the findings, then what the model leaves out.
 * The sentences that depend on the framework are the ones its schedule names.
 */
export function stepsFindings(report: StepsReport, spec: FrameworkSpec): { findings: Fact[]; notes: Fact[] } {
  const c = report.config;
  const said = spec.schedule.facts;
  const applied = report.steps.filter((s) => s.applied);
  const rows: StepRow[] = applied.flatMap((s) => s.rows);
  const findings: Fact[] = [];

  // 1. The size of each update against the global token mean (Σ weight × tokens = 1).
  const scales = applied.map((s) => s.updateScale);
  const [lo, hi] = range(scales);
  if (scales.length && (differs(lo, 1) || differs(hi, 1))) {
    findings.push(
      fact('steps.update-size', {
        framework: report.framework.name,
        loss: report.loss,
        low: lo,
        high: differs(lo, hi) ? hi : null,
        cause: updateCause(spec, report.loss),
        ga: c.gradientAccumulationSteps,
        spg: c.stepsPerGeneration,
        maxLength: report.maxCompletionLength,
      }),
    );
  }

  // 2. How unequally completions weigh within a step.
  const ratios = rows.filter((r) => r.intendedWeight > 0).map((r) => r.weight / r.intendedWeight);
  const [rlo, rhi] = range(ratios);
  const named = (r: StepRow) => ({ completion: r.completion, tokens: r.tokens, rank: r.rank });
  // The formula the framework's code normalises with (the same for every micro-batch of a run).
  const normaliser = (applied[0]?.microBatches[0] ?? report.steps[0]!.microBatches[0]!).normaliserTerms.kind;
  if (ratios.length && differs(rlo, rhi)) {
    const lightest = rows.find((r) => r.weight / r.intendedWeight === rlo)!;
    const heaviest = rows.find((r) => r.weight / r.intendedWeight === rhi)!;
    findings.push(fact('steps.per-completion', { normaliser, low: rlo, high: rhi, heaviest: named(heaviest), lightest: named(lightest) }));
  } else if (ratios.length) {
    findings.push(fact('steps.per-completion-same', { normaliser, ratio: rlo }));
  }

  // 3. Short accumulation windows that still step.
  const ga = report.gradientAccumulation;
  const short = applied.filter((s) => s.microSteps < ga);
  if (short.length) {
    const windows = short.slice(0, 4).map((s) => ({ index: s.index, microSteps: s.microSteps, updateScale: s.updateScale }));
    findings.push(fact('steps.short-windows', { count: short.length, ga, windows }));
  }

  // 4. Off-policy micro-steps.
  const mbs = applied.flatMap((s) => s.microBatches.filter((m) => m.rank === 0));
  const off = mbs.filter((m) => m.trainVersion > m.policyVersion);
  if (off.length) {
    const first = off[0]!;
    findings.push(
      fact(said.offPolicy, {
        off: off.length,
        total: mbs.length,
        lag: Math.max(...off.map((m) => m.trainVersion - m.policyVersion)),
        microStep: first.microStep,
        policy: first.policyVersion,
        train: first.trainVersion,
        numIterations: c.numIterations,
        spg: c.stepsPerGeneration,
        ga: c.gradientAccumulationSteps,
      }),
    );
  } else if (mbs.length) {
    findings.push(fact('steps.on-policy'));
  }

  // 5. Gradients never applied.
  const lost = report.steps.filter((s) => !s.applied);
  if (lost.length) {
    if (!said.neverApplied) throw new Error(`steps: ${spec.name}'s schedule left micro-steps unapplied, which it says never happens`);
    findings.push(fact(said.neverApplied, { microSteps: lost[0]!.microSteps, ga: c.gradientAccumulationSteps }));
  }

  const notes = [fact('steps.note.framework', { ...report.framework }), fact('steps.note.lengths', report.lengths), fact(said.shuffle)];
  return { findings, notes };
}
