// The samplers and the one entry point that turns a configuration into a full layout.
import { ConfigError } from '../errors.ts';
import type { Layout, LayoutConfig, SamplerName } from '../layout/types.ts';
import { presets } from '../presets.ts';
import { contiguous } from './contiguous.ts';
import { danceGrpo } from './dance-grpo.ts';
import { flowGrpo, flowGrpoLcm } from './flow-grpo.ts';
import { groupDistributed } from './group-distributed.ts';
import { flagName } from '../settings.ts';
import { checkCommon, checkSize, withFixes } from './rules.ts';
import type { SamplerSpec } from './spec.ts';
import { trl } from './trl.ts';

export type { SamplerSpec } from './spec.ts';
export { repeatSamplerPass, trlSizes, trlStepsPerGeneration, type TrlBatchingArgs } from './trl.ts';
export { TRL_VERSION, trlSays, flowGrpoSays } from './framework-errors.ts';
export { distributedSamplerIndices } from './distributed-sampler.ts';
export { lcmPromptsPerEpoch } from './flow-grpo.ts';

/** Every sampler by name. */
export const samplers: Record<SamplerName, SamplerSpec> = {
  'flow-grpo': flowGrpo,
  'flow-grpo-lcm': flowGrpoLcm,
  trl,
  contiguous,
  'dance-grpo': danceGrpo,
  'group-distributed': groupDistributed,
};

/** The sampler names, in display order. */
export const samplerNames = Object.keys(samplers) as SamplerName[];

/** The built-in default: seed-000 (flow_grpo, 8 ranks × 2, k=4, 2 batches per epoch, seed 42). */
export const defaultConfig: LayoutConfig = { ...presets['seed-000']!.config };

/**
 * Checks a configuration against the common rules, its sampler's own rule and the size limits;
 * null when valid. Every suggested fix the error carries has itself passed this check (a fix
 * that breaks another rule is never offered).
 */
export function validateConfig(config: LayoutConfig): ConfigError | null {
  config = withDefaults(config);
  const err = findError(config);
  if (!err || err.suggestions.length === 0) return err;
  const verified = err.suggestions.filter((fix) => findError({ ...config, ...fix } as LayoutConfig, false) === null);
  return new ConfigError(err.message, verified);
}

/** The first rule `config` breaks; with `fixSize`, a size error's candidate fixes are checked and the passing ones named. */
function findError(config: LayoutConfig, fixSize = true): ConfigError | null {
  const spec = Object.hasOwn(samplers, config.sampler) ? samplers[config.sampler] : undefined;
  if (!spec) {
    return new ConfigError(
      `unknown sampler '${String(config.sampler)}'; samplers: ${samplerNames.join(', ')}`,
      samplerNames.map((s) => ({ sampler: s })),
    );
  }
  const err = checkCommon(config) ?? spec.validate(config);
  if (err) return err;
  const eff = spec.effective(config);
  const samples = eff.epochs * eff.batchesPerEpoch * eff.ranks * spec.perRankPerStep(eff);
  const tooBig = checkSize(config, samples, spec.draws(eff));
  if (!tooBig || !fixSize) return tooBig;
  // The size error's candidates are only candidates: offer the first of each setting that passes every rule.
  const fixes: Record<string, unknown>[] = [];
  for (const fix of tooBig.suggestions) {
    const field = Object.keys(fix)[0]!;
    if (fixes.some((f) => field in f)) continue;
    if (findError({ ...config, ...fix } as LayoutConfig, false) === null) fixes.push(fix);
  }
  return withFixes(tooBig, fixes);
}

/**
 * Settings added after configurations were first saved (URLs, JSON, objects built by older code)
 * take the value that means "as before": gradient_accumulation_steps 1.
 */
function withDefaults(c: LayoutConfig): LayoutConfig {
  return c.gradientAccumulationSteps === undefined ? { ...c, gradientAccumulationSteps: 1 } : c;
}

/** The settings in one fixed order (for stable JSON), unknown extra keys dropped. */
function canonical(c: LayoutConfig): LayoutConfig {
  const {
    sampler,
    ranks,
    batch,
    k,
    batchesPerEpoch,
    epochs,
    datasetSize,
    seed,
    stepsPerGeneration,
    numIterations,
    gradientAccumulationSteps,
  } = c;
  return {
    sampler,
    ranks,
    batch,
    k,
    batchesPerEpoch,
    epochs,
    datasetSize,
    seed,
    stepsPerGeneration,
    numIterations,
    gradientAccumulationSteps,
  };
}

/** The full layout (epochs × steps × ranks × slots of prompt ids) of a valid configuration; throws ConfigError otherwise. */
export function buildLayout(config: LayoutConfig): Layout {
  const err = validateConfig(config);
  if (err) throw err;
  const spec = samplers[config.sampler];
  const eff = canonical(spec.effective(withDefaults(config)));
  return {
    sampler: eff.sampler,
    config: eff,
    steps: spec.steps(eff),
    gatherScope: spec.gatherScope,
    drawScope: spec.drawScope,
    notes: spec.notes(eff),
    counts: spec.counts(eff),
  };
}

/**
 * Refuses settings the user gave explicitly that `sampler` does not read (e.g. --batches-per-epoch
 * for trl), instead of ignoring them silently. `given` names the LayoutConfig fields the user set;
 * `extra` adds CLI-only inputs (e.g. generation-batch-size) with the samplers that read them.
 */
export function checkGivenSettings(
  sampler: SamplerName,
  given: Iterable<string>,
  extra: Record<string, SamplerName[]> = {},
): ConfigError | null {
  const spec = samplers[sampler];
  if (!spec) return null;
  for (const field of given) {
    const reason = spec.ignores[field as keyof LayoutConfig];
    if (reason) {
      return new ConfigError(`--sampler ${sampler} does not use --${flagName(field)}: ${reason}; leave it out`, [{ sampler }]);
    }
    const readers = extra[field];
    if (readers && !readers.includes(sampler)) {
      return new ConfigError(
        `--sampler ${sampler} does not use --${flagName(field)}: only ${readers.join(', ')} read(s) it; leave it out or use --sampler ${readers[0]}`,
        [{ sampler: readers[0]! }],
      );
    }
  }
  return null;
}
