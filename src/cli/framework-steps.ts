// `grpo-sandbox steps --framework NAME` for a framework home with a trainer (src/core/frameworks/<name>/trainer.ts):
// the home's keys as flags, `--config` / `--preset` as for `layout`, and per optimizer step each rank's micro-batches,
// their normalisers as the framework's loss code computes them, and each completion's weight in the applied update.
import { readFileSync, statSync } from 'node:fs';
import { overBudget } from '../core/budget.ts';
import { ConfigError } from '../core/errors.ts';
import { frameworkStepsEstimate, frameworkStepsRows, plannedLayout, plannedLower, plannedText } from '../core/frameworks/budget.ts';
import { checkValue } from '../core/frameworks/settings.ts';
import { TRAINED_HOMES, TRAINER_HOMES } from '../core/frameworks/index.ts';
import {
  defaultCompletionNote,
  defaultCompletionTokens,
  num,
  relativeWeights,
  stepTokens,
  trainerFindings,
  type TrainerRun,
} from '../core/frameworks/trainer.ts';
import type { FrameworkHome, FrameworkStep, TrainerDef, TrainerStep } from '../core/frameworks/types.ts';
import { MAX_SEQLEN } from '../core/samplers/index.ts';
import { parseLengths } from '../core/steps/lengths.ts';
import { intFlag, parseFlags, quote, type FlagSpec } from './flags.ts';
import { frameworkFlagSpec, frameworkSettingsFrom } from './framework-settings.ts';
import { MAX_INPUT_BYTES, bytesText, type CliIo } from './io.ts';
import { readSeqlensFile } from './seqlens-file.ts';

/** Training steps shown when --steps is not given. */
const DEFAULT_STEPS = 2;
/** Ranks, micro-batches per rank, and completions a text line prints before saying how many more (--json has them all). */
const TEXT_RANKS = 8;
const TEXT_MICRO_BATCHES = 8;
const TEXT_ITEMS = 16;

/** The flags of `steps` for a home: the home's (as `layout` reads them, less --emit) and the trainer's own. */
function stepsFlagSpec(home: FrameworkHome): FlagSpec {
  const { emit: _, ...spec } = frameworkFlagSpec(home);
  return { ...spec, lengths: { type: 'string' }, loss: { type: 'string' }, steps: { type: 'string' } };
}

const withTrainer = () => TRAINED_HOMES.map((h) => h.name);

/** A trainer-only home (TRAINER_HOMES) named by `--framework NAME`, which `steps` runs like the nine. */
export function trainerHomeNamed(args: readonly string[]): FrameworkHome | undefined {
  for (let i = 0; i < args.length; i++) {
    const m = /^--framework(?:=(.*))?$/.exec(args[i]!);
    const home = m ? TRAINER_HOMES.find((h) => h.name === (m[1] ?? args[i + 1])) : undefined;
    if (home) return home;
  }
  return undefined;
}

export function frameworkStepsHelp(home: FrameworkHome, trainer: TrainerDef): string {
  const keys = home.keys.map((k) => `  --${k.flag.padEnd(30)} ${k.key} (default ${JSON.stringify(k.default)}): ${k.about}`).join('\n');
  return `usage: grpo-sandbox steps --framework ${home.name} [--config FILE | --preset NAME] [flags]
         [--seqlens FILE] [--lengths FILE] [--loss MODE] [--steps N] [--json]

${home.title} at ${home.pinned.repo} @ ${home.pinned.commit.slice(0, 7)} (${home.pinned.date}): per optimizer step, each rank's
micro-batches, each micro-batch's loss normaliser as the framework computes it, and each completion's weight in the applied update,
relative to the global token mean of the optimizer step (weight × the step's completion tokens on all ranks; 1 = every token the same).
${trainer.about}
  --config FILE                     the run's own config (${home.configFormat}); flags override its values
${home.presets.map((p) => `  --preset ${p.name.padEnd(24)} ${p.about} (${p.source})`).join('\n')}
  --seqlens FILE                    token counts per sample (prompt + completion) in generation order, step after step (as layout)
  --lengths FILE                    completion (loss-mask) tokens per sample in generation order, step after step; default: seeded synthetic ones
  --loss MODE                       ${trainer.losses.join(' | ')} (default ${trainer.losses[0]}${trainer.lossFlag ? `; the same as --${trainer.lossFlag}` : ''})
  --steps N                         training steps shown (default ${DEFAULT_STEPS})
  --json                            {framework, loss, settings, steps[i].microBatches[j] {rank, completions, tokens, padding,
                                    normaliser, policyVersion, trainVersion, weights, relativeWeights}, findings, notes}
The framework's keys (flag, its own key, its shipped default):
${keys}
`;
}

