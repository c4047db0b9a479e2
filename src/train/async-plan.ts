// `train --async`: which policy version generated each row a step trains on. The asynchronous simulation
// (src/core/async, with the workload and rule settings the run was given, read as `grpo-sandbox async` reads them:
// async-settings.ts) runs with the training's prompts per step, k, steps and seed, and says which prompt groups step t
// trains and which version generated each completion. Prompt p of the simulation (its dispatch order) is the p-th
// group of the synchronous run's layout (layout step ⌊p / B⌋, its (p mod B)-th prompt in gathered order); step t's
// j-th trained group (in prompt order) takes the places the synchronous step t gives its j-th group. At zero staleness
// every step trains prompts tB … tB + B − 1 at version t: the synchronous run's ids, at its version.
import { ConfigError } from '../core/errors.ts';
import { ruleDef, simulate } from '../core/async/index.ts';
import type { AsyncResult } from '../core/async/types.ts';
import type { Layout } from '../core/layout/types.ts';
import { asyncRuleValuesOf, asyncWorkloadOf, promptsPerStep } from './async-settings.ts';
import { layoutCovering, type TrainConfig } from './config.ts';

/** One step's rows as each rank trains them: prompt ids (the layout's shape) and the version that generated each row. */
export interface AsyncStepRows {
  ids: number[][];
  versions: number[][];
}

export interface AsyncPlan {
  framework: string;
  /** The rule's settings by the framework's own names. */
  settings: Record<string, number | boolean | string>;
  lagDefinition: string;
  /** Per training step. */
  steps: AsyncStepRows[];
  /** The most versions any row lags behind its step (how many parameter snapshots the ranks keep). */
  maxLag: number;
}

/** The simulation of a run's framework under its rule's settings and workload (async-settings.ts: the async command's readers). */
export function asyncRunOf(c: TrainConfig): AsyncResult {
  const def = ruleDef(c.async ?? '');
  if (!def) throw new ConfigError(`--async ${c.async}: not a framework's staleness rule`);
  const w = asyncWorkloadOf(c);
  return simulate(w, def.build(asyncRuleValuesOf(def, c), w.trainBatchSize, w.k, w.genWorkers));
}

/** Each layout step's groups: the gathered positions of its j-th prompt, in gathered (rank-major) order. */
function groupsOf(layout: Layout, step: number, k: number, B: number): { id: number; at: number[] }[] {
  const s = layout.steps[step];
  if (!s) throw new ConfigError(`--async: the run needs layout step ${step}, past the sampler's layout; lower --steps`);
  const groups = new Map<number, number[]>();
  s.ranks.flat().forEach((id, at) => {
    const g = groups.get(id);
    if (g) g.push(at);
    else groups.set(id, [at]);
  });
  const out = [...groups].map(([id, at]) => ({ id, at }));
  if (out.length !== B || out.some((g) => g.at.length !== k))
    throw new ConfigError(
      `--async needs every step to hold ${B} prompts × k ${k}; the ${layout.sampler} sampler's step ${step} does not (try --sampler contiguous)`,
    );
  return out;
}

/** The plan of a run whose simulation is `sim` (asyncRunOf). */
export function asyncPlanOf(c: TrainConfig, sim: AsyncResult): AsyncPlan {
  const B = promptsPerStep(c);
  const perRank = c.batch;
  const lastPrompt = Math.max(0, ...sim.steps.flatMap((s) => s.samples.map((x) => x.prompt)));
  const layout = layoutCovering(c, Math.max(c.steps, Math.floor(lastPrompt / B) + 1));
  const cache = new Map<number, { id: number; at: number[] }[]>();
  const groups = (step: number) => {
    let g = cache.get(step);
    if (!g) cache.set(step, (g = groupsOf(layout, step, c.k, B)));
    return g;
  };
  let maxLag = 0;
  const steps = sim.steps.map((s, t): AsyncStepRows => {
    const ids = new Array<number>(c.ranks * perRank).fill(-1);
    const versions = new Array<number>(c.ranks * perRank).fill(-1);
    const places = groups(t);
    // The step's groups in prompt order (the rule takes them in the order they finished; a step's order changes nothing
    // but where each row sits, and prompt order puts them where the synchronous step has them).
    const trained = [...new Set(s.samples.map((x) => x.group))].sort((a, b) => a - b);
    trained.forEach((group, j) => {
      const samples = s.samples.filter((x) => x.group === group).sort((a, b) => a.index - b.index);
      const p = samples[0]!.prompt;
      const source = groups(Math.floor(p / B))[p % B]!;
      samples.forEach((x, i) => {
        const at = places[j]!.at[i]!;
        ids[at] = source.id;
        // The weights its first token was sampled with (the oldest, for a completion generated across updates).
        const v = x.version ?? x.versions![0]!;
        versions[at] = v;
        maxLag = Math.max(maxLag, t - v);
      });
    });
    const rows = (a: number[]) => Array.from({ length: c.ranks }, (_, r) => a.slice(r * perRank, (r + 1) * perRank));
    return { ids: rows(ids), versions: rows(versions) };
  });
  return { framework: sim.framework, settings: sim.settings, lagDefinition: sim.lagDefinition, steps, maxLag };
}

/** Mean and largest lag (step − generating version) over a step's rows. */
export function stepLag(rows: AsyncStepRows, step: number): { mean: number; max: number } {
  const lags = rows.versions.flat().map((v) => step - v);
  return { mean: lags.reduce((a, b) => a + b, 0) / lags.length, max: Math.max(...lags) };
}
