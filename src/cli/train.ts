// `grpo-sandbox train`: trains the seed-003 controller across simulated ranks (src/train), shows
// progress (a cli-progress bar on a terminal, plain lines otherwise), and writes metrics.jsonl,
// config.json, checkpoint.json and report.html into --out. Ctrl-C stops at a step boundary and
// still writes a valid checkpoint; --resume DIR continues it.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';
import { controllerLayout } from '../core/env/controller.ts';
import { makeTask, randomPolicyFraction } from '../core/env/task.ts';
import { ConfigError } from '../core/errors.ts';
import { say } from '../core/messages/index.ts';
import { readSetting, type Setting } from '../core/setting.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../train/checkpoint.ts';
import {
  type BackendChoice,
  checkTrainConfig,
  TRAIN_PRESETS,
  lossNearZeroByConstruction,
  trainBudgetError,
  type TrainConfig,
  trainConfigFromJson,
  usesMicroSteps,
} from '../train/config.ts';
import { policyByBudget } from '../train/evaluate.ts';
import { progressParts } from '../train/metrics.ts';
import type { DynamicStepMetrics } from '../train/dynamic.ts';
import type { ReplicaState } from '../train/program.ts';
import { renderReport } from '../train/report.ts';
import { train, type StepRecord } from '../train/run.ts';
import { TRAIN_SETTINGS, trainConfigFrom } from '../train/settings.ts';
import { WorldFailure } from '../ranks/world.ts';
import type { Command } from './commands.ts';
import { type FlagSpec, intFlag, parseFlags } from './flags.ts';
import { parseJsonText } from './json-input.ts';
import { helpLine } from './layout-flags.ts';
import { settingFlagSpec, settingsHelp } from './setting-help.ts';
import { asyncIntro, type Comparison, compareRuns, comparisonLines, lagPart } from './train-async.ts';
import { asyncRunOf } from '../train/async-plan.ts';
import { asyncWorkloadOf } from '../train/async-settings.ts';

const spec = {
  preset: { type: 'string' },
  ...settingFlagSpec(TRAIN_SETTINGS),
  out: { type: 'string' },
  resume: { type: 'string' },
  overwrite: { type: 'boolean' },
  json: { type: 'boolean' },
  threads: { type: 'string' },
  helpers: { type: 'string' },
} as const satisfies FlagSpec;

/** The flags about files and output (not settings of the run: the page has none of them). */
const OUTPUT_HELP = [
  ['--out DIR', 'write metrics.jsonl, config.json, checkpoint.json, report.html'],
  ['--resume DIR', 'continue the run saved in DIR (its config.json; --steps and --backend may change)'],
  ['--overwrite', 'let --out replace a run already saved there (without it, that is refused: nothing is lost)'],
  ['--json', 'print the final summary as JSON on stdout (progress goes to stderr)'],
  ['--threads N', 'worker threads for the ranks (default 1 for small products, else min(ranks, cores)); the same results for any N'],
  [
    '--helpers N',
    'helper threads per rank thread for the large matmuls (default: the cores the ranks leave idle, at most 3, ' +
      'where the products are large enough; 0 when several runs share the machine); the same results for any N',
  ],
]
  .map(([flag, text]) => helpLine(flag!, text!))
  .join('');

const help = `usage: grpo-sandbox train [--preset seed-000|seed-003] [flags]

Trains the seed-003 controller with GRPO on simulated ranks (sharing worker threads): every step the
sampler gives each rank its prompt ids, each rank samples and scores its configurations, rewards
and prompt ids are all-gathered, advantages computed, gradients all-reduced, Adam applied.
${helpLine('--preset NAME', Object.keys(TRAIN_PRESETS).join(', '))}${settingsHelp(TRAIN_SETTINGS)}${OUTPUT_HELP}presets: ${Object.entries(
  TRAIN_PRESETS,
)
  .map(([k, v]) => `\n  ${k}  ${v.description}`)
  .join('')}
Ctrl-C stops at the next step boundary and writes the checkpoint. Exit 0 done, 1 the run failed, 2 bad flags, 130 stopped.
`;

type Flags = ReturnType<typeof parseFlags<typeof spec>>;

/** The run's configuration: defaults ← preset ← flags, read by the one function the dashboard also calls. */
function configFrom(flags: Flags): TrainConfig {
  return trainConfigFrom((key) => text(flags, key));
}