/** Completion tokens from `--lengths FILE`: whole numbers, 0 … MAX_SEQLEN. */
function readLengthsFile(path: string): number[] {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new ConfigError(`--lengths ${quote(path)} is not a regular file`);
    size = st.size;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`--lengths ${quote(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (size > MAX_INPUT_BYTES)
    throw new ConfigError(`--lengths ${quote(path)} is ${bytesText(size)}, above the input limit of ${bytesText(MAX_INPUT_BYTES)}`);
  return parseLengths(readFileSync(path, 'utf8'), quote(path), MAX_SEQLEN);
}

/** Samples of a training step in generation order. */
function sampleCount(step: FrameworkStep, k: number): number {
  let most = -1;
  for (const rank of step.sources) for (const i of rank) most = Math.max(most, i);
  return Math.max(step.seqlens?.length ?? 0, step.prompts.length * k, most + 1);
}

/** Each shown training step's completion tokens: from --lengths (checked against seqlens), else seeded. */
function completionTokensOf(steps: readonly FrameworkStep[], k: number, seed: number, lengths?: readonly number[]): number[][] {
  const counts = steps.map((s) => sampleCount(s, k));
  if (!lengths) {
    const seqlens = steps.every((s) => s.seqlens)
      ? steps.flatMap((s, t) => Array.from({ length: counts[t]! }, (_, i) => s.seqlens![i] ?? Number.POSITIVE_INFINITY))
      : undefined;
    const all = defaultCompletionTokens(
      seed,
      counts.reduce((a, b) => a + b, 0),
      seqlens,
    );
    let drawn = 0;
    return counts.map((n) => all.slice(drawn, (drawn += n)));
  }
  const need = counts.reduce((a, b) => a + b, 0);
  if (lengths.length < need)
    throw new ConfigError(
      `--lengths holds ${lengths.length} completion token counts; ${steps.length} training steps need ${need} (or show fewer with --steps)`,
    );
  let at = 0;
  return steps.map((s, t) => {
    const mine = lengths.slice(at, at + counts[t]!);
    const over = s.seqlens ? mine.findIndex((n, i) => n > s.seqlens![i]!) : -1;
    if (over >= 0)
      throw new ConfigError(
        `--lengths: sample ${over} of training step ${t} has ${mine[over]} completion tokens, more than its seqlen ${s.seqlens![over]} (prompt + completion)`,
      );
    at += counts[t]!;
    return mine;
  });
}

function listed(items: readonly string[]): string {
  const shown = items.slice(0, TEXT_ITEMS).join(' ');
  return items.length > TEXT_ITEMS ? `${shown} … (${items.length - TEXT_ITEMS} more)` : shown;
}

function stepText(step: TrainerStep, training: FrameworkStep, t: number): string {
  const total = stepTokens(step);
  const rel = relativeWeights(step);
  const mbs = step.microBatches[0];
  const head =
    `optimizer step ${step.index} (training step ${t}: step ${training.step} of epoch ${training.epoch}; ` +
    (mbs ? `generated by policy ${mbs.policyVersion}, trains policy ${mbs.trainVersion}` : 'no micro-batches') +
    `): ${total} completion tokens on all ranks`;
  const lines = [head];
  const ranks = [...new Set(step.microBatches.map((m) => m.rank))].sort((a, b) => a - b);
  for (const rank of ranks.slice(0, TEXT_RANKS)) {
    const mine = step.microBatches.map((mb, j) => ({ mb, j })).filter(({ mb }) => mb.rank === rank);
    lines.push(`  rank ${rank}: ${mine.length} micro-batch${mine.length === 1 ? '' : 'es'}`);
    for (const [m, { mb, j }] of mine.slice(0, TEXT_MICRO_BATCHES).entries()) {
      lines.push(`    mb ${m}: ${mb.samples.length} samples, ${mb.tokens} tokens, ${mb.padding} padding; normaliser ${mb.normaliser}`);
      if (mb.samples.length) lines.push(`      sample:weight ${listed(mb.samples.map((s, i) => `${s}:${num(rel[j]![i]!)}`))}`);
      else lines.push('      padding micro-batch: no samples');
    }
    if (mine.length > TEXT_MICRO_BATCHES) lines.push(`    … ${mine.length - TEXT_MICRO_BATCHES} more micro-batches (--json has them all)`);
  }
  if (ranks.length > TEXT_RANKS) lines.push(`  … ${ranks.length - TEXT_RANKS} more ranks (--json has them all)`);
  for (const d of step.dropped ?? []) lines.push(`  DROPPED sample ${d.sample} (${d.tokens} tokens): ${d.why}; it trains nowhere`);
  return lines.join('\n');
}

export async function runFrameworkSteps(home: FrameworkHome, args: string[], io: CliIo): Promise<number> {
  const trainer = home.trainer;
  if (!trainer)
    throw new ConfigError(
      `steps --framework ${home.name}: ${home.title} has no trainer model yet; these homes have one: ${withTrainer().join(', ') || 'none yet'}`,
    );
  const values = parseFlags(args, stepsFlagSpec(home)) as Record<string, unknown>;
  if (values.help) {
    io.out(frameworkStepsHelp(home, trainer));
    return 0;
  }
  const reading = frameworkSettingsFrom(home, values);
  const settings = reading.settings;
  const given = typeof values.loss === 'string' ? values.loss : undefined;
  const loss = given ?? (trainer.lossFlag ? String(settings[trainer.lossFlag] ?? trainer.losses[0]) : trainer.losses[0]!);
  if (!trainer.losses.includes(loss))
    throw new ConfigError(`--loss ${quote(loss)} is not one of ${home.title}'s: ${trainer.losses.join(', ')}`);
  const lossKey = home.keys.find((k) => k.flag === trainer.lossFlag);
  if (lossKey) settings[lossKey.flag] = checkValue(lossKey, loss, '--loss');
  const shown = intFlag(values.steps as string | undefined, 'steps', 1) ?? DEFAULT_STEPS;
  // Budget before work: the whole layout (to find the shown steps) and the shown steps' rows, refused in one line when over.
  const plan = plannedLayout(home, settings);
  const rows = frameworkStepsRows(plan, shown);
  const passes = plan.passes ?? 1;
  const perStep = plan.steps ? Math.ceil(plan.samples / plan.steps) : 0;
  const tooMuch = overBudget(
    `${home.title}'s steps (${values.json ? 'JSON' : 'text report'}) over a layout of ${plannedText(plan)}, ` +
      `${Math.min(shown, plan.steps)} shown × ${perStep} samples${passes > 1 ? ` × ${passes} passes` : ''} = ${rows} rows`,
    frameworkStepsEstimate(plan, shown),
    `${plannedLower(plan)}, or --steps`,
  );
  if (tooMuch) throw tooMuch;
  const seqlens = typeof values.seqlens === 'string' ? readSeqlensFile(values.seqlens) : undefined;
  const lengths = typeof values.lengths === 'string' ? readLengthsFile(values.lengths) : undefined;
  const layout = home.layout(settings, seqlens);
  if (layout.steps.length === 0)
    throw new ConfigError(`${home.title} trains no step with these settings; give more prompts (--dataset-size) or fewer per step`);
  const training = layout.steps.slice(0, shown);
  const k = Number(settings.k ?? 1);
  const seed = Number(settings.seed ?? 0);
  const tokens = completionTokensOf(training, Number.isSafeInteger(k) && k > 0 ? k : 1, seed, lengths);
  const steps: TrainerStep[] = [];
  const stepOf: number[] = [];
  training.forEach((s, t) => {
    const made = trainer.optimizerSteps(s, tokens[t]!, settings, loss, steps.length);
    for (const m of made) {
      steps.push(m);
      stepOf.push(t);
    }
  });
  const run: TrainerRun = { steps, completionTokens: tokens, stepOf, settings, loss };
  const findings = trainerFindings(trainer, run);
  const notes = [
    ...(lengths
      ? [`Completion tokens: --lengths ${quote(String(values.lengths))}, in turn.`]
      : [defaultCompletionNote(seed, !!training[0]?.seqlens)]),
    `Weights are relative to the global token mean of each optimizer step: weight × the step's completion tokens on all ranks (1 = every token the same).`,
  ];
  if (values.json) {
    io.out(
      `${JSON.stringify({
        framework: home.name,
        title: home.title,
        pinned: home.pinned,
        loss,
        about: trainer.about,
        settings,
        origins: reading.origins,
        ...(reading.config ? { config: { path: reading.config.path, read: reading.config.read, ignored: reading.config.ignored } } : {}),
        trainingSteps: training.map((s, t) => ({ epoch: s.epoch, step: s.step, prompts: s.prompts, completionTokens: tokens[t] })),
        steps: steps.map((s, j) => {
          const rel = relativeWeights(s);
          return {
            index: s.index,
            trainingStep: stepOf[j],
            tokens: stepTokens(s),
            microBatches: s.microBatches.map(({ samples, ...mb }, m) => ({ ...mb, completions: samples, relativeWeights: rel[m] })),
            ...(s.dropped ? { dropped: s.dropped } : {}),
          };
        }),
        findings,
        notes,
      })}\n`,
    );
    return 0;
  }
  const parts = [
    `${home.title} (${home.pinned.repo} @ ${home.pinned.commit.slice(0, 7)}, ${home.pinned.date}), ` +
      `loss ${loss}${trainer.lossFlag ? ` (--${trainer.lossFlag})` : ''}`,
    trainer.about,
    ...steps.map((s, j) => stepText(s, training[stepOf[j]!]!, stepOf[j]!)),
    ...findings.map((f) => `finding: ${f}`),
    ...notes.map((n) => `note: ${n}`),
  ];
  io.out(`${parts.join('\n')}\n`);
  return 0;
}
