// The samplers and the one entry point that turns a configuration into a full layout.
import { ConfigError } from '../errors.ts';
import { configError, fact, fixClauses } from '../messages/index.ts';
import type { Layout, LayoutConfig, SamplerName } from '../layout/types.ts';
import { presets } from '../presets.ts';
import { SAMPLER_HOMES } from '../frameworks/sampler-homes.ts';
import { flagName } from '../settings.ts';
import { checkCommon, checkSize, gcd, noFixes, passingMultiples, withFixes, type FixCheck } from './rules.ts';
import type { SamplerSpec } from './spec.ts';

export type { SamplerSpec } from './spec.ts';
export { repeatSamplerPass, trlSizes, trlStepsPerGeneration, type TrlBatchingArgs } from '../frameworks/trl/sampler.ts';
export { TRL_VERSION, trlSays, flowGrpoSays, VERL_VERSION, verlSays } from './framework-errors.ts';
export { verlSizes, SYNTHETIC_SEQLEN, MAX_SEQLEN, VERL_ONLY_FIELDS, TORCH_DEFAULT_SEED } from '../frameworks/verl/sampler.ts';
export { distributedSamplerIndices } from './distributed-sampler.ts';
export { lcmBatchesStep, lcmPromptsPerEpoch } from '../frameworks/flow-grpo/sampler.ts';
export { lookAhead, receivedDraws, type Draw, type LoaderModel } from './loader.ts';
import { lcmBatchesStep } from '../frameworks/flow-grpo/sampler.ts';

/** Every sampler by name, in the sampler homes' order (src/core/frameworks/sampler-homes.ts). */
export const samplers = Object.fromEntries(SAMPLER_HOMES.flatMap((home) => home.samplers).map((spec) => [spec.name, spec])) as Record<
  SamplerName,
  SamplerSpec
>;

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
  return new ConfigError(err.message, verified, err.clauses);
}

/**
 * The first rule `config` breaks. With `fixSize` (the error will be shown), every fix it names is
 * checked first: each sampler gets a FixCheck that runs the fix through this function without
 * `fixSize`, whose own suggestions are never shown and so are not searched (no recursion).
 */
function findError(config: LayoutConfig, fixSize = true): ConfigError | null {
  const spec = Object.hasOwn(samplers, config.sampler) ? samplers[config.sampler] : undefined;
  if (!spec) {
    return configError(
      [fact('sampler.unknown', { got: String(config.sampler), samplers: [...samplerNames] })],
      samplerNames.map((s) => ({ sampler: s })),
    );
  }
  const passes: FixCheck = fixSize ? (fix) => findError({ ...config, ...fix } as LayoutConfig, false) === null : noFixes;
  const err = checkCommon(config, spec) ?? spec.validate(config, passes);
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
    if (passes(fix)) fixes.push(fix);
  }
  return withFixes(tooBig, fixes);
}

/** The loader settings flow_grpo's published script uses, for samplers without defaults of their own. */
const LOADER_DEFAULTS = { numWorkers: 1, prefetchFactor: 2, acceleratePrepare: 1 } as const;

/** The value that means "as before" for each setting added after configurations were first saved. */
const ADDED_SETTINGS: Partial<LayoutConfig> = {
  gradientAccumulationSteps: 1,
  balanceBatch: true,
  ppoMiniBatchSize: 0,
  ppoMicroBatchSizePerGpu: 0,
  dataloaderNumWorkers: 8,
  usePrefixGrouper: false,
  keepMinibatch: false,
  useDynamicBsz: false,
  ppoMaxTokenLenPerGpu: 16384,
  ulyssesSequenceParallelSize: 1,
};

/**
 * Settings added after configurations were first saved (URLs, JSON, objects built by older code):
 * gradient_accumulation_steps 1 and verl's balance_batch true ("as before"); the loader settings as the
 * sampler's published script sets them (the layout a real run gets, not the idealised loop older versions showed).
 */
function withDefaults(c: LayoutConfig): LayoutConfig {
  const fill: Partial<LayoutConfig> = { ...ADDED_SETTINGS, ...LOADER_DEFAULTS, ...samplerDefaults(c.sampler) };
  const missing = (Object.keys(fill) as (keyof LayoutConfig)[]).filter((f) => c[f] === undefined);
  if (missing.length === 0) return c;
  return { ...c, ...Object.fromEntries(missing.map((f) => [f, fill[f]])) };
}

function samplerDefaults(sampler: SamplerName): Partial<LayoutConfig> {
  return (Object.hasOwn(samplers, sampler) ? samplers[sampler].defaults : undefined) ?? {};
}

/**
 * `config` with its sampler's published values for the settings only that sampler reads (flow_grpo's
 * loader), except those in `given`: what choosing a sampler (CLI --sampler, the panel, a link) does.
 */
