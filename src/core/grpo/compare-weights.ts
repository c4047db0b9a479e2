// Every framework's per-completion token weight beside its advantages: for one batch (rewards, prompt ids, k and each
// completion's tokens), the weight each framework's shipped default loss normaliser gives a token of each completion
// in the applied update, and what the completion then contributes: advantage × weight × its tokens. The weights are
// read from the framework's own model of one optimizer step, the one `steps --framework NAME` builds (the step specs
// of src/core/steps through buildSteps, a framework home's TrainerDef through its layout and optimizerSteps), with
// the settings `cli` lists, so `steps --framework NAME <cli> --lengths L --seqlens L` reports the same weights.
// Assumption: one rank, the whole batch one optimizer step; micro-batches as each framework's defaults cut them.
// The diffusion trainers (flow_grpo, DanceGRPO) take no token lengths: each sample is one "token" of their steps, so
// their columns weigh a whole sample (their step spec's unit 'sample'), and `steps` runs them without --lengths.
import { ConfigError } from '../errors.ts';
import { FRAMEWORK_HOMES, frameworkHome } from '../frameworks/index.ts';
import { homeStepWeights, type SpecWeightColumn } from '../frameworks/one-step.ts';
import { SAMPLER_HOMES } from '../frameworks/sampler-homes.ts';
import { buildLayout } from '../samplers/index.ts';
import { buildSteps } from '../steps/build.ts';
import { FRAMEWORKS } from '../steps/frameworks.ts';
import type { FrameworkName } from '../steps/types.ts';
import { seededLengths } from '../steps/lengths.ts';
import { stepsSettingsFrom } from '../steps/settings.ts';
import type { Comparison } from './compare.ts';

/** The seed of the lengths drawn when none are given (the steps' seeded default: torch.randint on MT19937). */
export const LENGTHS_SEED = 0;
/** The longest completion the seeded lengths draw, and the least max_completion_length the step specs get. */
export const LENGTHS_MAX = 512;

/** One framework's one-step run: how `steps` is asked for it, and whose advantage scheme goes with it. */
interface WeightRecipe {
  /** Column name: the framework (and the loss, where one framework shows two). */
  name: string;
  /** `steps --framework` value: a step spec's version or a framework home's name. */
  framework: string;
  /** The loss the column shows; null: the framework's shipped default. */
  loss: string | null;
  /** Whether `loss` is the framework's default or a documented switch shown beside it. */
  switched: boolean;
  /** The sandbox's scheme of the framework's default advantages; null: the home's first (its default). */
  scheme: string | null;
  /** The flags of `steps` (besides --framework, --lengths, --seqlens) that make the batch one optimizer step on one rank. */
  flags(prompts: number, k: number, samples: number, longest: number): Record<string, string>;
}

/** A sampler-style home's column as a recipe (its flags get the response width the batch needs, at least LENGTHS_MAX). */
const specRecipe = (c: SpecWeightColumn): WeightRecipe => ({
  ...c,
  flags: (prompts, k, samples, longest) => c.flags({ prompts, k, samples, maxLength: Math.max(LENGTHS_MAX, longest) }),
});
const byUnit = (unit: 'token' | 'sample') =>
  SAMPLER_HOMES.flatMap((h) => h.weightColumns)
    .filter((c) => FRAMEWORKS[c.framework as FrameworkName]?.unit === unit)
    .map(specRecipe);

/**
 * The frameworks compared, in display order: the sampler-style homes' token columns, every framework home (its own
 * one-step flags), then the diffusion trainers' per-sample columns; each runs its shipped default loss unless `switched`.
 */
const RECIPES: readonly WeightRecipe[] = [
  ...byUnit('token'),
  ...FRAMEWORK_HOMES.map(
    (home): WeightRecipe => ({
      name: home.name,
      framework: home.name,
      loss: null,
      switched: false,
      scheme: null,
      flags: (prompts, k, samples, longest) => home.oneStep({ prompts, k, samples, maxLength: Math.max(LENGTHS_MAX, longest) }),
    }),
  ),
  ...byUnit('sample'),
];

