// The sparsity study: how each policy behaves as the binary reward gets sparser (success
// probability p). Per (policy, p): single steps for shortage frequency, resamples, effective
// batch and waste; short training runs of a one-parameter policy for the reward reached after
// a fixed budget of generations. Theory beside simulation: a group of k ties with probability
// p^k + (1 − p)^k, and a capped pool is short when fewer than G of the (batches × G) groups mix.
import { runLocal } from './local-world.ts';
import { dynamicStep, type StepPlan } from './protocol.ts';
import { generateSamples, type RewardModel, tieProbability } from './rewards.ts';
import type { DynamicConfig, Policy, Sample } from './types.ts';

export interface SweepConfig {
  base: DynamicConfig;
  policies: Policy[];
  ps: number[];
  /** Single steps per (policy, p). */
  trials: number;
  /** Training runs per (policy, p). */
  runs: number;
  /** Generations each training run may spend, in global batches (× ranks × perRank). */
  budgetBatches: number;
  /** Learning rate of the one-parameter policy. */
  lr: number;
}

export interface SweepRow {
  policy: Policy;
  p: number;
  /** p^k + (1 − p)^k. */
  theoryFlat: number;
  /** Fraction of flat groups among the original batches. */
  simFlat: number;
  /** Probability that the pool is still short after the policy's batches (binomial). */
  theoryShortage: number;
  /** Fraction of steps whose pool stayed short (stream: never; it keeps generating). */
  shortageRate: number;
  /** Fraction of steps that failed: raise, a stalled stream, naive's uneven gather. */
  failureRate: number;
  meanResamples: number;
  /** Distinct samples per step that carry a learning signal (in a mixed group). */
  effectiveBatch: number;
  /** Generations per step that did not become such a sample. */
  wastedGenerations: number;
  /** Mean success probability after the budget (runs that failed stop where they failed). */
  finalReward: number;
  failedRuns: number;
}

export interface SweepResult {
  config: Omit<SweepConfig, 'base'> & { ranks: number; perRank: number; k: number; maxResampleTimes: number };
  rows: SweepRow[];
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

/** One step on an in-process world; every rank's plan is identical, rank 0's is returned. */
export async function simulateStep(c: DynamicConfig, model: RewardModel): Promise<StepPlan<Sample>> {
  const plans = await runLocal(c.ranks, (rank, gather) =>
    dynamicStep<Sample>({ rank, size: c.ranks, generate: (draw, prompts) => generateSamples(model, draw, rank, prompts, c.k), gather }, c),
  );
  return plans[0]!;
}

/** Whether the step cannot train: a framework error, or naive's slices of different sizes (the gather's shape mismatch). */
export function stepFails(plan: StepPlan<Sample>): boolean {
  if (plan.error) return true;
  return plan.policy === 'naive' && new Set(plan.slices.map((s) => s.samples.length)).size > 1;
}

/** Distinct trained samples that sit in a group whose rewards differ. */
export function effectiveBatch(plan: StepPlan<Sample>, metric: DynamicConfig['metric']): number {
  const groups = new Map<string, Map<string, number>>();
  for (const slice of plan.slices) {
    for (const s of slice.samples) {
      const g = groups.get(s.group) ?? new Map<string, number>();
      g.set(s.id, s[metric]);
      groups.set(s.group, g);
    }
  }
  let n = 0;
  for (const g of groups.values()) {
    const values = [...g.values()];
    if (values.some((v) => v !== values[0])) n += g.size;
  }
  return n;
}

/**
 * GRPO on a Bernoulli policy p = sigmoid(θ): advantages per group over the trained batch
 * (duplicates included, as a trainer sees them; unbiased std + 1e-4), gradient of
 * mean A·log π(a), d log π(a)/dθ = a − p.
 */
export function policyGradient(samples: readonly Sample[], p: number): number {
  const byGroup = new Map<string, number[]>();
  for (const s of samples) byGroup.set(s.group, [...(byGroup.get(s.group) ?? []), s.accuracy]);
  const stats = new Map<string, { mean: number; std: number; n: number }>();
  for (const [g, v] of byGroup) {
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    const std = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1)) : 0;
    stats.set(g, { mean, std, n: v.length });
  }
  let grad = 0;
  for (const s of samples) {
    const st = stats.get(s.group)!;
    const adv = st.n > 1 ? (s.accuracy - st.mean) / (st.std + 1e-4) : 0;
    grad += adv * (s.accuracy - p);
  }
  return samples.length ? grad / samples.length : 0;
}

