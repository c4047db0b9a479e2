// `train --async`'s settings of the simulation, from the async command's own tables: its workload keys (but those the
// run sets itself: prompts per step, k, steps and seed) and every framework's rule keys. The run keeps their text as
// given (TrainConfig.asyncSettings) and the async command's readers read it (asyncWorkloadFrom, readRuleValues), so a
// flag means in `train --async` what it means in `grpo-sandbox async`, with the same defaults and the same refusals.
import { RULES, readRuleValues, ruleDef, ruleFlags } from '../core/async/index.ts';
import type { RuleDef, RuleValues } from '../core/async/rule.ts';
import type { AsyncWorkload } from '../core/async/types.ts';
import { asyncWorkloadFrom, WORKLOAD_KEYS } from '../core/async/workload-settings.ts';
import type { TrainConfig } from './config.ts';

/** The workload keys the run sets itself: train-batch-size is ranks × batch ÷ k; k, steps and seed are train's. */
const RUN_WORKLOAD_KEYS: readonly string[] = ['train-batch-size', 'k', 'steps', 'seed'];

/** The async command's workload keys that `train --async` takes as they are. */
export const ASYNC_WORKLOAD_KEYS: readonly string[] = WORKLOAD_KEYS.filter((key) => !RUN_WORKLOAD_KEYS.includes(key));

/** The rule keys of a trainer's packer, which drops samples the run would train (RuleKey.packer): not train's settings. */
const PACKER_KEYS: readonly string[] = RULES.flatMap((d) => d.keys.filter((k) => k.packer).map((k) => k.flag));

/** Every framework's own rule keys but the bound (train's --max-staleness row, which every bounded rule reads) and the packers'. */
export const ASYNC_RULE_KEYS: readonly string[] = ruleFlags(RULES).filter(
  (flag) => flag !== 'max-staleness' && !PACKER_KEYS.includes(flag),
);

/** The frameworks whose rule reads `flag`. */
export const ruleOwners = (flag: string): string[] => RULES.filter((d) => d.keys.some((k) => k.flag === flag)).map((d) => d.framework);

/** Whether `key` means something under `--async framework`: a workload key under every rule, a rule key under its own. */
export function asyncKeyApplies(framework: string | null, key: string): boolean {
  if (framework === null || !ruleDef(framework)) return false;
  return ASYNC_WORKLOAD_KEYS.includes(key) || ruleOwners(key).includes(framework);
}

/** Prompts per training step: every rank's batch over k (the layout's groups). */
export const promptsPerStep = (c: TrainConfig): number => (c.ranks * c.batch) / c.k;

/** A run's text of a workload or rule key, as the async command's flags give it (undefined: not given). */
function textOf(c: TrainConfig, key: string): string | undefined {
  if (key === 'max-staleness') return c.maxStaleness === null ? undefined : String(c.maxStaleness);
  return Object.hasOwn(c.asyncSettings, key) ? c.asyncSettings[key] : undefined;
}

/** The simulation's workload for a run: the async command's reader, with the run's prompts per step, k, steps and seed. */
export function asyncWorkloadOf(c: TrainConfig): AsyncWorkload {
  const own: Record<string, string> = {
    'train-batch-size': String(promptsPerStep(c)),
    k: String(c.k),
    steps: String(c.steps),
    seed: String(c.seed),
  };
  return asyncWorkloadFrom((key) => (Object.hasOwn(own, key) ? own[key] : textOf(c, key)));
}

/** The rule's settings for a run: the async command's reader over the run's --max-staleness and the rule's own keys. */
export const asyncRuleValuesOf = (def: RuleDef, c: TrainConfig): RuleValues => readRuleValues(def, (flag) => textOf(c, flag));

/**
 * The `grpo-sandbox async` command that simulates a run's workload under its rule (its arguments after `async`): the
 * run's framework, bound and given settings, and the workload keys the run sets itself. Its `--json` says, step by
 * step, what `train --async` trains.
 */
export function asyncCommandOf(c: TrainConfig): string[] {
  const given: [string, string][] = [
    ['framework', c.async ?? ''],
    ...(c.maxStaleness === null ? [] : [['max-staleness', String(c.maxStaleness)] as [string, string]]),
    ...Object.entries(c.asyncSettings),
    ['train-batch-size', String(promptsPerStep(c))],
    ['k', String(c.k)],
    ['steps', String(c.steps)],
    ['seed', String(c.seed)],
  ];
  return given.flatMap(([key, text]) => [`--${key}`, text]);
}
