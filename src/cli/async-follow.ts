// `grpo-sandbox async --follow PROMPT`: one prompt's completions from generation to their weight in the update. The
// simulation (traced as the browser's timeline traces it: every completion's slot and times) says which worker decoded
// each, with which version(s), how long it waited and its lag; the step that trains it is then handed to `grpo-sandbox
// steps`' model (core/steps' buildSteps, its public API) as a layout of one step: that step's completions in the order
// the rule took them, on --ranks ranks, with their real token counts. The steps model says each completion's rank,
// micro-batch and position, and the weight each of its tokens gets in the applied update.
import type { RuleDef, RuleValues } from '../core/async/rule.ts';
import type { AsyncWorkload, TrainedStep } from '../core/async/types.ts';
import { ConfigError } from '../core/errors.ts';
import { buildLayout, samplerNames } from '../core/samplers/index.ts';
import { buildSteps, FRAMEWORKS, FRAMEWORK_NAMES } from '../core/steps/index.ts';
import { traceRun } from '../ui/async/async-trace.ts';

/** The steps model the trained step goes through unless --steps-framework says another (TRL's GRPOTrainer, whose layouts these are). */
export const DEFAULT_STEPS_FRAMEWORK = 'trl-1.13.0';

/** The layout the followed step is given: the one sampler's layout the default steps framework trains (TRL's). */
const FOLLOW_SAMPLER = samplerNames.find((s) => FRAMEWORKS[DEFAULT_STEPS_FRAMEWORK]!.accepts(s))!;

/** The step frameworks that train that layout (one generation, one optimizer step, each rank's block one micro-batch). */
export const FOLLOW_FRAMEWORKS: readonly string[] = FRAMEWORK_NAMES.filter((n) => FRAMEWORKS[n]!.accepts(FOLLOW_SAMPLER));

export interface FollowOptions {
  prompt: number;
  /** Data-parallel ranks the trained step is spread over (its completions in order, an equal block each). */
  ranks: number;
  stepsFramework: string;
  /** The steps framework's loss type (default: its default). */
  loss?: string;
}

export interface FollowedCompletion {
  index: number;
  length: number;
  worker: number | null;
  lane: number | null;
  start: number | null;
  end: number | null;
  versions: number[];
  /** Seconds from its end to the start of the step that trains it (null: not trained). */
  wait: number | null;
  /** In the trained step (null: not trained): its place and weight as the steps model has it. */
  rank: number | null;
  microStep: number | null;
  position: number | null;
  /** The factor on d(per-token loss) of each of its tokens in the applied update (after DDP's mean over ranks). */
  weight: number | null;
  /** The global token mean's weight over the step (1 / its tokens, all ranks). */
  intendedWeight: number | null;
}

