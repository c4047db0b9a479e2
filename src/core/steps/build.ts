// The optimizer steps of a layout under one framework version and loss: every rank's
// micro-batches, the policy that generated them and each completion's applied weight against the
// global token mean over the step.
import { configError, fact } from '../messages/index.ts';
import type { Layout } from '../layout/types.ts';
import { DEFAULT_SAMPLERS, FRAMEWORK_NAMES, FRAMEWORKS, defaultFramework, type FrameworkSpec } from './frameworks.ts';
import { stepsFindings } from './findings.ts';
import { seededLengths } from './lengths.ts';
import { completionOffsets, planMicroSteps, type BlockOrder } from './schedule.ts';
import type { MicroBatch, OptimizerStep, StepRow, StepsReport } from './types.ts';

export interface StepsOptions {
  /** Framework version name (FRAMEWORK_NAMES); default: the sampler's framework. */
  framework?: string;
  /** Loss type; default: the framework's default. */
  loss?: string;
  /** Completion token counts in completion order, used cyclically; default: seeded from the layout's seed. */
  lengths?: readonly number[];
  lengthsSource?: string;
  /** TRL max_completion_length / verl's padded response length (dr_grpo, seq-mean-token-sum-norm). */
  maxCompletionLength?: number;
  /** verl: ppo_micro_batch_size_per_gpu (samples per rank per micro-step); default: the rank's block / GA. */
  microBatch?: number;
  /** The shuffles the real run drew (fixtures); default: none. */
  order?: BlockOrder;
  /** Called after each optimizer step is built, with the steps built and the steps in all (the CLI's progress). */
  onProgress?: (done: number, total: number) => void;
}

/** Framework and loss for a layout, checked: a ConfigError names the valid alternatives. */
export function resolveFramework(layout: Layout, options: Pick<StepsOptions, 'framework' | 'loss'>): { spec: FrameworkSpec; loss: string } {
  const sampler = layout.sampler;
  let spec: FrameworkSpec | null;
  if (options.framework === undefined) {
    spec = defaultFramework(sampler);
    if (!spec) {
      throw configError([fact('steps.sampler-not-modelled', { sampler })], [{ sampler: DEFAULT_SAMPLERS[0] }]);
    }
  } else {
    spec = Object.hasOwn(FRAMEWORKS, options.framework) ? FRAMEWORKS[options.framework]! : null;
    if (!spec)
      throw configError([
        fact('steps.unknown-framework', { got: String(options.framework).slice(0, 40), frameworks: [...FRAMEWORK_NAMES] }),
      ]);
    if (!spec.accepts(sampler)) {
      const ok = FRAMEWORK_NAMES.filter((n) => FRAMEWORKS[n]!.accepts(sampler));
      throw configError([fact('steps.framework-sampler', { framework: spec.name, sampler, fits: ok })]);
    }
  }
  const loss = options.loss ?? spec.defaultLoss;
  if (!spec.losses.includes(loss)) {
    throw configError([fact('steps.loss', { got: String(loss).slice(0, 40), framework: spec.name, losses: [...spec.losses] })]);
  }
  return { spec, loss };
}

/**
 * The token count of each completion, in completion order (layout step, rank-major, slot), where the
 * layout balanced its ranks by them (verl's _balance_batch: each step's seqlens in dispatch order); else null.
 */
function balancedSeqlens(layout: Layout): number[] | null {
  if (!layout.steps.length) return null;
  const out: number[] = [];
  for (const step of layout.steps) {
    if (!step.seqlens || !step.order) return null;
    const perRank = step.ranks[0]?.length ?? 0;
    step.ranks.forEach((slots, r) => {
      slots.forEach((_, j) => out.push(step.seqlens![step.order![r * perRank + j]!]!));
    });
  }
  return out;
}