/** P(X < G) for X ~ Binomial(n, q). */
function binomialBelow(n: number, q: number, G: number): number {
  let total = 0;
  let logC = 0;
  for (let x = 0; x < G && x <= n; x++) {
    if (x > 0) logC += Math.log(n - x + 1) - Math.log(x);
    const logP = logC + (x ? x * Math.log(q) : 0) + (n - x ? (n - x) * Math.log1p(-q) : 0);
    total += Math.exp(logP);
  }
  return Math.min(1, total);
}

/** Theory for the shortage frequency of a policy (stream has no cap: 0). */
export function theoryShortage(c: DynamicConfig, policy: Policy, p: number): number {
  if (policy === 'stream') return 0;
  const G = (c.ranks * c.perRank) / c.k;
  const batches = c.maxResampleTimes + (policy === 'raise-nemo' ? 2 : 1);
  const q = 1 - tieProbability(p, c.k);
  if (q <= 0) return 1;
  if (q >= 1) return 0;
  return binomialBelow(batches * G, q, G);
}

/** How far a sweep has got: work units are single steps and training runs, (trials + runs) per (policy, p) cell. */
export interface SweepProgress {
  cells: number;
  totalCells: number;
  units: number;
  totalUnits: number;
}

/** Generations one step is expected to take, a coarse upper bound from the theory (no simulation). */
export function expectedStepGenerations(c: DynamicConfig, policy: Policy, p: number): number {
  const target = c.ranks * c.perRank;
  const q = 1 - tieProbability(p, c.k); // a group mixes
  if (policy === 'stream') {
    // Each prompt slot is refilled until a mixed group lands: about k/q generations per slot, so
    // target/q in all, plus one batch of slack for the slots that wait longest; capped like the step.
    return Math.min(c.streamCapFactor * target, (q > 0 ? target / q : Infinity) + target);
  }
  // Filling G groups at a rate q per group takes about 1/q batches, plus one batch because every
  // group is needed (the last draws run short); never more than the policy's cap.
  const cap = c.maxResampleTimes + (policy === 'raise-nemo' ? 2 : 1);
  return target * Math.min(cap, q > 0 ? 1 + 1 / q : cap);
}

/** Microseconds one generation costs the in-process world: every one of the W ranks filters every gathered sample. */
export function sweepMicrosPerGeneration(ranks: number): number {
  // Measured on the shared 2-core VM under load 9 (0.8 µs at W = 1, 3 at W = 4, 4.8 at W = 16,
  // 13 at W = 64, 67–126 at W = 256, per generation), rounded up to an upper bound.
  return 1 + 0.6 * ranks;
}

/** Bytes a step holds at its peak: the pool (kept samples) and the original batch, each sample referenced by every rank. */
function stepBytes(c: DynamicConfig, policy: Policy): number {
  const target = c.ranks * c.perRank;
  // ~300 B per sample object (two id strings, four numbers) and an 8 B reference per rank in
  // each rank's copy of the gathered batch and pool (16 B for both).
  const perSample = 300 + 16 * c.ranks;
  const batches = policy === 'stream' ? 2 : c.maxResampleTimes + (policy === 'raise-nemo' ? 3 : 2);
  return batches * target * perSample;
}

