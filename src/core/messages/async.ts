// The clauses of the asynchronous simulation's settings errors in English (src/core/async: a rule's own keys, the
// workload's keys, NeMo RL's custom sampler), said alike by `grpo-sandbox async`, <grpo-async> and `train --async`.
// A rule key is named by its flag and by the framework's own key. Refused text is a parameter as the CLI quotes it.
import { CLI_WORDS, type Words } from './errors.ts';

/** A rule key's name in a message: the flag and the framework's own key. */
interface RuleKeyName {
  flag: string;
  framework: string;
  key: string;
}

const named = (p: RuleKeyName, w: Words) => `${w.flag(p.flag)} (${p.framework}'s ${p.key})`;

export const ASYNC_EN = {
  'async.rule-bool': (p: RuleKeyName & { got: string }, w: Words = CLI_WORDS) => `${named(p, w)} takes true or false, got '${p.got}'`,
  'async.rule-choice': (p: RuleKeyName & { choices: string[]; got: string }, w: Words = CLI_WORDS) =>
    `${named(p, w)} takes one of ${p.choices.join(', ')}, got '${p.got}'`,
  'async.rule-number': (p: RuleKeyName & { whole: boolean; got: string }, w: Words = CLI_WORDS) =>
    `${named(p, w)} takes ${p.whole ? 'a whole number' : 'a number'}, got '${p.got}'`,
  'async.rule-at-least': (p: RuleKeyName & { min: number; got: number }, w: Words = CLI_WORDS) =>
    `${named(p, w)} must be at least ${p.min}, got ${p.got}`,
  'async.rule-at-most': (p: RuleKeyName & { max: number; got: number }, w: Words = CLI_WORDS) =>
    `${named(p, w)} must be at most ${p.max}, got ${p.got}`,
  'async.positive': (p: { key: string; got: string }, w: Words = CLI_WORDS) => `${w.flag(p.key)} takes a positive number, got ${p.got}`,
  'async.length-distribution': (p: { got: string; choices: string[] }, w: Words = CLI_WORDS) =>
    `unknown ${w.flag('length-distribution')} ${p.got}; choose one of ${p.choices.join(', ')}`,
  'async.slots': (p: { slots: number; max: number }, w: Words = CLI_WORDS) =>
    `${w.flag('gen-workers')} × ${w.flag('concurrency')} is ${p.slots} slots; at most ${p.max}: lower one of them`,
  'async.step-time-or-rate': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `give exactly one of ${w.flag('step-time')} (seconds per step) and ${w.flag('train-tokens-per-second')} (a step lasts its tokens ÷ this rate)`,
  'async.nemo-custom': (_: Record<string, never>, w: Words = CLI_WORDS) =>
    `${w.flag('sampler-policy')} custom loads a PromptGroupSampler from async_rl.sampler.target ('module:ClassName'): ` +
    'outside code the sandbox cannot run; choose windowed, ready_first, weight_fifo or in_order',
};