/** A new run's configuration from the command's arguments (what `grpo-sandbox train ARGS` would train). */
export function trainConfigFromArgs(args: string[]): TrainConfig {
  return configFrom(parseFlags(args, spec));
}

/** A string flag's text by its key (the settings' flags are typed by the table, not by name). */
const text = (flags: Flags, key: string) => (flags as Record<string, string | undefined>)[key];

const setting = (key: string) => TRAIN_SETTINGS.find((s) => s.key === key)! as Setting<never>;

const RUN_FLAGS = Object.keys(spec).filter(
  (f) => !['steps', 'backend', 'out', 'resume', 'overwrite', 'json', 'threads', 'helpers'].includes(f),
);

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`--resume: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  // Our own parse message: the runtimes' JSON.parse messages differ between Node and Deno.
  return parseJsonText(text, `--resume: ${path}`);
}

/** Fields the summary and report.html read from every kept step (NaN was written as null). */
const RECORD_NUMBERS = ['rewardMean', 'rewardStd', 'optimumFraction', 'loss', 'gradNorm', 'zeroStdFraction', 'stepMs'];
const ENTROPY_HEADS = ['tier', 'insertion', 'topK', 'knob3'];

/** What makes a parsed metrics line unusable as a StepRecord, or null when it is one. */
function stepRecordFault(m: unknown): string | null {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return 'not an object';
  const r = m as Record<string, unknown>;
  if (!Number.isSafeInteger(r.step) || (r.step as number) < 1) return "no whole 'step' ≥ 1";
  const bad = RECORD_NUMBERS.find((k) => typeof r[k] !== 'number' && r[k] !== null);
  if (bad) return `no number '${bad}'`;
  const e = r.entropy as Record<string, unknown> | null;
  if (typeof e !== 'object' || e === null || ENTROPY_HEADS.some((h) => typeof e[h] !== 'number' && e[h] !== null))
    return "no 'entropy' per head";
  return null;
}

/**
 * The steps of a run's metrics.jsonl that its checkpoint covers. A last line cut short (the run was
 * killed mid-append) is dropped, since steps after the checkpoint are redone; any other line that is
 * not a step record means the file is damaged or foreign, and is refused in one line.
 */
export function metricsUpTo(text: string, step: number, path: string): StepRecord[] {
  const lines = text.split('\n');
  const kept: StepRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      if (lines.slice(i + 1).every((l) => l.trim() === '')) break;
      throw new ConfigError(`--resume: ${path} line ${i + 1} is not JSON: the run's metrics are damaged; start a new run`);
    }
    const missing = stepRecordFault(m);
    if (missing) throw new ConfigError(`--resume: ${path} line ${i + 1} is not a step record (${missing}): the file is damaged or foreign`);
    if ((m as StepRecord).step <= step) kept.push(m as StepRecord);
  }
  return kept;
}

/** Settings and state of the run in `dir`, with --steps/--backend applied. */
/** A new run must not silently replace one saved in its --out (a researcher's results are lost). */
function refuseToReplaceRun(dir: string): void {
  const saved = ['checkpoint.json', 'metrics.jsonl'].filter((f) => existsSync(join(dir, f)));
  if (saved.length === 0) return;
  throw new ConfigError(
    `--out ${dir} already holds a training run (${saved.join(', ')}); continue it with --resume ${dir}, ` +
      'choose another --out, or add --overwrite to replace it',
  );
}

