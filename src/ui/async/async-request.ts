// <grpo-async>'s request: its attributes (named like `grpo-sandbox async`'s flags, so `?view=async&…`, a tour and the
// CLI give the same run) read by the core's readers: the workload by `asyncWorkloadFrom`, the framework's own staleness
// settings by `readRuleValues`, which the CLI calls with its flags. Pure: no DOM.
import { ASYNC_BUDGET, asyncEstimate } from '../../core/async/estimate.ts';
import { RULES, readRuleValues, ruleDef, ruleFlags } from '../../core/async/index.ts';
import type { RuleDef, RuleKey, RuleValues } from '../../core/async/rule.ts';
import type { AsyncWorkload } from '../../core/async/types.ts';
import { WORKLOAD_KEYS, asyncWorkloadFrom } from '../../core/async/workload-settings.ts';
import { overBudget } from '../../core/budget.ts';
import { ConfigError } from '../../core/errors.ts';
import { attributeGetter } from '../setting-attributes.ts';

/** Every framework's own settings, by the sandbox's flag (`max-staleness` sets each one's main bound). */
export const RULE_ATTRIBUTES: readonly string[] = ruleFlags(RULES);

/** The element's attributes: the framework, the workload's keys, then every framework's own settings. */
export const ASYNC_ATTRIBUTES: readonly string[] = ['framework', ...WORKLOAD_KEYS, ...RULE_ATTRIBUTES];

/** The framework the view shows when none is given: TRL's async trainer, whose shipped rule drops at consumption. */
export const DEFAULT_FRAMEWORK = 'trl-async';

export interface AsyncRequest {
  workload: AsyncWorkload;
  def: RuleDef;
  values: RuleValues;
}

/** The rule's key that `max-staleness` sets (the framework's staleness bound), or null (slime has none). */
export function boundKey(def: RuleDef): RuleKey | null {
  return def.keys.find((k) => k.flag === 'max-staleness') ?? null;
}

/** The run the attributes ask for; a ConfigError (one line) when they ask for none, or for more than the page runs at once. */
export function asyncRequest(attrs: Record<string, string | null | undefined>): AsyncRequest {
  const get = attributeGetter(attrs);
  const framework = get('framework') ?? DEFAULT_FRAMEWORK;
  const def = ruleDef(framework);
  if (!def)
    throw new ConfigError(`unknown framework '${framework.slice(0, 40)}'; choose one of ${RULES.map((r) => r.framework).join(', ')}`);
  const workload = asyncWorkloadFrom(get);
  // The figure's run and the table's (every framework at its shipped settings) run together.
  const over = overBudget(
    'this simulation',
    asyncEstimate(1 + RULES.length, workload.steps, workload.trainBatchSize, workload.k, workload.genWorkers * workload.concurrency),
    'steps, train-batch-size, k, or gen-workers × concurrency',
    ASYNC_BUDGET,
  );
  if (over) throw over;
  return { workload, def, values: readRuleValues(def, (flag) => get(flag) ?? undefined) };
}

/** Candidate bounds the slider offers, before the framework's own checks keep those it accepts. */
const INT_BOUNDS = Array.from({ length: 17 }, (_, i) => i);
const FLOAT_BOUNDS = [0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8];

/**
 * The values of the staleness bound the slider steps through: whole numbers 0 … 16 (or a grid of fractions for a
 * fractional bound), those the framework's own reader and rule accept (open-instruct's async_steps ≥ 1; ROLL's ratio 0
 * or ≥ 1), with the shipped default and the value given always among them, in increasing order.
 */
export function boundValues(def: RuleDef, key: RuleKey, workload: AsyncWorkload, given: number | null): number[] {
  const grid = key.kind === 'int' ? INT_BOUNDS : FLOAT_BOUNDS;
  const wanted = [...grid, ...(typeof key.default === 'number' ? [key.default] : []), ...(given === null ? [] : [given])];
  const accepted = [...new Set(wanted)].filter((v) => {
    try {
      const values = readRuleValues(def, (flag) => (flag === key.flag ? String(v) : undefined));
      def.build(values, workload.trainBatchSize, workload.k, workload.genWorkers);
      return true;
    } catch {
      return false;
    }
  });
  return accepted.sort((a, b) => a - b);
}
