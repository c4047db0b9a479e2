// `grpo-sandbox steps`: what each optimizer step sees — every rank's micro-batches, the policy that
// generated them, and how much each completion's tokens weigh in the update, per framework version.
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../core/errors.ts';
import { say } from '../core/messages/index.ts';
import { lengthsText } from '../core/messages/steps.ts';
import { buildLayout } from '../core/samplers/index.ts';
import { layoutSamples } from '../core/samplers/estimate.ts';
import { overBudget, overBudgetAmounts, stepsEstimate } from '../core/budget.ts';
import { plannedWork } from '../core/steps/schedule.ts';
import { FRAMEWORK_NAMES, FRAMEWORKS, buildSteps, parseLengths } from '../core/steps/index.ts';
import type { OptimizerStep, StepsReport } from '../core/steps/index.ts';
import type { Command } from './commands.ts';
import { intFlag, parseFlags, quote, type FlagSpec } from './flags.ts';
import { MAX_INPUT_BYTES, bytesText } from './io.ts';
import { STEPS_INPUTS, stepsSettingsFrom } from '../core/steps/settings.ts';
import { flagGetter, helpLine, layoutFlagSpec, layoutFlagsHelp } from './layout-flags.ts';
import { readSeqlensFile } from './seqlens-file.ts';
import { workProgress } from './progress.ts';
import { renderSteps } from './steps-text.ts';
import { runFrameworkSteps, trainerHomeNamed } from './framework-steps.ts';
import { homeNamed } from './layout.ts';

