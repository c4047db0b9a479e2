// Every framework's staleness rule, by the name `grpo-sandbox async --framework` takes. prime-rl's, ROLL's and slime's
// live in their homes; AReaL's and NeMo RL's (here) wrap the StalenessManager and samplers of their homes; the others
// (SkyRL, OpenRLHF, open-instruct, and TRL's and verl's, which have no home yet) still live beside this file.
import { primeRlRule } from '../../frameworks/prime-rl/staleness.ts';
import { rollRule } from '../../frameworks/roll/staleness.ts';
import { slimeRule } from '../../frameworks/slime/staleness.ts';
import type { RuleDef } from '../rule.ts';
import { arealRule } from './areal.ts';
import { nemoRlRule } from './nemo-rl.ts';
import { openInstructRule } from './open-instruct.ts';
import { openrlhfRule } from './openrlhf.ts';
import { skyrlRule } from './skyrl.ts';
import { trlAsyncRule } from './trl-async.ts';
import { verlRule } from './verl.ts';

export const RULES: readonly RuleDef[] = [
  arealRule,
  nemoRlRule,
  primeRlRule,
  trlAsyncRule,
  openInstructRule,
  openrlhfRule,
  verlRule,
  rollRule,
  skyrlRule,
  slimeRule,
];

export const FRAMEWORK_NAMES: readonly string[] = RULES.map((r) => r.framework);

export function ruleDef(framework: string): RuleDef | undefined {
  return RULES.find((r) => r.framework === framework);
}