/** The batch and its completions' tokens. */
export interface WeightsInput {
  rewards: readonly number[];
  promptIds: readonly number[];
  k: number;
  /** Completion (loss-mask) tokens per completion, in input order; absent: seeded (LENGTHS_SEED), and the result says so. */
  lengths?: readonly number[];
}

/** One framework's weights. */
export interface WeightColumn {
  /** Column name ('trl', 'trl-grpo', 'nemo-rl', …). */
  name: string;
  /** `steps --framework` value. */
  framework: string;
  /** The loss normaliser's mode as the framework names it ('dapo', 'token-mean', 'false' for slime's calculate_per_token_loss). */
  loss: string;
  /** True where `loss` is a documented switch, not the framework's shipped default. */
  switched: boolean;
  /** The advantage scheme whose advantages the totals use (the framework's default). */
  scheme: string;
  /** Whose model: a step spec of src/core/steps ('spec') or a framework home's trainer ('home': `steps` then takes --seqlens too). */
  via: 'spec' | 'home';
  /** What a weight weighs: one token of the completion, or the whole sample (a diffusion trainer, whose steps take no lengths). */
  unit: 'token' | 'sample';
  /**
   * The `steps` flags that give the same optimizer step (add --lengths with the lengths, and for a framework home --seqlens;
   * a 'sample' column takes neither).
   */
  cli: string[];
  /** The first micro-batch's normaliser as `steps` says it. */
  normaliser: string | null;
  /** The weight of each token (a 'sample' column: each sample) of each completion in the applied update, in input order; null where the framework refuses. */
  weights: number[] | null;
  /** weights × the batch's completion tokens: 1 = the global token mean's weight ('sample': × the samples, 1 = the per-sample mean's). */
  relative: number[] | null;
  /** advantage × weight × tokens ('sample': × 1) per completion (null where the advantage is NaN); null where weights or advantages are. */
  totals: (number | null)[] | null;
  /** Why there are no weights (the framework's refusal, in English). */
  refused: string | null;
}

export interface WeightsComparison {
  /** The tokens used, in input order. */
  lengths: number[];
  /** 'given': the input's; 'seeded': drawn as `steps` draws them (torch.randint(low, high + 1) on MT19937(seed)). */
  lengthsSource: { kind: 'given' } | { kind: 'seeded'; seed: number; low: number; high: number };
  /** Σ lengths: the global token mean's denominator. */
  tokens: number;
  columns: WeightColumn[];
}

/** What the weights assume, in one sentence (the CLI and the page say it). */
export const WEIGHTS_ASSUMPTION =
  'one rank, the whole batch one optimizer step, micro-batches as each framework cuts them by default; ' +
  "completion i of the batch is sample i of that step, and a framework home's seqlens are the completion tokens (no prompt tokens)";

/** Every compared framework's column name, in order. */
export const weightFrameworks = (): string[] => RECIPES.map((r) => r.name);

/** A flag map as `steps` arguments. */
const argv = (flags: Record<string, string>): string[] => Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v]);

/** What a recipe's weight weighs: its step spec's unit (a diffusion trainer's: the whole sample, no --lengths); a home's: a token. */
const unitOf = (recipe: WeightRecipe): WeightColumn['unit'] =>
  Object.hasOwn(FRAMEWORKS, recipe.framework) ? FRAMEWORKS[recipe.framework]!.unit : 'token';

/** Weights of one step spec (src/core/steps) for the batch, through buildSteps as `steps` builds them. */

function specWeights(recipe: WeightRecipe, flags: Record<string, string>, lengths: readonly number[]) {
  const values: Record<string, string> = { ...flags, framework: recipe.framework };
  if (unitOf(recipe) === 'token') values.lengths = JSON.stringify(lengths);
  if (recipe.loss) values.loss = recipe.loss;
  const { config, options } = stepsSettingsFrom((key) => values[key]);
  const report = buildSteps(buildLayout(config), options);
  const applied = report.steps.filter((s) => s.applied);
  if (applied.length !== 1) throw new ConfigError(`${recipe.framework} takes ${applied.length} optimizer steps for this batch, not one`);
  const step = applied[0]!;
  const weights = new Array<number>(lengths.length).fill(Number.NaN);
  for (const row of step.rows) weights[row.completion] = row.weight;
  return { loss: report.loss, normaliser: step.microBatches[0]?.normaliser ?? null, weights };
}

