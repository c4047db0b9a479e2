// `grpo-sandbox diff --log run.jsonl --sampler HOME [--config FILE] [--preset NAME] [flags]`: a real run of one
// of the framework homes (src/core/frameworks/) against the layout `layout --sampler HOME` gives for the same
// settings, read by the same reader (framework-settings.ts) and built by the home's own layout.
import { overBudget } from '../core/budget.ts';
import { diffHomeLog, type HomeDiffResult } from '../core/bridge/diff-home.ts';
import { homePinned } from '../core/bridge/home-version.ts';
import { homeOfFramework, parseProbeLog } from '../core/bridge/probe-log.ts';
import { ConfigError } from '../core/errors.ts';
import { FRAMEWORK_HOMES } from '../core/frameworks/index.ts';
import { frameworkLayoutEstimate, plannedLayout, plannedLower, plannedText } from '../core/frameworks/budget.ts';
import type { FrameworkHome } from '../core/frameworks/types.ts';
import { readLog } from './diff-log-file.ts';
import { parseFlags } from './flags.ts';
import { frameworkFlagSpec, frameworkSettingsFrom } from './framework-settings.ts';
import type { CliIo } from './io.ts';
import { helpLine } from './layout-flags.ts';
import { readSeqlensFile } from './seqlens-file.ts';

/** The lines `diff --help` adds for the framework homes. */
export function homeDiffHelpLines(): string {
  return `${helpLine(
    '--sampler HOME',
    `a run of ${FRAMEWORK_HOMES.map((h) => h.name).join(', ')}: predict with that framework's layout, as ` +
      '`layout --sampler HOME [--config FILE] [--preset NAME] [its flags] [--seqlens FILE]` gives it ' +
      '(`diff --sampler HOME --help` lists its flags). A log whose framework is a home needs no --sampler',
  )}`;
}

function homeHelp(home: FrameworkHome): string {
  return `usage: grpo-sandbox diff --log run.jsonl --sampler ${home.name} [--config FILE | --preset NAME] [flags] [--seqlens FILE] [--json]

Compares every logged step and rank of a run of ${home.title} (probe/grpo_sandbox_probe.py's log_step) with
the layout \`grpo-sandbox layout --sampler ${home.name}\` gives for the same settings, at ${homePinned(home)}:
prints "identical", or the first divergence (step, rank, expected vs found) and the likely cause. A logged
setting that differs from the prediction's, another framework, and a version other than the pinned commit
are printed first as "note:" lines. Exit 0 identical, 1 diverged, 2 a bad log or flags.

${helpLine('--log FILE', 'the JSON Lines log the probe wrote (all ranks in one file)')}${helpLine(
  '--config FILE',
  `the run's own config (${home.configFormat}), read as \`layout --sampler ${home.name} --config FILE\` reads it`,
)}${helpLine('--seqlens FILE', 'token counts per sample, where the dispatch balances lengths (as for layout)')}${helpLine(
  '--json',
  'one JSON object {identical, sampler, preset, config, settings, steps, ranks, matchingSteps, first, diagnosis, ' +
    'settingsDiffer, framework, versionNote, notes}',
)}The flags are \`layout --sampler ${home.name}\`'s: \`grpo-sandbox layout --sampler ${home.name} --help\` lists them.
`;
}

/** The home the log named by `--log` in `args` comes from, if it can be read and names one; else undefined (the caller reports errors). */
export function homeOfLog(args: readonly string[]): FrameworkHome | undefined {
  for (let i = 0; i < args.length; i++) {
    const m = /^--log(?:=(.*))?$/.exec(args[i]!);
    if (!m) continue;
    const path = m[1] ?? args[i + 1];
    if (path === undefined) return undefined;
    try {
      return homeOfFramework(parseProbeLog(readLog(path)).header.framework);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const ids = (a: number[]) => `[${a.join(', ')}]`;

function text(r: HomeDiffResult, home: FrameworkHome): string {
  const from = [`--sampler ${r.sampler}`, ...(r.config ? [r.preset ? `--preset ${r.preset}` : `--config ${r.config}`] : [])].join(' ');
  const what = `${r.steps} step(s) × ${r.ranks} rank(s), ${from}, ${home.title} @ ${home.pinned.commit.slice(0, 7)}`;
  const lines = r.notes.map((n) => `note: ${n}`);
  if (r.identical) lines.push(`identical: every logged step matches the sandbox's layout (${what})`);
  else {
    const f = r.first!;
    lines.push(
      `diverged at step ${f.step} (epoch ${f.epoch}, step ${f.stepInEpoch}), rank ${f.rank}: expected ${ids(f.expected)}, found ${ids(f.found)} ` +
        `(${r.matchingSteps} of ${r.steps} steps match; ${what})`,
      `diagnosis: ${r.diagnosis}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export async function runHomeDiff(home: FrameworkHome, args: string[], io: CliIo): Promise<number> {
  const values = parseFlags(args, { ...frameworkFlagSpec(home), log: { type: 'string' } }) as Record<string, unknown>;
  if (values.help) {
    io.out(homeHelp(home));
    return 0;
  }
  if (values.emit !== undefined) throw new ConfigError('diff takes no --emit: `layout --sampler NAME --emit NAME` writes a config');
  if (values.log === undefined) throw new ConfigError('--log FILE is required: the JSON Lines log probe/grpo_sandbox_probe.py wrote');
  // The settings as `layout --sampler HOME` reads them: defaults, --config or --preset, flags.
  const reading = frameworkSettingsFrom(home, values);
  const log = parseProbeLog(readLog(values.log as string));
  // Budget before work, as `layout` does.
  const plan = plannedLayout(home, reading.settings);
  const tooMuch = overBudget(
    `this diff's predicted ${home.title} layout of ${plannedText(plan)}`,
    frameworkLayoutEstimate(plan),
    plannedLower(plan),
  );
  if (tooMuch) throw tooMuch;
  const seqlens = typeof values.seqlens === 'string' ? readSeqlensFile(values.seqlens) : undefined;
  const layout = home.layout(reading.settings, seqlens);
  const result = diffHomeLog(
    log,
    home,
    {
      settings: reading.settings,
      ...(reading.config ? { config: typeof values.preset === 'string' ? reading.config.path : (values.config as string) } : {}),
      ...(typeof values.preset === 'string' ? { preset: values.preset } : {}),
    },
    layout,
  );
  io.out(values.json ? `${JSON.stringify(result)}\n` : text(result, home));
  return result.identical ? 0 : 1;
}