/** Every optimizer step of `layout`, with each completion's applied and intended weight. */
export function buildSteps(layout: Layout, options: StepsOptions = {}): StepsReport {
  const { spec, loss } = resolveFramework(layout, options);
  const c = layout.config;
  const given = options.lengths;
  // A layout balanced by its samples' token counts (verl's sampler): without --lengths the loss counts those same tokens.
  const balanced = balancedSeqlens(layout);
  const seqlens = !given?.length ? balanced : null;
  const longest = seqlens ? seqlens.reduce((a, b) => Math.max(a, b), 0) : 0;
  if (seqlens && options.maxCompletionLength !== undefined && options.maxCompletionLength < longest) {
    throw configError([fact('steps.max-length', { max: options.maxCompletionLength, longest })]);
  }
  const maxLength = options.maxCompletionLength ?? Math.max(512, longest);
  const batching = spec.schedule.batching(layout, spec.name, options.microBatch);
  const plan = planMicroSteps(layout, spec.schedule, batching.microBatch, options.order, batching.miniBatch);
  const offsets = completionOffsets(layout);
  const total = offsets.length ? offsets.at(-1)! + layout.steps.at(-1)!.ranks.flat().length : 0;
  const diffusion = spec.schedule.diffusion;
  if (diffusion && given?.length) {
    throw configError([fact('steps.no-tokens', { framework: spec.name })]);
  }
  const lengths = diffusion ? [1] : given?.length ? given : (seqlens ?? seededLengths(c.seed, Math.max(1, total), maxLength));
  const tokensOf = (completion: number) => lengths[completion % lengths.length]!;
  // Prompt id of each completion, in completion order (layout step, rank-major, slot).
  const promptIds = layout.steps.flatMap((step) => step.ranks.flat());
  // Completion tokens of each layout step, every rank.
  const stepTokens = layout.steps.map((step, s) => {
    const count = step.ranks.reduce((n, slots) => n + slots.length, 0);
    let t = 0;
    for (let i = 0; i < count; i++) t += tokensOf(offsets[s]! + i);
    return t;
  });
  const generationTokens = (steps: number[]) => steps.reduce((n, s) => n + stepTokens[s]!, 0);

  // Policy versions: optimizer steps completed before each micro-step; a generation is sampled before its first micro-step.
  const versionBefore: number[] = [];
  let done = 0;
  plan.microSteps.forEach((m, i) => {
    versionBefore.push(done);
    const next = plan.microSteps[i + 1];
    if ((!next || next.window !== m.window) && plan.windows[m.window]!.applied) done++;
  });
  const generatedAt = new Map<number, number>();
  plan.microSteps.forEach((m, i) => {
    if (!generatedAt.has(m.generation)) generatedAt.set(m.generation, versionBefore[i]!);
  });

  const steps: OptimizerStep[] = [];
  let index = 0;
  // Micro-step indices of each window, in one pass.
  const byWindow: number[][] = plan.windows.map(() => []);
  plan.microSteps.forEach((m, i) => byWindow[m.window]!.push(i));
  for (let wi = 0; wi < plan.windows.length; wi++) {
    const w = plan.windows[wi]!;
    const ids = byWindow[wi]!;
    let windowTokens = 0;
    let windowSequences = 0;
    for (const i of ids) {
      for (const completions of plan.microSteps[i]!.perRank) {
        for (const id of completions) windowTokens += tokensOf(id);
        windowSequences += completions.length;
      }
    }
    const intendedWeight = windowTokens > 0 ? 1 / windowTokens : 0;
    const rows: StepRow[] = [];
    const microBatches: MicroBatch[] = [];
    for (const i of ids) {
      const m = plan.microSteps[i]!;
      const nGen = spec.schedule.countsGenerationTokens ? generationTokens(m.generationSteps) : 0;
      const policyVersion = generatedAt.get(m.generation)!;
      const trainVersion = versionBefore[i]!;
      for (let rank = 0; rank < m.perRank.length; rank++) {
        const completions = m.perRank[rank]!;
        const tokens = completions.map(tokensOf);
        const norm = spec.normaliser(loss, {
          ranks: c.ranks,
          rows: tokens,
          window: w.size,
          ga: batching.ga,
          stepsPerGeneration: c.stepsPerGeneration,
          generationTokens: nGen,
          windowTokens,
          windowSequences,
          maxLength,
          dynamicMini: batching.dynamicMini,
        });
        const first = rows.length;
        const rowIds: number[] = new Array(completions.length);
        for (let position = 0; position < completions.length; position++) {
          const completion = completions[position]!;
          rowIds[position] = first + position;
          rows.push({
            completion,
            promptId: promptIds[completion]!,
            rank,
            microStep: i,
            position,
            policyVersion,
            trainVersion,
            tokens: tokens[position]!,
            // DDP / FSDP / accelerate average the gradient over the ranks.
            weight: w.applied ? norm.perToken(position) / c.ranks : 0,
            intendedWeight,
          });
        }
        microBatches.push({
          rank,
          microStep: i,
          generation: m.generation,
          pass: m.pass,
          policyVersion,
          trainVersion,
          rows: rowIds,
          ...(m.packedTokens ? { packedTokens: m.packedTokens[rank]! } : {}),
          normaliser: norm.text,
          normaliserTerms: norm.terms,
        });
      }
    }
    let updateScale = 0;
    for (const r of rows) updateScale += r.weight * r.tokens;
    steps.push({
      index: w.applied ? index++ : -1,
      epoch: w.epoch,
      microSteps: w.size,
      applied: w.applied,
      rows,
      microBatches,
      updateScale,
    });
    options.onProgress?.(wi + 1, plan.windows.length);
  }

  const report: StepsReport = {
    config: c,
    framework: { name: spec.name, pinnedTo: spec.pinnedTo, checkedBy: spec.checkedBy },
    loss,
    microBatch: plan.microBatch,
    gradientAccumulation: batching.ga,
    gradientAccumulationFrom: batching.gaFrom,
    maxCompletionLength: maxLength,
    lengths: diffusion
      ? { kind: 'diffusion' }
      : given?.length
        ? {
            kind: 'given',
            source: options.lengthsSource ?? 'given',
            count: given.length,
            repeated: given.length < total,
            verl: balanced !== null,
          }
        : seqlens
          ? { kind: 'seqlens', measured: Boolean(c.seqlens) }
          : { kind: 'seeded', low: Math.max(1, Math.floor(maxLength / 8)), high: maxLength, seed: c.seed },
    steps,
    findings: [],
    notes: [],
  };
  const { findings, notes } = stepsFindings(report, spec);
  report.findings = findings;
  report.notes = notes;
  return report;
}
