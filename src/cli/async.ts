// `grpo-sandbox async`: asynchronous GRPO in virtual time under one framework's staleness rule, or several side by
// side: which policy version generated what each step trains on, what was dropped and why, and the length bias.
import { readFileSync, statSync } from 'node:fs';
import { FRAMEWORK_NAMES, RULES, readRuleValues, ruleDef, ruleFlags, simulate } from '../core/async/index.ts';
import { ASYNC_BUDGET, asyncEstimate } from '../core/async/estimate.ts';
import { LENGTH_ABOUT, parseGivenLengths } from '../core/async/lengths.ts';
import { asyncWorkloadFrom } from '../core/async/workload-settings.ts';
import { LENGTH_DISTRIBUTIONS, type AsyncWorkload, type LengthSource } from '../core/async/types.ts';
import { overBudget } from '../core/budget.ts';
import { ConfigError } from '../core/errors.ts';
import { readInt } from '../core/setting.ts';
import { DEFAULT_STEPS_FRAMEWORK, FOLLOW_FRAMEWORKS, follow, followText } from './async-follow.ts';
import { renderCompare, renderRun } from './async-text.ts';
import type { Command } from './commands.ts';
import { parseFlags, quote, type FlagSpec } from './flags.ts';
import { parseJsonText } from './json-input.ts';

