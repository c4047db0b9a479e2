// Asynchronous GRPO in virtual time under every framework's staleness rule (see simulate.ts, rule.ts, rules/).
import { ConfigError } from '../errors.ts';
import { RULES, ruleDef } from './rules/index.ts';
import { readRuleValues } from './settings.ts';
import { simulate } from './simulate.ts';
import type { AsyncResult, AsyncWorkload } from './types.ts';

export { FRAMEWORK_NAMES, RULES, ruleDef } from './rules/index.ts';
export { readRuleValues, ruleFlags } from './settings.ts';
export { simulate } from './simulate.ts';
export { synchronousLoop } from './sync-loop.ts';
export type * from './types.ts';

/** Runs the workload under `framework`'s rule with settings read through `get(flag)`. */
export function runFramework(workload: AsyncWorkload, framework: string, get: (flag: string) => string | undefined): AsyncResult {
  const def = ruleDef(framework);
  if (!def)
    throw new ConfigError(`unknown framework '${framework.slice(0, 40)}'; choose one of ${RULES.map((r) => r.framework).join(', ')}`);
  const values = readRuleValues(def, get);
  return simulate(workload, def.build(values, workload.trainBatchSize, workload.k, workload.genWorkers));
}
