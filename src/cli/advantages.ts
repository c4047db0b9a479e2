// `grpo-sandbox advantages`: group-relative advantages of gathered rewards exactly as one
// framework computes them (src/core/grpo/schemes.ts, the functions the training loop uses).
import { advantagesEstimate, overBudget } from '../core/budget.ts';
import { ConfigError } from '../core/errors.ts';
import { homeAdvantageSchemes } from '../core/frameworks/index.ts';
import { compareAdvantages, comparedSchemes } from '../core/grpo/compare.ts';
import { WEIGHTS_ASSUMPTION, compareWeights, weightSchemes } from '../core/grpo/compare-weights.ts';
import {
  ADVANTAGE_SCHEMES,
  SCHEME_ABOUT,
  groupsByPosition,
  mixedGroups,
  schemeAdvantages,
  type AdvantageScheme,
} from '../core/grpo/schemes.ts';
import { renderComparison } from './advantages-compare-text.ts';
import { renderWeights } from './advantages-weights-text.ts';
import type { Command } from './commands.ts';
import { type FlagValues, intFlag, jsonValueText, parseFlags, quote } from './flags.ts';
import type { CliIo as Io } from './io.ts';
import { FLOAT32_MAX } from './loss-batch.ts';
import { readJsonInput } from './json-input.ts';

const spec = {
  input: { type: 'string' },
  scheme: { type: 'string' },
  k: { type: 'string' },
  ranks: { type: 'string' },
  compare: { type: 'boolean' },
  schemes: { type: 'string' },
  weights: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/** Every scheme name: the sandbox's first, then each framework home's. */
const allSchemes = comparedSchemes;

const help = () => `usage: grpo-sandbox advantages --scheme S --k K [--ranks W] [--input FILE]
       grpo-sandbox advantages --compare --k K [--schemes A,B,…] [--weights] [--json] [--input FILE]

Reads {"rewards": [...], "promptIds": [...]} (one entry per gathered sample, in gathered
rank-major order) from FILE or stdin and prints {"advantages": [...]} in the same order.
  --scheme S    one of:
${ADVANTAGE_SCHEMES.map((s) => `                  ${s.padEnd(20)} ${SCHEME_ABOUT[s]}`).join('\n')}
${homeAdvantageSchemes()
  .map(({ home, def }) => `                  ${def.scheme.padEnd(20)} ${home.title} ${home.pinned.commit}: ${def.about}`)
  .join('\n')}
  --k K         group size (num_generations)
  --ranks W     world size; dance normalises each rank's 1/W of the samples alone (default 1)
A group with one member or equal rewards gives NaN or 0 as that framework does (JSON null for NaN).
The schemes that group by position (trl-group, trl-batch, trl-none, dance, ms-swift) also print "mixed": the
groups that hold more than one prompt id (layout's MIXED flag), and say so on stderr; flow-grpo, trl-async
and verl group by id.

--compare runs every scheme above (or those of --schemes, in that order) on the same input and
prints one table: a row per completion (prompt id, reward), a column per scheme, the advantage of
the completions with the highest and lowest reward and how many are 0, then each scheme's framework
version, how it groups, and what it refuses or flags (dance runs on one rank). --json prints the
same as data: {"k", "rewards", "promptIds", "best", "worst", "columns": [{"scheme", "framework",
"version", "grouping", "advantages" (null for NaN; null where "refused" says why), "warnings",
"summary"}]}.

With "lengths" in the input (completion tokens per completion: {"rewards", "promptIds", "lengths"}), or with
--weights (lengths seeded as steps seeds them when the input has none), --compare also prints each framework's
per-token weight under its shipped default loss normaliser, read from the optimizer step steps --framework builds
for the batch, and each completion's total: advantage × weight × tokens. The diffusion trainers (flow_grpo,
DanceGRPO: no tokens) weigh the whole sample: their columns are marked *. It assumes
${WEIGHTS_ASSUMPTION.replace('; ', ';\n')}.
--json then adds "weights": {"lengths", "lengthsSource", "tokens", "assumption", "columns": [{"name", "framework",
"loss", "switched", "scheme", "via", "unit" ("token" or "sample"), "cli", "normaliser", "weights", "relative" (× the
global token mean; per sample: × n), "totals", "refused"}]}.
`;

/** At most this many mixed groups are named on stderr (all are in the JSON). */
const NAMED = 4;

/** The numbers of field `name`, or a ConfigError naming the field and the fix. */
function numbers(json: Record<string, unknown>, name: string, integers: boolean): number[] {
  const v = json[name];
  if (!Array.isArray(v))
    throw new ConfigError(
      `'${name}' must be an array of ${integers ? 'whole numbers' : 'numbers'}, got ${v === undefined ? 'nothing' : typeof v}`,
    );
  const bad = v.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x) || (integers && !Number.isInteger(x)));
  if (bad >= 0)
    throw new ConfigError(`'${name}[${bad}]' must be a ${integers ? 'whole number' : 'finite number'}, got ${jsonValueText(v[bad])}`);
  // Rewards beyond float32's range overflow the group statistics (1e308 − (−1e308) is Infinity) and
  // would print null advantages with status 0; the frameworks hold rewards in float32 tensors anyway.
  const huge = integers ? -1 : v.findIndex((x) => Math.abs(x as number) > FLOAT32_MAX);
  if (huge >= 0)
    throw new ConfigError(`'${name}[${huge}]' is ${v[huge]}, beyond float32's range (±3.4e38), in which the frameworks hold rewards`);
  return v as number[];
}