function resumeFrom(dir: string, flags: Flags): { config: TrainConfig; state: ReplicaState } {
  const given = RUN_FLAGS.filter((f) => flags[f as keyof Flags] !== undefined);
  if (given.length > 0)
    throw new ConfigError(
      `--resume takes the run's settings from ${join(dir, 'config.json')}; drop --${given.join(', --')} (only --steps and --backend may change)`,
    );
  const steps = readSetting(setting('steps'), text(flags, 'steps')) as number | undefined;
  const backend = readSetting(setting('backend'), text(flags, 'backend')) as BackendChoice | undefined;
  const configPath = join(dir, 'config.json');
  const json = readJson(configPath);
  let config: TrainConfig;
  try {
    config = trainConfigFromJson(json);
    if (steps !== undefined) config.steps = steps;
    if (backend !== undefined) config.backend = backend;
    checkTrainConfig(config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // The file, not a flag, holds the bad setting: say so (checkTrainConfig's hints name flags).
    throw new ConfigError(`--resume: ${configPath} is not a training run's config: ${err.message}`);
  }
  const path = join(dir, 'checkpoint.json');
  const state = decodeCheckpoint(readJson(path), controllerLayout(config.dims).length, path);
  if (state.step > config.steps)
    throw new ConfigError(`${path} is at step ${state.step}, past --steps ${config.steps}; give a larger --steps`);
  return { config, state };
}

/** uPlot's script and stylesheet, read from the installed package (the report inlines them). */
function uplotFiles(): { js: string; css: string } {
  const require = createRequire(import.meta.url);
  const read = (f: string) => readFileSync(require.resolve(`uplot/dist/${f}`), 'utf8');
  return { js: read('uPlot.iife.min.js'), css: read('uPlot.min.css') };
}

/** Writes `text` to `path` through a temporary file, so a stop mid-write never leaves half a file. */
function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** Steps to the first point where the 10-step mean of optimumFraction reaches `level`, or null. */
export function reachedAt(metrics: StepRecord[], level: number, window = 10): { step: number; seconds: number } | null {
  let elapsed = 0;
  for (let i = 0; i < metrics.length; i++) {
    elapsed += metrics[i]!.stepMs;
    if (i + 1 < window) continue;
    let s = 0;
    for (let j = i + 1 - window; j <= i; j++) s += metrics[j]!.optimumFraction;
    if (s / window >= level) return { step: metrics[i]!.step, seconds: elapsed / 1000 };
  }
  return null;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** "1 step", "3 steps". */
const steps = (n: number) => `${n} step${n === 1 ? '' : 's'}`;

/** Dynamic sampling's part of a progress line: valid samples after each draw, and what the policy did. */
function dynamicLine(d: DynamicStepMetrics): string {
  const parts = [`valid ${d.validAfter.join('→')}/${d.target}`, `${d.resamples} resample${d.resamples === 1 ? '' : 's'}`];
  if (d.shortage > 0) parts.push(`short ${d.shortage}`);
  if (d.invalidGroupsKept > 0) parts.push(`${d.invalidGroupsKept} flat groups kept`);
  if (d.duplicated > 0) parts.push(`${d.duplicated} duplicated`);
  if (d.discardedSurplus > 0) parts.push(`${d.discardedSurplus} surplus dropped`);
  if (d.skipped) parts.push('nothing to train on');
  if (new Set(d.rows).size > 1) parts.push(`rows ${d.rows.join('/')}`);
  return parts.join(', ');
}

const command: Command = {
  summary: 'train the seed-003 controller with GRPO on simulated ranks (progress, metrics, checkpoint, report.html)',
  async run(args, io) {
    const flags = parseFlags(args, spec);
    if (flags.help) {
      io.out(help);
      return 0;
    }
    const resumed = flags.resume !== undefined ? resumeFrom(flags.resume, flags) : null;
    const config = resumed?.config ?? configFrom(flags);
    // Budget before work: one step (the wait before the next progress line) and the workers' memory
    // (trainConfigFrom checks it for a new run; a resumed run may have changed --backend).
    const tooMuch = resumed ? trainBudgetError(config) : null;
    if (tooMuch) throw tooMuch;
    const outDir = flags.out ?? flags.resume;
    const startStep = resumed?.state.step ?? 0;
    const info = (line: string) => (flags.json ? io.err : io.out)(`${line}\n`);
    const notice = (line: string) => io.err(`grpo-sandbox train: ${line}\n`);

    let previous: StepRecord[] = [];
    if (flags.overwrite && (flags.out === undefined || resumed))
      throw new ConfigError('--overwrite goes with --out (a new run replacing a saved one), not with --resume or without --out');
    if (outDir !== undefined && !resumed && !flags.overwrite) refuseToReplaceRun(outDir);
    if (outDir !== undefined) {
      try {
        mkdirSync(outDir, { recursive: true });
      } catch (err) {
        throw new ConfigError(`--out ${outDir}: cannot create it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      const metricsPath = join(outDir, 'metrics.jsonl');
      if (resumed && existsSync(metricsPath)) {
        // Keep the steps the checkpoint covers; later lines (after the checkpoint) are redone.
        previous = metricsUpTo(readFileSync(metricsPath, 'utf8'), startStep, metricsPath);
      }
      writeAtomic(join(outDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
      writeAtomic(metricsPath, previous.map((m) => `${JSON.stringify(m)}\n`).join(''));
    }

    // Progress: a bar on a terminal, plain lines otherwise.
    const tty = !flags.json && io.stdoutIsTty;
    let bar: { update(v: number, p: object): void; stop(): void; start(t: number, v: number, p: object): void } | null = null;
    if (tty) {
      const { default: progress } = await import('cli-progress');
      bar = new progress.SingleBar(
        {
          format: 'train |{bar}| {value}/{total} steps · reward {reward} · {optimum} of optimum · {rate} steps/s{dyn}',
          hideCursor: true,
          stream: process.stdout,
        },
        progress.Presets.shades_classic,
      );
    }
    let t0 = performance.now();
    let stopRequested = false;
    const onSigint = () => {
      if (stopRequested) process.exit(130);
      stopRequested = true;
      notice('stopping after this step (Ctrl-C again to quit at once, without a checkpoint)');
    };
    process.on('SIGINT', onSigint);
    const lines: string[] = [];
    const every = Math.max(1, Math.round(config.steps / 20));
    let result: Awaited<ReturnType<typeof train>>;
    try {
      result = await train({
        config,
        resume: resumed?.state,
        threads: intFlag(flags.threads, 'threads', 1, config.ranks),
        helpers: intFlag(flags.helpers, 'helpers', 0, 64),
        shouldStop: () => stopRequested,
        onNotice: (n) => notice(say(n)),
        onStart: (device, helpers) => {
          info(
            `training ${steps(config.steps - startStep)} on ${config.ranks} rank${config.ranks > 1 ? 's' : ''} ` +
              `[${device}${helpers ? `, ${helpers} helper thread${helpers > 1 ? 's' : ''} per rank thread for the matmuls` : ''}]: ` +
              `${config.sampler} sampler, ${config.advantage} advantages, ${config.loss} loss, ${config.reward} reward, ` +
              `${config.ranks * config.batch} samples per step` +
              (config.dynamicSampling
                ? `, dynamic sampling ${config.dynamicSampling} (≤ ${config.maxResampleTimes} resamples, flat by ${config.filterMetric})`
                : '') +
              (startStep > 0 ? `, resuming at step ${startStep}` : '') +
              (usesMicroSteps(config)
                ? `; each step is one optimizer step of gradient_accumulation_steps ${config.gradientAccumulationSteps} micro-steps, ` +
                  `num_iterations ${config.numIterations}, normalised as ${config.framework}`
                : ''),
          );
          if (config.async !== null) info(asyncIntro(config, { ...asyncRunOf(config), workload: asyncWorkloadOf(config) }));
          if (lossNearZeroByConstruction(config))
            info(
              'the loss reads ~0 by construction: on-policy the ratio is 1, so it is minus the mean advantage, and advantages ' +
                'are centred within each group; what trains is its gradient',
            );
          bar?.start(config.steps, startStep, { reward: '…', optimum: '…', rate: '…', dyn: '' });
          // Steps per second count the training, not the start of the workers.
          t0 = performance.now();
        },
        onStep: (m) => {
          if (outDir !== undefined) lines.push(`${JSON.stringify(m)}\n`);
          if (outDir !== undefined && lines.length >= 10) flush();
          const rate = ((m.step - startStep) / ((performance.now() - t0) / 1000)).toFixed(1);
          if (bar)
            bar.update(m.step, {
              reward: m.rewardMean.toFixed(3),
              optimum: pct(m.optimumFraction),
              rate,
              dyn: m.dynamic ? ` · ${dynamicLine(m.dynamic)}` : '',
            });
          else if (m.step % every === 0 || m.step === config.steps)
            info(
              `step ${m.step}/${config.steps}  ${progressParts(m).join('  ')}  ${rate} steps/s` +
                (m.async ? `  ${lagPart(m)}` : '') +
                (m.dynamic ? `  ${dynamicLine(m.dynamic)}` : '') +
                (m.micro ? `  normaliser ${m.micro.normaliser.join(' · ')}` : ''),
            );
        },
      });
    } catch (err) {
      bar?.stop();
      if (err instanceof WorldFailure) {
        io.err(`grpo-sandbox train: the run failed: ${err.message}\n`);
        return 1;
      }
      throw err;
    } finally {
      process.off('SIGINT', onSigint);
    }
    function flush() {
      if (outDir === undefined || lines.length === 0) return;
      writeFileSync(join(outDir, 'metrics.jsonl'), lines.join(''), { flag: 'a' });
      lines.length = 0;
    }
    flush();
    bar?.stop();
    const seconds = (performance.now() - t0) / 1000;
    const all = [...previous, ...result.metrics];
    const last = all.slice(-10);
    const finalFraction = last.reduce((s, m) => s + m.optimumFraction, 0) / Math.max(last.length, 1);
    const reached = reachedAt(all, 0.95);
    const ran = result.metrics.length;
    const summary =
      `${result.stopped ? 'stopped' : 'trained'} at step ${result.final.step} of ${config.steps} ` +
      `on ${config.ranks} rank${config.ranks > 1 ? 's' : ''} (${result.device}): ` +
      `${steps(ran)} in ${seconds.toFixed(1)} s (${(ran / seconds).toFixed(1)} steps/s)` +
      (last.length > 0 ? `; last ${steps(last.length)} at ${pct(finalFraction)} of the optimum` : '') +
      (reached ? `; 95% reached at step ${reached.step}` : '; 95% not reached') +
      (result.transfers
        ? `; GPU per step: ${result.transfers.submissionsPerStep.toFixed(2)} submissions, ${result.transfers.readbacksPerStep.toFixed(2)} readbacks`
        : '');
    const task = makeTask(config.dims, config.seed, config.bankSize);
    const randomFraction = randomPolicyFraction(task);
    if (outDir !== undefined) {
      writeAtomic(join(outDir, 'checkpoint.json'), `${JSON.stringify(encodeCheckpoint(result.final, config.seed))}\n`);
      const bands = await policyByBudget(task, result.final.params, 6, config.dims.dModel > 256 ? 128 : task.prompts.count);
      const html = renderReport({ config, metrics: all, bands, summary, randomFraction, uplot: uplotFiles() });
      writeAtomic(join(outDir, 'report.html'), html);
    }
    info(summary);
    // train --async: the same run at zero staleness (the synchronous loop) beside it, what staleness cost in reward.
    let comparison: Comparison | null = null;
    if (result.async && !result.stopped && !stopRequested) {
      info('the same run at zero staleness (the synchronous loop), for comparison …');
      const sync = await train({
        config: { ...config, async: null, maxStaleness: null },
        threads: intFlag(flags.threads, 'threads', 1, config.ranks),
        helpers: intFlag(flags.helpers, 'helpers', 0, 64),
        shouldStop: () => stopRequested,
      });
      comparison = compareRuns(result.metrics, sync.metrics, (run) => reachedAt(run, 0.95));
      for (const line of comparisonLines(result.async, comparison)) info(line);
    }
    if (outDir !== undefined)
      info(`wrote ${['metrics.jsonl', 'config.json', 'checkpoint.json', 'report.html'].map((f) => join(outDir, f)).join(', ')}`);
    if (flags.json) {
      io.out(
        `${JSON.stringify({
          step: result.final.step,
          steps: config.steps,
          stopped: result.stopped,
          device: result.device,
          seconds,
          stepsPerSecond: ran / seconds,
          finalOptimumFraction: finalFraction,
          reached95: reached,
          randomFraction,
          // The loss normalisers the micro-steps applied (each step's are in its metrics, metrics.jsonl with --out).
          micro: usesMicroSteps(config)
            ? {
                framework: config.framework,
                loss: config.loss,
                gradientAccumulationSteps: config.gradientAccumulationSteps,
                numIterations: config.numIterations,
                normalisers: [...new Set(all.flatMap((m) => m.micro?.normaliser ?? []))],
              }
            : null,
          last: all.at(-1) ?? null,
          transfers: result.transfers ?? null,
          // train --async: the rule, the lag over the run, and the run beside the synchronous one.
          async: result.async ? { ...result.async, comparison } : null,
        })}\n`,
      );
    }
    return result.stopped ? 130 : 0;
  },
};
export default command;