export interface Followed {
  framework: string;
  /** The rule's settings by the framework's own names, and what it calls lag. */
  settings: Record<string, number | boolean | string>;
  lagDefinition: string;
  prompt: number;
  group: number;
  difficulty: string | null;
  dispatchedAt: number;
  dispatchVersion: number;
  fate:
    | {
        kind: 'trained';
        step: number;
        version: number;
        start: number;
        lag: number;
        framework: string;
        loss: string;
        /** The normaliser of the micro-batch holding its first completion, and that rank. */
        normaliser: string;
        rank: number;
      }
    | { kind: 'dropped'; why: string; detail: string; atVersion: number; time: number }
    | { kind: 'left' };
  completions: FollowedCompletion[];
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The steps model of one async step: its completions on `ranks` ranks in the order the rule took them. */
function stepsOf(step: TrainedStep, k: number, o: FollowOptions) {
  const n = step.samples.length;
  if (n % o.ranks !== 0)
    throw new ConfigError(
      `--follow: step ${step.step} trains ${n} completions, which ${o.ranks} ranks cannot share equally; give --ranks dividing ${n}`,
    );
  const perRank = n / o.ranks;
  const prompts = n / k;
  // A layout of one step with the right shape; its prompt ids are then the async step's prompts.
  const layout = buildLayout({
    sampler: FOLLOW_SAMPLER,
    ranks: o.ranks,
    batch: perRank,
    k,
    batchesPerEpoch: 1,
    epochs: 1,
    datasetSize: prompts,
    seed: 0,
    stepsPerGeneration: 1,
    numIterations: 1,
    gradientAccumulationSteps: 1,
    numWorkers: 0,
    prefetchFactor: 2,
    acceleratePrepare: 0,
  });
  const ranks = Array.from({ length: o.ranks }, (_, r) => step.samples.slice(r * perRank, (r + 1) * perRank).map((s) => s.prompt));
  const one = { ...layout, steps: [{ ...layout.steps[0]!, ranks }] };
  const lengths = step.samples.map((s) => s.length);
  return buildSteps(one, {
    framework: o.stepsFramework,
    ...(o.loss !== undefined && { loss: o.loss }),
    lengths,
    lengthsSource: `the async run's step ${step.step}`,
    maxCompletionLength: Math.max(512, ...lengths),
  });
}

/** One prompt of the workload under `def`'s rule, followed from its dispatch to its weight in the update. */
export function follow(w: AsyncWorkload, def: RuleDef, values: RuleValues, o: FollowOptions): Followed {
  if (!FOLLOW_FRAMEWORKS.includes(o.stepsFramework))
    throw new ConfigError(`--steps-framework takes one of ${FOLLOW_FRAMEWORKS.join(', ')}, got '${o.stepsFramework.slice(0, 40)}'`);
  const trace = traceRun(w, def, values);
  const group = trace.groups.find((g) => g.prompt === o.prompt);
  if (!group)
    throw new ConfigError(
      `--follow ${o.prompt}: the run dispatched prompts 0–${trace.groups.length - 1} in its ${w.steps} steps; follow one of them`,
    );
  const fate = trace.fates[group.id]!;
  const trainedStep = fate.kind === 'trained' ? trace.result.steps[fate.step]! : null;
  const report = trainedStep ? stepsOf(trainedStep, w.k, o) : null;
  const rows = report?.steps[0]?.rows ?? [];
  const completions = group.samples.map((s): FollowedCompletion => {
    const at = trainedStep ? trainedStep.samples.findIndex((x) => x.group === group.id && x.index === s.index) : -1;
    const row = at >= 0 ? rows.find((r) => r.completion === at) : undefined;
    const started = s.start >= 0;
    return {
      index: s.index,
      length: s.length,
      worker: started ? Math.floor(s.slot / w.concurrency) : null,
      lane: started ? s.slot % w.concurrency : null,
      start: started ? round6(s.start) : null,
      end: started && s.end >= 0 ? round6(s.end) : null,
      versions: started ? [...s.versions] : [],
      wait: at >= 0 ? trainedStep!.samples[at]!.wait : null,
      rank: row?.rank ?? null,
      microStep: row?.microStep ?? null,
      position: row?.position ?? null,
      weight: row?.weight ?? null,
      intendedWeight: row?.intendedWeight ?? null,
    };
  });
  // The micro-batch of the rank that holds its first trained completion (a group may straddle two ranks: said per completion).
  const home = completions.find((c) => c.rank !== null)?.rank;
  const mb = report?.steps[0]?.microBatches.find((m) => m.rank === home);
  return {
    framework: trace.result.framework,
    settings: trace.result.settings,
    lagDefinition: trace.result.lagDefinition,
    prompt: group.prompt,
    group: group.id,
    difficulty: group.difficulty,
    dispatchedAt: round6(group.dispatchedAt),
    dispatchVersion: group.dispatchVersion,
    fate:
      fate.kind === 'trained'
        ? {
            kind: 'trained',
            step: fate.step,
            version: trainedStep!.version,
            start: trainedStep!.start,
            lag: fate.lag,
            framework: report!.framework.name,
            loss: report!.loss,
            normaliser: mb?.normaliser ?? '',
            rank: home ?? 0,
          }
        : fate.kind === 'dropped'
          ? {
              kind: 'dropped',
              why: fate.why,
              detail: fate.detail,
              atVersion: fate.atVersion,
              time: trace.result.dropped.find((d) => d.group === group.id)!.time,
            }
          : { kind: 'left' },
    completions,
  };
}

const fixed = (x: number | null, d = 2) => (x === null ? '—' : x.toFixed(d));

/** What `async --follow` prints. */
export function followText(f: Followed, ranks: number): string {
  const settings = Object.entries(f.settings).map(([k, v]) => `${k}=${v}`);
  const framework = `${f.framework} (${settings.join(', ') || 'no staleness setting'})`;
  const lagDefinition = f.lagDefinition;
  const lines = [
    `prompt ${f.prompt}${f.difficulty ? ` (${f.difficulty})` : ''} under ${framework}: dispatched at ${fixed(f.dispatchedAt)} s with the ` +
      `generators at version ${f.dispatchVersion}`,
    'generation:',
  ];
  for (const c of f.completions) {
    if (c.start === null) {
      lines.push(`  completion ${c.index}: ${c.length} tokens, never started`);
      continue;
    }
    const vs = c.versions.length > 1 ? `versions ${c.versions.join('→')} (updated in flight)` : `version ${c.versions[0]}`;
    lines.push(
      `  completion ${c.index}: worker ${c.worker} lane ${c.lane}, ${fixed(c.start)}–${c.end === null ? 'still decoding' : `${fixed(c.end)} s`}, ` +
        `${c.length} tokens, ${vs}` +
        (c.wait === null ? '' : `, waited ${fixed(c.wait)} s`),
    );
  }
  const fate = f.fate;
  if (fate.kind === 'dropped') {
    lines.push(`dropped at ${fixed(fate.time)} s (trainer at version ${fate.atVersion}): ${fate.why}, ${fate.detail}; it trains nowhere`);
  } else if (fate.kind === 'left') {
    lines.push('not trained within the simulated steps (still generating or waiting in the buffer when the run ended)');
  } else {
    lines.push(
      `trained at step ${fate.step} (trainer version ${fate.version}, starts ${fixed(fate.start)} s): lag ${fate.lag} (${lagDefinition})`,
      `in the update, as grpo-sandbox steps models ${fate.framework} with the ${fate.loss} loss on ${ranks} rank${ranks === 1 ? '' : 's'} ` +
        `(the step's completions in the order the rule took them, their real token counts):`,
    );
    for (const c of f.completions) {
      if (c.weight === null) continue;
      lines.push(
        `  completion ${c.index}: rank ${c.rank}, micro-batch ${c.microStep} position ${c.position}, ${c.length} tokens × weight ` +
          `${c.weight.toExponential(3)} per token = ${(c.weight * c.length).toFixed(4)} of the update ` +
          `(the global token mean gives ${(c.intendedWeight! * c.length).toFixed(4)})`,
      );
    }
    if (fate.normaliser) lines.push(`  rank ${fate.rank}'s micro-batch normaliser: ${fate.normaliser}`);
  }
  return `${lines.join('\n')}\n`;
}