const RULE_FLAGS = ruleFlags(RULES);
const spec = {
  framework: { type: 'string' },
  compare: { type: 'string' },
  'gen-workers': { type: 'string' },
  concurrency: { type: 'string' },
  'tokens-per-second': { type: 'string' },
  'train-batch-size': { type: 'string' },
  k: { type: 'string' },
  steps: { type: 'string' },
  'step-time': { type: 'string' },
  'train-tokens-per-second': { type: 'string' },
  lengths: { type: 'string' },
  'length-distribution': { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  follow: { type: 'string' },
  ranks: { type: 'string' },
  'steps-framework': { type: 'string' },
  loss: { type: 'string' },
  ...(Object.fromEntries(RULE_FLAGS.map((f) => [f, { type: 'string' }])) as FlagSpec),
} as const satisfies FlagSpec;

const help = () => `usage: grpo-sandbox async --framework NAME [settings] [workload] [--json]
       grpo-sandbox async --compare NAME,NAME,… | --framework all [workload] [--json]

Asynchronous GRPO in virtual time: generation workers produce each prompt's k completions while the trainer steps;
each step ends in a weight update the generators take at the next sync (in-flight where the framework has it, so a
completion can span versions). Every framework's own staleness rule decides what is generated, trained and dropped.
Prints each step's version, idle times and batch by version, each group's version(s) and lag (as the framework
defines lag), what was dropped and why, and the length bias (trained vs generated mean length, by difficulty).

  --framework NAME            ${FRAMEWORK_NAMES.join(', ')}; all = --compare of every one
  --compare A,B,…             the same workload under several rules, one row each (only the workload flags and
                              --max-staleness, which sets each framework's own bound, apply)
Settings (each framework's own key and shipped default):
${RULES.map(
  (d) =>
    `  ${d.framework} (${d.pinned}):\n` +
    (d.keys.length === 0
      ? '    (no staleness setting)\n'
      : d.keys.map((k) => `    --${k.flag.padEnd(32)} ${k.key} = ${k.default ?? 'derived'}: ${k.about}\n`).join('')),
).join('')}Workload (the same for every framework):
  --gen-workers N             generation workers (default 2)
  --concurrency C             completions each worker decodes at once (default 8)
  --tokens-per-second R       decode rate of one completion (default 100)
  --train-batch-size B        prompts per trainer step (default 4)
  --k K                       completions per prompt (default 4)
  --steps N                   trainer steps (default 8)
  --step-time S               seconds per trainer step (default 10) …
  --train-tokens-per-second R … or a step lasts its tokens ÷ R
  --length-distribution NAME  ${LENGTH_DISTRIBUTIONS.map((n) => `${n}: ${LENGTH_ABOUT[n]}`).join('\n                              ')}
                              (default bimodal; drawn with PyTorch's generator seeded by --seed)
  --lengths FILE              given lengths: [[k lengths] per prompt], or {"lengths": …, "difficulty": ["easy", …]}
  --seed S                    (default 0)
  --json                      one JSON object: framework, settings, lagDefinition, workload, steps[t] (step, version,
                              start, end, trainerIdle, generatorIdle, byVersion, samples[]: prompt, group, index, length,
                              version or versions, lag, wait), dropped[] (prompt, group, atVersion, why, detail), summary;
                              with --compare: {workload, runs: [...]}
Follow one prompt into the update (with --framework):
  --follow P                  prompt P's completions: the worker and lane that decoded each, its version(s), wait and
                              lag, then the step that trains it as \`grpo-sandbox steps\` models it: its rank, micro-batch,
                              position and the weight of each of its tokens in the applied update (--json: that as JSON)
  --ranks W                   ranks the trained step is spread over, an equal block each in the rule's order (default 1)
  --steps-framework NAME      the steps model of the update (default ${DEFAULT_STEPS_FRAMEWORK}): one of
                              ${FOLLOW_FRAMEWORKS.join(', ')}
  --loss L                    its loss type (default: the framework's default)
The same seed gives the same bytes on Node and Deno. Zero staleness (areal, skyrl, nemo-rl's gated policies, roll,
verl with one sync per step) reproduces the synchronous loop exactly.
`;

/** `--lengths FILE` read here (the page has no files); null without it, when the core reads --length-distribution. */
function lengthSource(flags: Record<string, unknown>, k: number): LengthSource | null {
  const file = flags.lengths as string | undefined;
  if (file !== undefined && flags['length-distribution'] !== undefined)
    throw new ConfigError('give --lengths FILE or --length-distribution NAME, not both');
  if (file === undefined) return null;
  let text: string;
  try {
    if (statSync(file).size > 16 * 1024 * 1024) throw new ConfigError(`--lengths ${quote(file)} is above the 16 MiB limit`);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`--lengths ${quote(file)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseGivenLengths(parseJsonText(text, `--lengths ${quote(file)}`), k, `--lengths ${quote(file)}`);
}

/** The workload: core's reader (the one <grpo-async> calls), with --lengths FILE read here. */
const workloadOf = (flags: Record<string, unknown>): AsyncWorkload =>
  asyncWorkloadFrom(
    (key) => flags[key] as string | undefined,
    (k) => lengthSource(flags, k),
  );

/** The frameworks asked for, and the rule flags each may read (in --compare only --max-staleness). */
function frameworksOf(flags: Record<string, unknown>): { names: string[]; compare: boolean } {
  const fw = flags.framework as string | undefined;
  const cmp = flags.compare as string | undefined;
  if (fw !== undefined && cmp !== undefined) throw new ConfigError('give --framework NAME or --compare A,B,…, not both');
  if (fw === undefined && cmp === undefined) throw new ConfigError(`--framework is required: one of ${FRAMEWORK_NAMES.join(', ')}, or all`);
  if (fw === 'all') return { names: [...FRAMEWORK_NAMES], compare: true };
  const names = (cmp ?? fw!).split(',').map((s) => s.trim());
  for (const n of names) {
    if (!ruleDef(n)) throw new ConfigError(`unknown framework ${quote(n)}; choose one of ${FRAMEWORK_NAMES.join(', ')} (or all)`);
  }
  if (new Set(names).size !== names.length) throw new ConfigError(`--compare names a framework twice: ${quote(cmp ?? '')}`);
  return { names, compare: cmp !== undefined };
}

const command: Command = {
  summary: 'asynchronous GRPO in virtual time: which policy version made what each step trains on, under each framework’s staleness rule',
  async run(args, io) {
    const flags = parseFlags(args, spec) as Record<string, unknown>;
    if (flags.help) {
      io.out(help());
      return 0;
    }
    const { names, compare } = frameworksOf(flags);
    const given = RULE_FLAGS.filter((f) => flags[f] !== undefined);
    for (const flag of given) {
      const readers = names.filter((n) => ruleDef(n)!.keys.some((k) => k.flag === flag));
      const owners = RULES.filter((d) => d.keys.some((k) => k.flag === flag)).map((d) => d.framework);
      if (compare && flag !== 'max-staleness')
        throw new ConfigError(
          `--compare runs every framework at its shipped settings but --max-staleness; --${flag} is ${owners.join('/')}'s own setting`,
        );
      if (readers.length === 0 && flag === 'max-staleness') {
        throw new ConfigError(`${names.join('/')} has no staleness bound to set: no version control (THUDM/slime 624b824, issue #1800)`);
      }
      if (readers.length === 0) {
        const own = ruleDef(names[0]!)!.keys.map((k) => `--${k.flag}`);
        throw new ConfigError(
          `--${flag} is not ${names.join('/')}'s setting (it is ${owners.join(', ')}'s); ` +
            `${names[0]} reads ${own.length ? own.join(', ') : 'none: it has no version control'}`,
        );
      }
    }
    const followOnly = ['ranks', 'steps-framework', 'loss'].filter((f) => flags[f] !== undefined);
    if (flags.follow === undefined && followOnly.length > 0) throw new ConfigError(`--${followOnly[0]} goes with --follow PROMPT`);
    if (flags.follow !== undefined && compare) throw new ConfigError('--follow follows a prompt under one --framework, not --compare');
    const w = workloadOf(flags);
    const over = overBudget(
      'this simulation',
      asyncEstimate(names.length, w.steps, w.trainBatchSize, w.k, w.genWorkers * w.concurrency),
      '--steps, --train-batch-size, --k, --gen-workers × --concurrency or the frameworks compared',
      ASYNC_BUDGET,
    );
    if (over) throw over;
    if (flags.follow !== undefined) {
      const def = ruleDef(names[0]!)!;
      const values = readRuleValues(def, (flag) => flags[flag] as string | undefined);
      const o = {
        prompt: readInt(flags.follow as string, 'follow', 0, 1 << 30)!,
        ranks: readInt(flags.ranks as string | undefined, 'ranks', 1, 4096) ?? 1,
        stepsFramework: (flags['steps-framework'] as string | undefined) ?? DEFAULT_STEPS_FRAMEWORK,
        ...(flags.loss !== undefined && { loss: flags.loss as string }),
      };
      const f = follow(w, def, values, o);
      io.out(flags.json ? `${JSON.stringify(f)}\n` : followText(f, o.ranks));
      return 0;
    }
    const runs = names.map((name) => {
      const def = ruleDef(name)!;
      const values = readRuleValues(def, (flag) => flags[flag] as string | undefined);
      return { def, result: simulate(w, def.build(values, w.trainBatchSize, w.k, w.genWorkers)) };
    });
    if (flags.json) {
      const workload = { ...w, lengths: w.lengths.kind === 'given' ? { kind: 'given', prompts: w.lengths.lengths.length } : w.lengths };
      const out = compare ? { workload, runs: runs.map((r) => r.result) } : { ...runs[0]!.result, workload };
      io.out(`${JSON.stringify(out)}\n`);
    } else io.out(compare ? renderCompare(runs, w) : renderRun(runs[0]!.result, runs[0]!.def, w));
    return 0;
  },
};

export default command;
