// `grpo-sandbox steps`: what each optimizer step sees — every rank's micro-batches, the policy that
// generated them, and how much each completion's tokens weigh in the update, per framework version.
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../core/errors.ts';
import { say } from '../core/messages/index.ts';
import { lengthsText } from '../core/messages/steps.ts';
import { buildLayout, validateConfig } from '../core/samplers/index.ts';
import { layoutSamples } from '../core/samplers/estimate.ts';
import { FRAMEWORK_NAMES, FRAMEWORKS, buildSteps, parseLengths } from '../core/steps/index.ts';
import type { StepsReport } from '../core/steps/index.ts';
import type { Command } from './commands.ts';
import { intFlag, parseFlags, quote, type FlagSpec } from './flags.ts';
import { MAX_INPUT_BYTES, bytesText } from './io.ts';
import { helpLine, layoutConfigFromFlags, layoutFlagSpec, layoutFlagsHelp } from './layout-flags.ts';
import { renderSteps } from './steps-text.ts';

const spec = {
  ...layoutFlagSpec,
  framework: { type: 'string' },
  loss: { type: 'string' },
  lengths: { type: 'string' },
  'max-completion-length': { type: 'string' },
  'micro-batch': { type: 'string' },
  show: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies FlagSpec;

/** Rows (completion × micro-step) the command builds at most: about 200 bytes each in memory, 250 in JSON. */
const MAX_ROWS = 2_000_000;

const losses = () =>
  [...new Set(FRAMEWORK_NAMES.map((n) => `${n}: ${FRAMEWORKS[n]!.losses.join(', ')} (default ${FRAMEWORKS[n]!.defaultLoss})`))].join('; ');

const FLAG_HELP_LINES: [string, string][] = [
  [
    '--framework NAME',
    `the framework version whose code is modelled: ${FRAMEWORK_NAMES.join(', ')}; default: the sampler's (trl → trl-1.13.0; ` +
      'flow-grpo, flow-grpo-lcm, contiguous, group-distributed → flow_grpo-ac4c86e; others → verl-b178a3c)',
  ],
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
    "verl's ppo_micro_batch_size_per_gpu for samplers other than verl's: samples per rank per micro-step; a mini-batch (one optimizer " +
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
    steps: report.steps.map((s) => ({
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
    })),
  };
}

const stepsCommand: Command = {
  summary: 'what each optimizer step sees: micro-batches per rank, policy versions, loss normalisers, per-completion weights',
  async run(args, io) {
    const v = parseFlags(args, spec);
    if (v.help === true) {
      io.out(help());
      return 0;
    }
    const { config } = layoutConfigFromFlags(v);
    const invalid = validateConfig(config);
    if (invalid) throw invalid;
    const maxLength = intFlag(v['max-completion-length'], 'max-completion-length', 1, 1_000_000);
    const microBatch = intFlag(v['micro-batch'], 'micro-batch', 1);
    const show = intFlag(v.show, 'show', 0) ?? 3;
    const samples = layoutSamples(config);
    const rows = samples * Math.max(1, config.numIterations);
    if (rows > MAX_ROWS) {
      throw new ConfigError(
        `this run trains ${rows} completion-micro-steps (${samples} samples × num_iterations ${config.numIterations}), above the steps ` +
          `command's ${MAX_ROWS}; lower --epochs, --dataset-size, --ranks or --batch`,
      );
    }
    const lengths = v.lengths === undefined ? undefined : readLengthsFile(String(v.lengths), maxLength ?? 512);
    const report = buildSteps(buildLayout(config), {
      framework: v.framework as string | undefined,
      loss: v.loss as string | undefined,
      lengths,
      lengthsSource: v.lengths === undefined ? undefined : `--lengths ${quote(String(v.lengths))}`,
      maxCompletionLength: maxLength,
      microBatch,
    });
    io.out(v.json === true ? `${JSON.stringify(stepsJson(report))}\n` : renderSteps(report, show));
    return 0;
  },
};

export default stepsCommand;
