// The samplers and the one entry point that turns a configuration into a full layout.
import { ConfigError } from '../errors.ts';
import type { Layout, LayoutConfig, SamplerName } from '../layout/types.ts';
import { presets } from '../presets.ts';
import { contiguous } from './contiguous.ts';
import { danceGrpo } from './dance-grpo.ts';
import { flowGrpo, flowGrpoLcm } from './flow-grpo.ts';
import { groupDistributed } from './group-distributed.ts';
import { flagName } from '../settings.ts';
import { checkCommon, checkSize } from './rules.ts';
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

/** Checks a configuration against the common rules, its sampler's own rule and the size limits; null when valid. */
export function validateConfig(config: LayoutConfig): ConfigError | null {
  const spec = samplers[config.sampler];
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
  return checkSize(eff, samples, spec.draws(eff));
}

/** The settings in one fixed order (for stable JSON), unknown extra keys dropped. */
function canonical(c: LayoutConfig): LayoutConfig {
  const { sampler, ranks, batch, k, batchesPerEpoch, epochs, datasetSize, seed, stepsPerGeneration, numIterations } = c;
  // Configurations saved before gradient accumulation existed (URLs, JSON) mean 1.
  const gradientAccumulationSteps = c.gradientAccumulationSteps ?? 1;
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
  const eff = canonical(spec.effective(config));
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
