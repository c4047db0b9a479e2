// What a trained controller chooses, next to the optimum: the greedy (most likely) configuration
// for every prompt of the bank, summarised per latency-budget band, for the report.
import { configReward, HEADS, INSERTION_POSITIONS, TIER_CROPS, TOP_K, type ConfigActions } from '../core/env/controller.ts';
import { VALID_CONFIGS, type Task } from '../core/env/task.ts';
import { fastBackend } from '../ops/backend.ts';
import { rollout } from './policy.ts';

/** One budget band: what the policy picks there and what the optimum would. */
export interface BudgetBand {
  fromMs: number;
  toMs: number;
  prompts: number;
  policy: BandChoice;
  optimum: BandChoice;
}

/** What a policy or the optimum picks in a band: its mean reward and latency, and its most common configuration. */
export interface BandChoice {
  reward: number;
  latencyMs: number;
  /** The configuration in English words (the CLI's report). */
  config: string;
  /** The same configuration's numbers, for the page's languages (null in a band without prompts). */
  parts: ConfigParts | null;
}

/** A configuration as numbers: crops of its image tier, insertion position p, top-K, active blocks. */
export interface ConfigParts {
  crops: number;
  p: number;
  topK: number;
  blocks: number;
}

export function configParts(a: ConfigActions): ConfigParts {
  const p = INSERTION_POSITIONS[a.insertion]!;
  return { crops: TIER_CROPS[a.tier]!, p, topK: TOP_K[a.topK]!, blocks: p + a.knob3 };
}

/** A configuration in words: tier, insertion p, top-K, active blocks. */
export function describeConfig(a: ConfigActions): string {
  const c = configParts(a);
  return `crops ${c.crops} · p ${c.p} · top-${c.topK} · ${c.blocks} blocks`;
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/** A band's totals as its means and its most common configuration. */
function choice(
  total: { reward: number; latencyMs: number; configs: string[] },
  members: number,
  parts: Map<string, ConfigParts>,
): BandChoice {
  const config = mostCommon(total.configs);
  return { reward: total.reward / members, latencyMs: total.latencyMs / members, config, parts: parts.get(config) ?? null };
}

/** The most likely action of each head, row by row (masked options excluded). */
function argmax(probs: Float32Array, rows: number, width: number): Uint32Array {
  const out = new Uint32Array(rows);
  for (let r = 0; r < rows; r++) {
    let best = 0;
    for (let j = 1; j < width; j++) if (probs[r * width + j]! > probs[r * width + best]!) best = j;
    out[r] = best;
  }
  return out;
}

/**
 * The greedy policy of `params` on every prompt of the bank, in `bands` equal budget bands
 * (budgets are drawn in [20, 50) ms), beside the optimum's choices there.
 */
export async function policyByBudget(task: Task, params: Float32Array, bands = 6, maxPrompts = task.prompts.count): Promise<BudgetBand[]> {
  // Every n-th prompt when fewer are asked for (seed-sized models: each latency token costs p·dModel²).
  const stride = Math.max(1, Math.ceil(task.prompts.count / maxPrompts));
  const ids = Array.from({ length: Math.ceil(task.prompts.count / stride) }, (_, i) => i * stride);
  // The sampled rollout gives stage-1 probabilities; greedy stage-1 choices come from them.
  const first = await rollout(fastBackend, task, params, ids, { seed: 0, step: 0, rowOffset: 0 });
  const n = ids.length;
  const tier = argmax(first.heads.tier.probs, n, HEADS.tier.width);
  const insertion = argmax(first.heads.insertion.probs, n, HEADS.insertion.width);
  // Stage 2 depends on the insertion: a second pass with the greedy insertion forced.
  const second = await rollout(fastBackend, task, params, ids, { seed: 0, step: 0, rowOffset: 0 }, insertion);
  const topK = argmax(second.heads.topK.probs, n, HEADS.topK.width);
  const knob3 = argmax(second.heads.knob3.probs, n, HEADS.knob3.width);
  const out: BudgetBand[] = [];
  const at = new Map(ids.map((id, row) => [id, row]));
  for (let b = 0; b < bands; b++) {
    const fromMs = 20 + (30 * b) / bands;
    const toMs = 20 + (30 * (b + 1)) / bands;
    const members = ids.filter((i) => task.prompts.budgetMs[i]! >= fromMs && task.prompts.budgetMs[i]! < toMs);
    const policy = { reward: 0, latencyMs: 0, configs: [] as string[] };
    const optimum = { reward: 0, latencyMs: 0, configs: [] as string[] };
    const parts = new Map<string, ConfigParts>();
    for (const i of members) {
      const d = task.prompts.difficulty[i]!;
      const budget = task.prompts.budgetMs[i]!;
      const row = at.get(i)!;
      const a = { tier: tier[row]!, insertion: insertion[row]!, topK: topK[row]!, knob3: knob3[row]! };
      const got = configReward(a, d, budget);
      policy.reward += got.reward;
      policy.latencyMs += got.latencyMs;
      policy.configs.push(describeConfig(a));
      parts.set(describeConfig(a), configParts(a));
      const best = VALID_CONFIGS[task.optimumConfig[i]!]!;
      const opt = configReward(best, d, budget);
      optimum.reward += opt.reward;
      optimum.latencyMs += opt.latencyMs;
      optimum.configs.push(describeConfig(best));
      parts.set(describeConfig(best), configParts(best));
    }
    const m = Math.max(members.length, 1);
    out.push({
      fromMs,
      toMs,
      prompts: members.length,
      policy: choice(policy, m, parts),
      optimum: choice(optimum, m, parts),
    });
  }
  return out;
}