/**
 * Each compared framework's token weights for the batch, and each completion's total (advantage × weight × tokens) with
 * the advantages of `advantages` (compareAdvantages over at least the frameworks' default schemes; a scheme it lacks
 * leaves the totals null). A framework that refuses the batch (its count, its checks) gets a column with its refusal.
 */
export function compareWeights(input: WeightsInput, advantages: Comparison): WeightsComparison {
  const { rewards, k } = input;
  const n = rewards.length;
  if (input.lengths && input.lengths.length !== n)
    throw new ConfigError(`lengths has ${input.lengths.length} entries but rewards has ${n}; give one completion token count per reward`);
  const bad = input.lengths?.findIndex((x) => !Number.isInteger(x) || x < 1) ?? -1;
  if (bad >= 0) throw new ConfigError(`lengths[${bad}] must be a whole number of completion tokens ≥ 1, got ${input.lengths![bad]}`);
  const lengths = input.lengths ? [...input.lengths] : seededLengths(LENGTHS_SEED, n, LENGTHS_MAX);
  const tokens = lengths.reduce((a, b) => a + b, 0);
  const longest = Math.max(...lengths);
  const prompts = n / k;
  const columns = RECIPES.map((recipe): WeightColumn => {
    const home = frameworkHome(recipe.framework);
    const scheme = recipe.scheme ?? home?.advantages[0]?.scheme ?? '';
    const flags = Number.isInteger(prompts) ? recipe.flags(prompts, k, n, longest) : {};
    const via = home ? ('home' as const) : ('spec' as const);
    const unit = unitOf(recipe);
    const head = { name: recipe.name, framework: recipe.framework, switched: recipe.switched, scheme, via, unit, cli: argv(flags) };
    const none = { weights: null, relative: null, totals: null, normaliser: null };
    if (!Number.isInteger(prompts))
      return { ...head, ...none, loss: recipe.loss ?? '', refused: `${n} completions are not a whole number of prompts of k=${k}` };
    try {
      const { loss, normaliser, weights } = home
        ? homeStepWeights(home, lengths, k, recipe.loss, Math.max(LENGTHS_MAX, longest))
        : specWeights(recipe, flags, lengths);
      const missing = weights.findIndex((w) => Number.isNaN(w));
      if (missing >= 0) throw new ConfigError(`${recipe.framework}'s optimizer step does not train completion ${missing}`);
      const adv = advantages.columns.find((c) => c.scheme === scheme)?.advantages ?? null;
      // A 'sample' column's sample is its one "token": the lengths do not enter its totals, and 1 is the per-sample mean.
      const units = (i: number) => (unit === 'sample' ? 1 : lengths[i]!);
      const totals = adv ? weights.map((w, i) => (adv[i] === null ? null : adv[i]! * w * units(i))) : null;
      const relative = weights.map((w) => w * (unit === 'sample' ? n : tokens));
      return { ...head, loss, normaliser, weights, relative, totals, refused: null };
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return { ...head, ...none, loss: recipe.loss ?? '', refused: err.message };
    }
  });
  const low = Math.max(1, Math.floor(LENGTHS_MAX / 8));
  return {
    lengths,
    lengthsSource: input.lengths ? { kind: 'given' } : { kind: 'seeded', seed: LENGTHS_SEED, low, high: LENGTHS_MAX },
    tokens,
    columns,
  };
}

/** The advantage schemes compareWeights reads: each compared framework's default. */
export function weightSchemes(): string[] {
  return [...new Set(RECIPES.map((r) => r.scheme ?? frameworkHome(r.framework)?.advantages[0]?.scheme ?? ''))].filter(Boolean);
}