/** The input's rewards and prompt ids, checked, within the budget for `schemes` schemes over them. */
async function readBatch(
  io: Io,
  input: string | undefined,
  schemes: number,
): Promise<{ rewards: number[]; promptIds: number[]; lengths?: number[] }> {
  const json = await readJsonInput(io, input, 'advantages');
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ConfigError('the input must be a JSON object {"rewards": [...], "promptIds": [...]}');
  const rewards = numbers(json as Record<string, unknown>, 'rewards', false);
  const promptIds = numbers(json as Record<string, unknown>, 'promptIds', true);
  // Budget before work: the input is capped in bytes, but grouping and the JSON output grow with the samples (and the schemes).
  const tooMuch = overBudget(
    `advantages of ${rewards.length} samples${schemes > 1 ? ` under ${schemes} schemes` : ''}`,
    advantagesEstimate(Math.max(rewards.length, promptIds.length) * schemes),
    'the samples per call (split the input)',
  );
  if (tooMuch) throw tooMuch;
  const lengths =
    (json as Record<string, unknown>).lengths === undefined ? undefined : numbers(json as Record<string, unknown>, 'lengths', true);
  return { rewards, promptIds, ...(lengths ? { lengths } : {}) };
}

/** `--compare`: every scheme (or --schemes) on one input, as a table or --json. */
async function compare(flags: FlagValues<typeof spec>, io: Io): Promise<number> {
  if (flags.scheme !== undefined)
    throw new ConfigError('--compare runs several schemes: name them with --schemes A,B,… instead of --scheme');
  if (flags.ranks !== undefined)
    throw new ConfigError('--compare runs every scheme on one rank; drop --ranks (or run --scheme dance --ranks W alone)');
  const k = intFlag(flags.k, 'k', 1, 1 << 20);
  if (k === undefined) throw new ConfigError('--k is required: the group size (num_generations)');
  const known = allSchemes();
  const schemes = flags.schemes === undefined ? known : flags.schemes.split(',').map((s) => s.trim());
  const unknown = schemes.filter((s) => !known.includes(s));
  if (unknown.length || schemes.length === 0)
    throw new ConfigError(
      `--schemes: ${unknown.length ? `unknown ${unknown.map((s) => quote(s)).join(', ')}` : 'no scheme named'}; ` +
        `give names from ${known.join(', ')}, separated by commas`,
    );
  const { rewards, promptIds, lengths } = await readBatch(io, flags.input, schemes.length);
  if (rewards.length !== promptIds.length)
    throw new ConfigError(`promptIds has ${promptIds.length} entries but rewards has ${rewards.length}; give one prompt id per reward`);
  const input = { rewards, promptIds, k };
  const result = compareAdvantages(input, schemes);
  if (!lengths && !flags.weights) {
    io.out(flags.json ? `${JSON.stringify({ k, rewards, promptIds, ...result })}\n` : renderComparison(input, result));
    return 0;
  }
  // The totals take each framework's default advantages, whichever columns --schemes shows.
  const weights = compareWeights({ ...input, lengths }, compareAdvantages(input, weightSchemes()));
  io.out(
    flags.json
      ? `${JSON.stringify({ k, rewards, promptIds, ...result, weights: { ...weights, assumption: WEIGHTS_ASSUMPTION } })}\n`
      : renderComparison(input, result) + renderWeights(input, weights),
  );
  return 0;
}

