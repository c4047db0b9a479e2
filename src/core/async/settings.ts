// A rule's settings from text (a CLI flag, or an attribute of <grpo-async>): each key read by its flag, checked
// against its kind and range, defaulted to the framework's shipped value. One line per mistake, naming the flag and the
// framework's key (a fact: src/core/messages/async.ts).
import { configError, fact } from '../messages/index.ts';
import type { RuleDef, RuleValues } from './rule.ts';

export function readRuleValues(def: RuleDef, get: (flag: string) => string | undefined): RuleValues {
  const values: Record<string, number | boolean | string | null> = {};
  for (const key of def.keys) {
    const text = get(key.flag);
    if (text === undefined) {
      values[key.key] = key.default;
      continue;
    }
    const name = { flag: key.flag, framework: def.framework, key: key.key };
    const got = text.slice(0, 40);
    if (key.kind === 'bool') {
      if (text !== 'true' && text !== 'false') throw configError([fact('async.rule-bool', { ...name, got })]);
      values[key.key] = text === 'true';
    } else if (key.kind === 'choice') {
      if (!key.choices?.includes(text)) throw configError([fact('async.rule-choice', { ...name, choices: [...(key.choices ?? [])], got })]);
      values[key.key] = text;
    } else {
      const n = Number(text);
      const whole = key.kind === 'int';
      if (text.trim() === '' || !Number.isFinite(n) || (whole && !Number.isInteger(n)))
        throw configError([fact('async.rule-number', { ...name, whole, got })]);
      if (key.min !== undefined && n < key.min) throw configError([fact('async.rule-at-least', { ...name, min: key.min, got: n })]);
      if (n > 1_000_000) throw configError([fact('async.rule-at-most', { ...name, max: 1_000_000, got: n })]);
      values[key.key] = n;
    }
  }
  return values;
}

/** Flags that belong to some framework's rule (other than `max-staleness`, which every rule has). */
export function ruleFlags(defs: readonly RuleDef[]): string[] {
  return [...new Set(defs.flatMap((d) => d.keys.map((k) => k.flag)))].sort();
}