const spec = {
  ...layoutFlagSpec,
  ...(Object.fromEntries(STEPS_INPUTS.map((key) => [key, { type: 'string' }])) as FlagSpec),
  show: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies FlagSpec;

const losses = () =>
  [...new Set(FRAMEWORK_NAMES.map((n) => `${n}: ${FRAMEWORKS[n]!.losses.join(', ')} (default ${FRAMEWORKS[n]!.defaultLoss})`))].join('; ');

const FLAG_HELP_LINES: [string, string][] = [
  ['--loss TYPE', ''],
  [
    '--lengths FILE',
    'completion token counts, in completion order (layout step, rank-major, slot), as a JSON array or numbers separated by spaces; ' +
      'repeated when shorter than the run; default: seeded from --seed, or with --sampler verl the seqlens its _balance_batch used ' +
      '(--seqlens FILE, else its synthetic ones)',
  ],
  [
    '--max-completion-length L',
    "TRL's max_completion_length (dr_grpo's constant) / verl's padded response length (seq-mean-token-sum-norm); default 512 " +
      "(verl's sampler: at least its longest seqlen)",
  ],
  [
    '--micro-batch M',
    `verl's ppo_micro_batch_size_per_gpu for samplers other than verl's: samples per rank per micro-step; a mini-batch (one optimizer ` +
      "step) is M × GA; default: the rank's block / GA. With --sampler verl it is --ppo-micro-batch-size-per-gpu (and the mini-batch " +
      '--ppo-mini-batch-size): a different --micro-batch is refused',
  ],
  ['--show N', 'optimizer steps printed in the table (default 3; --json has all)'],
  [
    '--json',
    'one JSON object: framework, loss, config, findings, notes and steps[] with microBatches[] and completions[] ' +
      '(rank, microStep, policyVersion, tokens, weight, intendedWeight)',
  ],
];
const FLAG_HELP_TEXT = () => FLAG_HELP_LINES.map(([flag, text]) => helpLine(flag, flag === '--loss TYPE' ? losses() : text)).join('');

const help = () => `usage: grpo-sandbox steps [--preset NAME] [layout flags] [--framework NAME] [--loss TYPE] [--lengths FILE] [--json]

For every optimizer step: each rank's micro-batches (which completions, in which order), the policy
version that generated them (optimizer steps taken before sampling) and the one that trains on them,
each micro-batch's loss normaliser as the framework version computes it, and the weight of each
completion's tokens in the applied update (after DDP's mean over ranks) against the global token
mean over the step. Findings follow the table, one paragraph each.

${layoutFlagsHelp()}${FLAG_HELP_TEXT()}
The frameworks shuffle micro-batches with generators the seed does not fix (TRL's shuffle_sequence_dict,
flow_grpo's per-inner-epoch randperm): rows keep each rank's block order, and the output says so.
`;

function readLengthsFile(path: string, maxLength: number): number[] {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new ConfigError(`--lengths ${quote(path)} is not a regular file`);
    size = st.size;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`--lengths ${quote(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (size > MAX_INPUT_BYTES) {
    throw new ConfigError(`--lengths ${quote(path)} is ${bytesText(size)}, above the input limit of ${bytesText(MAX_INPUT_BYTES)}`);
  }
  return parseLengths(readFileSync(path, 'utf8'), quote(path), maxLength);
}

/** One optimizer step as JSON: its micro-batches and, per completion, where it ran and what it weighed. */
function stepJson(s: OptimizerStep): unknown {
  return {
    index: s.index,
    epoch: s.epoch,
    applied: s.applied,
    microSteps: s.microSteps,
    updateScale: s.updateScale,
    microBatches: s.microBatches.map(({ rows, normaliserTerms: _, ...m }) => ({
      ...m,
      completions: rows.map((i) => s.rows[i]!.completion),
    })),
    completions: s.rows.map((r) => ({ ...r, ratio: r.intendedWeight > 0 ? r.weight / r.intendedWeight : null })),
  };
}

/** The report as JSON: per optimizer step, its micro-batches and, per completion, where it ran and what it weighed. */
export function stepsJson(report: StepsReport): unknown {
  return {
    framework: report.framework,
    loss: report.loss,
    config: report.config,
    microBatch: report.microBatch,
    gradientAccumulation: report.gradientAccumulation,
    maxCompletionLength: report.maxCompletionLength,
    lengths: lengthsText(report.lengths),
    findings: report.findings.map((f) => say(f)),
    notes: report.notes.map((n) => say(n)),
    steps: report.steps.map(stepJson),
  };
}

/** Characters of JSON gathered before one write. */
const JSON_CHUNK = 1 << 20;

/**
 * `JSON.stringify(stepsJson(report))` and a newline, written a step at a time: the same bytes
 * without the whole document (and a copy of every row) in memory at once. `steps` is the last key.
 */
export function writeStepsJson(report: StepsReport, write: (text: string) => void, onStep?: (done: number, total: number) => void): void {
  const head = JSON.stringify(stepsJson({ ...report, steps: [] }));
  const tail = ',"steps":[]}';
  if (!head.endsWith(tail)) throw new Error('steps JSON: steps is not the last key');
  let chunk = `${head.slice(0, -tail.length)},"steps":[`;
  report.steps.forEach((step, i) => {
    chunk += `${i ? ',' : ''}${JSON.stringify(stepJson(step))}`;
    if (chunk.length >= JSON_CHUNK) {
      write(chunk);
      chunk = '';
    }
    onStep?.(i + 1, report.steps.length);
  });
  write(`${chunk}]}\n`);
}

const stepsCommand: Command = {
  summary: 'what each optimizer step sees: micro-batches per rank, policy versions, loss normalisers, per-completion weights',
  async run(args, io) {
    // A framework home (src/core/frameworks/) named by --framework, --sampler or its --preset: its own trainer model.
    const home = homeNamed(args) ?? trainerHomeNamed(args);
    if (home) return runFrameworkSteps(home, args, io);
    const v = parseFlags(args, spec);
    if (v.help === true) {
      io.out(help());
      return 0;
    }
    const show = intFlag(v.show, 'show', 0) ?? 3;
    // The layout and the steps' inputs through the one reader <grpo-steps> calls too.
    const { config, options } = stepsSettingsFrom(flagGetter(v), {
      seqlens: readSeqlensFile,
      lengths: (path, maxLength) => ({ lengths: readLengthsFile(path, maxLength), source: `--lengths ${quote(path)}` }),
    });
    // Budget before any work: a row per completion per pass, in per-rank micro-batches.
    const json = v.json === true;
    const work = plannedWork(config, layoutSamples(config), options.microBatch);
    const tooMuch = overBudget(
      `this run's ${work.rows} completion-micro-steps (completions × passes) in ${work.microBatches} micro-batches, as ${json ? 'JSON' : 'the text report'},`,
      stepsEstimate(work, json ? 'json' : 'text'),
      `--epochs, --dataset-size (or --batches-per-epoch), --num-iterations, --ranks or --batch${
        json && !overBudgetAmounts(stepsEstimate(work, 'text')) ? ', or leave out --json (the text report fits)' : ''
      }`,
    );
    if (tooMuch) throw tooMuch;
    // Progress on stderr, only for work that runs more than a couple of seconds.
    const t0 = performance.now();
    const progress = workProgress(
      'steps',
      (text) => io.err(text),
      io.stderrIsTty,
      () => performance.now() - t0,
    );
    const report = buildSteps(buildLayout(config), {
      ...options,
      onProgress: (done, total) => progress.update('optimizer steps built', done, total),
    });
    if (json)
      writeStepsJson(
        report,
        (text) => io.out(text),
        (done, total) => progress.update('optimizer steps written as JSON', done, total),
      );
    else io.out(renderSteps(report, show));
    progress.end();
    return 0;
  },
};

export default stepsCommand;
