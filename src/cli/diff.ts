// `grpo-sandbox diff --log run.jsonl`: did a real run lay out data as the sandbox predicts?
// Exit 0 identical, 1 diverged, 2 a bad log or flags (one line on stderr naming line and field).
import { overBudget } from '../core/budget.ts';
import { diffLog, predictedConfig, type DiffResult, type Prediction } from '../core/bridge/diff.ts';
import { parseProbeLog } from '../core/bridge/probe-log.ts';
import { ConfigError } from '../core/errors.ts';
import type { LayoutConfig } from '../core/layout/types.ts';
import { presetNames } from '../core/presets.ts';
import { layoutEstimate } from '../core/samplers/estimate.ts';
import { validateConfig } from '../core/samplers/index.ts';
import { readLayoutSetting } from '../core/samplers/settings.ts';
import { LAYOUT_SETTINGS } from '../core/settings.ts';
import type { Command } from './commands.ts';
import { parseFlags, type FlagSpec } from './flags.ts';
import { homeDiffHelpLines, homeOfLog, runHomeDiff } from './diff-home.ts';
import { readLog } from './diff-log-file.ts';
import { homeNamed } from './layout.ts';
import { helpLine, layoutConfigFromFlags, layoutFlagSpec } from './layout-flags.ts';

const spec = {
  log: { type: 'string' },
  json: { type: 'boolean' },
  ...layoutFlagSpec,
} as const satisfies FlagSpec;

const help = () => `usage: grpo-sandbox diff --log run.jsonl [--preset NAME] [--seed S …] [--json]

Compares every step and rank of a real run's log (probe/grpo_sandbox_probe.py) with the layout the
sandbox predicts: prints "identical", or the first divergence (step, rank, expected vs found) and the
likely cause. Every logged setting that differs from the prediction's, and a framework version other
than the one the sandbox models, is printed first as a "note:" line. Exit 0 identical, 1 diverged,
2 a bad log or flags.

${helpLine('--log FILE', 'the JSON Lines log the probe wrote (all ranks in one file)')}${helpLine(
  '--preset NAME',
  `predict with the sandbox settings you chose, as in \`layout --preset NAME [flags]\` (${presetNames.join(', ')}; ` +
    'flags override the preset). Without it the prediction is built from the settings the run logged',
)}${helpLine(
  '--SETTING VALUE',
  'any layout flag (--seed, --k, …): over the preset, or replacing what the run logged when there is no --preset',
)}${helpLine(
  '--json',
  'one JSON object {identical, preset, config, steps, ranks, matchingSteps, first, diagnosis, settingsDiffer, framework, versionNote, notes}',
)}${homeDiffHelpLines()}`;

function overridesFrom(values: Record<string, unknown>): Partial<LayoutConfig> {
  const out: Record<string, unknown> = {};
  // Each value read as `layout` reads its flag (the layout's one reader, src/core/samplers/settings.ts).
  for (const s of LAYOUT_SETTINGS) if (values[s.flag] !== undefined) out[s.field] = readLayoutSetting(s, String(values[s.flag]));
  return out as Partial<LayoutConfig>;
}

/** The prediction the flags ask for: the preset with the flags over it (checked as `layout` checks them), or overrides of the log's settings. */
function predictionFrom(values: Record<string, unknown>): Prediction {
  if (values.preset === undefined) {
    if (values['generation-batch-size'] !== undefined)
      throw new ConfigError('--generation-batch-size needs --preset: without one, give --steps-per-generation to replace the logged value');
    return { overrides: overridesFrom(values) };
  }
  const { config, preset } = layoutConfigFromFlags(values);
  const invalid = validateConfig(config);
  if (invalid) throw invalid;
  return { config, preset };
}

const ids = (a: number[]) => `[${a.join(', ')}]`;

function text(r: DiffResult): string {
  const what = `${r.steps} step(s) × ${r.ranks} rank(s), ${r.preset ? `preset ${r.preset}, ` : ''}--sampler ${r.config.sampler} --seed ${r.config.seed}`;
  const lines: string[] = [];
  for (const d of r.notes) lines.push(`note: ${d}`);
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
    // A framework home (--sampler nemo-rl, …, or a log whose framework is one): its own flags and layout.
    const home = homeNamed(args) ?? homeOfLog(args);
    if (home) return runHomeDiff(home, args, io);
    const values = parseFlags(args, spec);
    if (values.help) {
      io.out(help());
      return 0;
    }
    if (values.log === undefined) throw new ConfigError('--log FILE is required: the JSON Lines log probe/grpo_sandbox_probe.py wrote');
    const prediction = predictionFrom(values);
    const log = parseProbeLog(readLog(values.log as string));
    // Budget before work, as `layout` does: the prediction covers every logged step at the flags' sizes.
    const tooMuch = overBudget(
      "this diff's predicted layout",
      layoutEstimate(predictedConfig(log, prediction), 'json'),
      '--ranks, --batch or --dataset-size',
    );
    if (tooMuch) throw tooMuch;
    const result = diffLog(log, prediction);
    io.out(values.json ? `${JSON.stringify(result)}\n` : text(result));
    return result.identical ? 0 : 1;
  },
};

export default diffCommand;