const command: Command = {
  summary: 'group-relative advantages of gathered rewards as flow_grpo, TRL, verl or DanceGRPO compute them',
  async run(args, io) {
    const flags = parseFlags(args, spec);
    if (flags.help) {
      io.out(help());
      return 0;
    }
    if (flags.compare) return compare(flags, io);
    if (flags.schemes !== undefined || flags.json)
      throw new ConfigError('--schemes and --json go with --compare; one scheme is --scheme S');
    if (flags.weights) throw new ConfigError('--weights goes with --compare: each framework’s weights beside its advantages');
    if (flags.scheme === undefined) throw new ConfigError(`--scheme is required: one of ${allSchemes().join(', ')}`);
    if (!allSchemes().includes(flags.scheme))
      throw new ConfigError(`--scheme must be one of ${allSchemes().join(', ')}, got ${quote(flags.scheme)}`);
    const k = intFlag(flags.k, 'k', 1, 1 << 20);
    if (k === undefined) throw new ConfigError('--k is required: the group size (num_generations)');
    const ranks = intFlag(flags.ranks, 'ranks', 1, 1 << 16) ?? 1;
    const { rewards, promptIds } = await readBatch(io, flags.input, 1);
    const own = homeAdvantageSchemes().find((h) => h.def.scheme === flags.scheme);
    if (own) {
      if (rewards.length !== promptIds.length)
        throw new ConfigError(`promptIds has ${promptIds.length} entries but rewards has ${rewards.length}; give one prompt id per reward`);
      const { advantages, warnings } = own.def.compute({ rewards, promptIds, k });
      for (const w of warnings) io.err(`grpo-sandbox advantages: ${own.home.title} ${own.home.pinned.commit}: ${w}\n`);
      io.out(`${JSON.stringify({ advantages, framework: `${own.home.name}-${own.home.pinned.commit}`, groupBy: own.def.groupBy })}\n`);
      return 0;
    }
    const scheme = flags.scheme as AdvantageScheme;
    const input = { rewards, promptIds, k, ranks };
    const advantages = schemeAdvantages(scheme, input);
    const mixed = mixedGroups(scheme, input);
    if (mixed.length) {
      const named = mixed
        .slice(0, NAMED)
        .map((m) => `group ${m.group} (positions ${m.positions.join('–')}) holds ${m.promptIds.join(',')}`);
      const more = mixed.length > NAMED ? `; and ${mixed.length - NAMED} more` : '';
      io.err(
        `grpo-sandbox advantages: MIXED: ${scheme} groups runs of k=${k} by position, and ${mixed.length} of ${rewards.length / k} ` +
          `groups hold more than one prompt id: ${named.join('; ')}${more}. Their advantages compare different prompts; ` +
          `group by id with --scheme flow-grpo or verl, or order the samples so each prompt's k copies are consecutive\n`,
      );
    }
    const out = { advantages: advantages.map((a) => (Number.isNaN(a) ? null : a)), ...(groupsByPosition(scheme) ? { mixed } : {}) };
    io.out(`${JSON.stringify(out)}\n`);
    return 0;
  },
};
export default command;
