// `grpo-sandbox diff --log run.jsonl`: did a real run lay out data as the sandbox predicts?
// Exit 0 identical, 1 diverged, 2 a bad log or flags (one line on stderr naming line and field).
import { readFileSync, statSync } from 'node:fs';
import { diffLog, type DiffResult } from '../core/bridge/diff.ts';
import { parseProbeLog } from '../core/bridge/probe-log.ts';
import { ConfigError } from '../core/errors.ts';
import type { LayoutConfig, SamplerName } from '../core/layout/types.ts';
import { samplerNames } from '../core/samplers/index.ts';
import { LAYOUT_SETTINGS } from '../core/settings.ts';
import type { Command } from './commands.ts';
import { choiceFlag, intFlag, parseFlags, quote, type FlagSpec } from './flags.ts';
import { bytesText, MAX_INPUT_BYTES } from './io.ts';
import { helpLine } from './layout-flags.ts';

const spec = {
  log: { type: 'string' },
  json: { type: 'boolean' },
  ...Object.fromEntries(LAYOUT_SETTINGS.map((s) => [s.flag, { type: 'string' }])),
} as const satisfies FlagSpec;

const help = () => `usage: grpo-sandbox diff --log run.jsonl [--seed S …] [--json]

Rebuilds the layout the sandbox predicts for the settings a real run logged (probe/grpo_sandbox_probe.py)
and compares every step and rank: prints "identical", or the first divergence (step, rank, expected
vs found) and the likely cause. Exit 0 identical, 1 diverged, 2 a bad log.

${helpLine('--log FILE', 'the JSON Lines log the probe wrote (all ranks in one file)')}${helpLine(
  '--SETTING VALUE',
  `any layout flag (--seed, --k, …) replaces what the run logged: compare the run with the settings you chose in the sandbox`,
)}${helpLine('--json', 'one JSON object {identical, config, steps, ranks, matchingSteps, first, diagnosis, settingsDiffer}')}`;

function readLog(path: string): string {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new ConfigError(`--log ${quote(path)} is not a regular file`);
    size = st.size;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`--log ${quote(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (size > MAX_INPUT_BYTES)
    throw new ConfigError(`--log ${quote(path)} is ${bytesText(size)}, above the input limit of ${bytesText(MAX_INPUT_BYTES)}`);
  return readFileSync(path, 'utf8');
}

function overridesFrom(values: Record<string, unknown>): Partial<LayoutConfig> {
  const out: Record<string, unknown> = {};
  for (const s of LAYOUT_SETTINGS) {
    const v = values[s.flag];
    if (v === undefined) continue;
    out[s.field] = s.kind === 'sampler' ? choiceFlag<SamplerName>(String(v), s.flag, samplerNames) : intFlag(v, s.flag, s.min, s.max);
  }
  return out as Partial<LayoutConfig>;
}

const ids = (a: number[]) => `[${a.join(', ')}]`;

function text(r: DiffResult): string {
  const what = `${r.steps} step(s) × ${r.ranks} rank(s), --sampler ${r.config.sampler} --seed ${r.config.seed}`;
  const lines: string[] = [];
  for (const d of r.settingsDiffer) lines.push(`note: ${d}`);
  if (r.identical) {
    lines.push(`identical: every logged step matches the sandbox's layout (${what})`);
  } else {
    const f = r.first!;
    lines.push(
      `diverged at step ${f.step} (epoch ${f.epoch}, step ${f.stepInEpoch}), rank ${f.rank}: expected ${ids(f.expected)}, found ${ids(f.found)} ` +
        `(${r.matchingSteps} of ${r.steps} steps match; ${what})`,
      `diagnosis: ${r.diagnosis}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const diffCommand: Command = {
  summary: "compare a real run's logged indices (probe/grpo_sandbox_probe.py) with the sandbox's layout",
  async run(args, io) {
    const values = parseFlags(args, spec);
    if (values.help) {
      io.out(help());
      return 0;
    }
    if (values.log === undefined) throw new ConfigError('--log FILE is required: the JSON Lines log probe/grpo_sandbox_probe.py wrote');
    const log = parseProbeLog(readLog(values.log as string));
    const result = diffLog(log, overridesFrom(values));
    io.out(values.json ? `${JSON.stringify(result)}\n` : text(result));
    return result.identical ? 0 : 1;
  },
};

export default diffCommand;
