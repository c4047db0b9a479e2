// steps_per_generation as each framework of wrappers.ts derives it from the settings the user gave,
// in its own words when it refuses them (checked: test/fixtures/golden-trl-wrappers.json).
import { ConfigError } from '../../errors.ts';
import { type Clause, configError } from '../../messages/index.ts';
import { type TrlBatchingArgs, trlStepsPerGeneration } from './sampler.ts';
import type { TrlFramework } from './wrappers.ts';

/**
 * steps_per_generation as the framework derives it from what the user gave (TrlBatchingArgs), after
 * Unsloth's rewrite where it applies: the framework's own reading first (TrlFramework.readsBatching: TRL
 * 0.18.2's straddling generation batches, ms-swift's equality), then TRL 1.x's trlStepsPerGeneration,
 * whose errors are quoted under the framework's name.
 */
export function frameworkStepsPerGeneration(
  framework: TrlFramework | undefined,
  args: TrlBatchingArgs,
  passes: (stepsPerGeneration: number) => boolean,
  k?: number,
): number {
  const own = framework?.readsBatching(args, passes, k);
  if (own !== undefined) return own;
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