export function withSamplerDefaults(config: LayoutConfig, given: Iterable<string> = []): LayoutConfig {
  const keep = new Set(given);
  const defaults = Object.entries(samplerDefaults(config.sampler)).filter(([f]) => !keep.has(f));
  return defaults.length ? ({ ...config, ...Object.fromEntries(defaults) } as LayoutConfig) : config;
}

/** The settings every sampler's config carries, in the fixed order of its JSON. */
export const CANONICAL_FIELDS = [
  'sampler',
  'ranks',
  'batch',
  'k',
  'batchesPerEpoch',
  'epochs',
  'datasetSize',
  'seed',
  'stepsPerGeneration',
  'numIterations',
  'gradientAccumulationSteps',
  'numWorkers',
  'prefetchFactor',
  'acceleratePrepare',
] as const satisfies readonly (keyof LayoutConfig)[];

/** The settings in one fixed order (for stable JSON), unknown extra keys dropped. */
function canonical(c: LayoutConfig): LayoutConfig {
  const pick = (fields: readonly (keyof LayoutConfig)[]) => Object.fromEntries(fields.map((f) => [f, c[f]]));
  return {
    ...pick(CANONICAL_FIELDS),
    // A sampler's own fields only in its config, where set: the other samplers' JSON stays as it was.
    ...pick(samplers[c.sampler].configFields.filter((f) => c[f] !== undefined)),
  } as unknown as LayoutConfig;
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

/** The samplers whose own setting `field` is (SamplerSpec.ownSettings); empty for a setting every sampler may read. */
function ownersOf(field: string): SamplerName[] {
  return samplerNames.filter((name) => samplers[name].ownSettings.includes(field));
}

/** Whether `field` is another sampler's own setting, which `sampler` neither reads nor shows. */
export function ownedElsewhere(sampler: SamplerName, field: string): boolean {
  const owners = ownersOf(field);
  return owners.length > 0 && !owners.includes(sampler);
}

/** Whether `sampler` reads the layout setting `field` (it neither ignores it nor is it another sampler's own). */
export function readsSetting(sampler: SamplerName, field: keyof LayoutConfig): boolean {
  // A link may name a sampler the sandbox does not have: it reads nothing.
  if (!Object.hasOwn(samplers, sampler)) return false;
  return !(field in samplers[sampler].ignores) && !ownedElsewhere(sampler, field);
}

/**
 * Refuses settings the user gave explicitly that `sampler` does not read (e.g. --batches-per-epoch
 * for trl, or another sampler's own setting), instead of ignoring them silently. `given` names the
 * LayoutConfig fields and the CLI-only inputs (e.g. generation-batch-size) the user set.
 */
export function checkGivenSettings(sampler: SamplerName, given: Iterable<string>): ConfigError | null {
  const spec = samplers[sampler];
  if (!spec) return null;
  for (const field of given) {
    const reason = spec.ignores[field as keyof LayoutConfig];
    if (reason) {
      return configError([fact('sampler.does-not-use', { sampler, flag: flagName(field), reason })], [{ sampler }]);
    }
    const readers = ownersOf(field);
    if (readers.length && !readers.includes(sampler)) {
      return configError(
        [fact('sampler.only-readers', { sampler, flag: flagName(field), readers: [...readers] })],
        [{ sampler: readers[0]! }],
      );
    }
  }
  return null;
}

/**
 * Refuses a value the user gave that the sampler would change (flow-grpo-lcm rounds
 * --batches-per-epoch up to a whole epoch), naming the values it would honour, each verified
 * by validateConfig. A value left at the preset's may still be rounded up (the report's notes
 * give the epoch's real length); a given one is honoured exactly or refused, never overridden.
 */
export function checkGivenValues(config: LayoutConfig, given: Iterable<string>): ConfigError | null {
  if (config.sampler !== 'flow-grpo-lcm' || ![...given].includes('batchesPerEpoch')) return null;
  // Another rule's error (validateConfig reports it) comes first.
  if (checkCommon(config, samplers[config.sampler])) return null;
  const effective = samplers['flow-grpo-lcm'].effective(config).batchesPerEpoch;
  if (effective === config.batchesPerEpoch) return null;
  const step = lcmBatchesStep(config);
  // passingMultiples names its candidates `batch`; here they are batches per epoch.
  const near = passingMultiples(
    config.batchesPerEpoch,
    step,
    (fix) => validateConfig({ ...config, batchesPerEpoch: fix.batch as number }) === null,
  );
  return configError(
    [
      fact('flow-grpo-lcm.batches-step', {
        k: config.k,
        gcd: gcd(config.k, config.ranks * config.batch),
        step,
        stepSamples: config.ranks * config.batch,
        given: config.batchesPerEpoch,
        effective,
      }),
      ...fixClauses([near.length ? fact('fix.flag-values', { flag: 'batches-per-epoch', values: near }) : null]),
    ],
    near.map((n) => ({ batchesPerEpoch: n })),
  );
}
