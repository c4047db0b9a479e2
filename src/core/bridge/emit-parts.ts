// What every `--emit` target (src/core/frameworks/<name>/emit.ts) is made of: a value with its
// origin, the sampler mismatch it reports, and the config syntaxes it prints in
// (Python literals, nested YAML).
import type { LayoutConfig } from '../layout/types.ts';
import type { EmittedValue } from './emit-types.ts';

export const v = (key: string, value: EmittedValue['value'], origin: string): EmittedValue => ({ key, value, origin });

/** The layout the framework's own sampler makes, when it is not the one the settings chose. */
export function samplerMismatch(config: LayoutConfig, own: LayoutConfig['sampler'][], name: string): string[] {
  if (own.includes(config.sampler)) return [];
  return [
    `--sampler ${config.sampler}: ${name} does not use that sampler; its own layout is --sampler ${own[0]} ` +
      `(run \`grpo-sandbox layout --sampler ${own[0]}\` to see what ${name} will do with these numbers)`,
  ];
}

/** A value as Python writes it (True/False). */
export const py = (x: EmittedValue['value']) => (typeof x === 'boolean' ? (x ? 'True' : 'False') : String(x));

/** Nested keys, in first-seen order: data.train_batch_size → data:\n  train_batch_size: …, each value with its origin as a comment. */
export function yaml(values: readonly EmittedValue[]): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  for (const { key, value, origin } of values) {
    const parts = key.split('.');
    let same = 0;
    while (same < open.length && same < parts.length - 1 && open[same] === parts[same]) same++;
    open.length = same;
    for (let i = same; i < parts.length - 1; i++) {
      lines.push(`${'  '.repeat(i)}${parts[i]}:`);
      open.push(parts[i]!);
    }
    lines.push(`${'  '.repeat(parts.length - 1)}${parts.at(-1)}: ${value}   # ${origin}`);
  }
  return lines;
}
