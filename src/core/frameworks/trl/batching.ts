// steps_per_generation as each framework of trl-frameworks.ts derives it from the settings the user gave,
// in its own words when it refuses them (checked: test/fixtures/golden-trl-wrappers.json).
import { ConfigError } from '../errors.ts';
import { type Clause, configError, fact, fixClauses } from '../messages/index.ts';
import { raises, trlSays } from './framework-errors.ts';
import { passingMultiples } from './rules.ts';
import { type TrlBatchingArgs, trlStepsPerGeneration } from './trl.ts';
import { type TrlFramework, trl018NotDivisible } from './trl-frameworks.ts';

/**
 * steps_per_generation as the framework derives it from what the user gave (TrlBatchingArgs), after
 * Unsloth's rewrite where it applies. TRL 1.x and 0.24 (under Unsloth): trlStepsPerGeneration. TRL 0.18.2
 * checks `generation_batch_size % per_device_train_batch_size * num_processes`, which Python reads as
 * (gbs % pd) × W: a multiple of pd that is not one of the global batch passes, and its RepeatSampler's
 * chunks then straddle its dataloader's batches; the sandbox refuses that, saying so. ms-swift accepts
 * both when they agree.
 */
export function frameworkStepsPerGeneration(
  framework: TrlFramework | undefined,
  args: TrlBatchingArgs,
  passes: (stepsPerGeneration: number) => boolean,
  k?: number,
): number {
  const { stepsPerGeneration: spg, generationBatchSize: gbs } = args;
  const global = args.batch * args.ranks;
  if (framework?.family === 'ms-swift' && spg !== undefined && gbs !== undefined) {
    if (gbs === global * spg) return spg;
    throw configError([
      fact('trl.generation-batch-equal', { generationBatchSize: gbs, expected: global * spg }),
      raises(
        framework.version,
        `ValueError: generation_batch_size (${gbs}) must equal per_device_train_batch_size * world_size * steps_per_generation = ${global * spg}.`,
      ),
    ]);
  }
  if (framework?.family === 'trl-0.18' && gbs !== undefined && spg === undefined && gbs % global !== 0) {
    if (gbs % args.batch !== 0) {
      throw configError([
        fact('trl.generation-batch-multiple', { generationBatchSize: gbs, global }),
        raises(framework.version, trlSays.generationNotDivisibleByGlobalBatch(gbs, global)),
      ]);
    }
    const floored = Math.floor(gbs / global);
    // TRL 0.18.2 goes on to check num_generations against the generation batch as given.
    if (k !== undefined && k >= 2 && gbs % k !== 0) {
      throw configError([
        fact('trl.generation-batch-multiple', { generationBatchSize: gbs, global }),
        raises(framework.version, trl018NotDivisible(args.ranks, args.batch, floored, gbs, k)),
      ]);
    }
    const near = passingMultiples(gbs / global, 1, (fix) => passes(fix.batch as number)).map((s) => s * global);
    throw configError([
      fact('trl-018.generation-batch-straddles', {
        generationBatchSize: gbs,
        batch: args.batch,
        global,
        stepsPerGeneration: Math.floor(gbs / global),
      }),
      ...fixClauses([near.length ? fact('fix.flag-values', { flag: 'generation-batch-size', values: near }) : null]),
    ]);
  }
  try {
    return trlStepsPerGeneration(args, passes);
  } catch (err) {
    // The same rule, in the same words, under the framework's name and version.
    throw rename(err, framework);
  }
}

/** A TRL 1.13.0 error from trlStepsPerGeneration, re-quoted as the framework's (the texts are the same in 0.18.2, 0.24.0 and ms-swift). */
function rename(err: unknown, framework: TrlFramework | undefined): unknown {
  if (!(err instanceof ConfigError) || framework === undefined || !err.clauses) return err;
  const clauses = err.clauses.map((c) =>
    c.id === 'framework.raises' ? { ...c, params: { ...c.params, framework: framework.version } } : c,
  );
  return configError(clauses as Clause[], err.suggestions);
}