/** The sweep's work from its settings alone, before running anything: generations, milliseconds and peak bytes. */
export function estimateSweep(s: SweepConfig): { generations: number; ms: number; bytes: number } {
  const target = s.base.ranks * s.base.perRank;
  let generations = 0;
  let bytes = 0;
  for (const policy of s.policies) {
    const c = { ...s.base, policy };
    bytes = Math.max(bytes, stepBytes(c, policy));
    for (const p of s.ps) {
      const step = expectedStepGenerations(c, policy, p);
      // Single steps, then training runs that stop once their budget of generations is spent
      // (the last step may overshoot it by one step).
      generations += s.trials * step + s.runs * (s.budgetBatches * target + step);
    }
  }
  return { generations, ms: (generations * sweepMicrosPerGeneration(s.base.ranks)) / 1000, bytes };
}

export async function runSweep(s: SweepConfig, onProgress?: (progress: SweepProgress) => void): Promise<SweepResult> {
  const rows: SweepRow[] = [];
  const totalCells = s.policies.length * s.ps.length;
  const totalUnits = totalCells * (s.trials + s.runs);
  let units = 0;
  const tick = () => onProgress?.({ cells: rows.length, totalCells, units: ++units, totalUnits });
  for (const policy of s.policies) {
    for (const p of s.ps) {
      const c: DynamicConfig = { ...s.base, policy };
      let flat = 0;
      let groups = 0;
      let short = 0;
      let failed = 0;
      let resamples = 0;
      let effective = 0;
      let wasted = 0;
      for (let t = 0; t < s.trials; t++) {
        const plan = await simulateStep(c, { kind: 'bernoulli', p, seed: s.base.seed * 1_000_003 + t });
        flat += plan.events[0]!.flatGroups;
        groups += plan.events[0]!.groups;
        if (plan.outcome === 'short' || (plan.outcome === 'failed' && plan.policy !== 'stream')) short++;
        const fails = stepFails(plan);
        if (fails) failed++;
        resamples += plan.resamples;
        const eff = fails ? 0 : effectiveBatch(plan, c.metric);
        effective += eff;
        wasted += plan.generated - eff;
        tick();
      }
      let finalReward = 0;
      let failedRuns = 0;
      for (let run = 0; run < s.runs; run++) {
        const out = await trainRun(c, p, s, run);
        finalReward += out.p;
        if (out.failed) failedRuns++;
        tick();
      }
      rows.push({
        policy,
        p,
        theoryFlat: tieProbability(p, c.k),
        simFlat: flat / groups,
        theoryShortage: theoryShortage(c, policy, p),
        shortageRate: short / s.trials,
        failureRate: failed / s.trials,
        meanResamples: resamples / s.trials,
        effectiveBatch: effective / s.trials,
        wastedGenerations: wasted / s.trials,
        finalReward: finalReward / s.runs,
        failedRuns,
      });
      onProgress?.({ cells: rows.length, totalCells, units, totalUnits });
    }
  }
  const { base, ...rest } = s;
  return {
    config: { ...rest, ranks: base.ranks, perRank: base.perRank, k: base.k, maxResampleTimes: base.maxResampleTimes },
    rows,
  };
}

/** One training run from success probability p0 until the generation budget is spent (or a step fails). */
async function trainRun(c: DynamicConfig, p0: number, s: SweepConfig, run: number): Promise<{ p: number; failed: boolean }> {
  const budget = s.budgetBatches * c.ranks * c.perRank;
  let theta = logit(p0);
  let spent = 0;
  for (let step = 0; spent < budget; step++) {
    const p = sigmoid(theta);
    const plan = await simulateStep(c, { kind: 'bernoulli', p, seed: (c.seed + 7919 * (run + 1)) * 65_537 + step });
    spent += plan.generated;
    if (stepFails(plan)) return { p, failed: true };
    theta +=
      s.lr *
      policyGradient(
        plan.slices.flatMap((sl) => sl.samples),
        p,
      );
  }
  return { p: sigmoid(theta), failed: false };
}
