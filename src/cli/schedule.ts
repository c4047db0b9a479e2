// `grpo-sandbox schedule`: how the expanded batch (batch × k configurations) runs on the ranks
// under each execution scheme of seed-001, as Gantt charts, a comparison table, JSON or an HTML page.
import { writeFileSync } from 'node:fs';
import { overBudget, scheduleEstimate } from '../core/budget.ts';
import { ConfigError } from '../core/errors.ts';
import {
  SCHEMES,
  schedulePresetNames,
  schedulePresets,
  simulateSchedules,
  type ScheduleConfig,
  type SchemeName,
} from '../core/schedule/index.ts';
import type { Command } from './commands.ts';
import { choiceFlag, intFlag, ownEntry, parseFlags, quote } from './flags.ts';
import { renderScheduleHtml } from './schedule-html.ts';
import { loadPolicy } from './schedule-policy.ts';
import { renderSchedule } from './schedule-text.ts';

const spec = {
  preset: { type: 'string' },
  ranks: { type: 'string' },
  batch: { type: 'string' },
  k: { type: 'string' },
  latency: { type: 'string' },
  'config-time': { type: 'string' },
  policy: { type: 'string' },
  seed: { type: 'string' },
  alpha: { type: 'string' },
  'max-batch': { type: 'string' },
  'gather-cost': { type: 'string' },
  schemes: { type: 'string' },
  width: { type: 'string' },
  json: { type: 'boolean' },
  html: { type: 'string' },
} as const;

const help = `usage: grpo-sandbox schedule [--preset seed-001] [flags] [--json] [--html FILE]

Simulates how the expanded batch (batch × k configurations) runs on the ranks under five schemes
and draws each as a Gantt chart (ranks × time) with a comparison table. Default: seed-001.

  --preset NAME         ${schedulePresetNames.join(', ')} (flags override it)
  --ranks W             GPUs (data-parallel ranks)
  --batch B             samples (inputs) in the step; sample s belongs to rank s mod W
  --k K                 group size: configurations per sample (num_generations)
  --latency MODEL       constant (every configuration takes T) or controller (the seed-003
                        controller's prefill latency, src/core/env/controller.ts, of
                        configurations drawn from --policy)
  --config-time MS      constant model: T in milliseconds (default: times are shown in units of T)
  --policy P            controller model: uniform (default); a \`grpo-sandbox train\` run (its --out
                        directory or its checkpoint.json): the trained controller on --batch
                        prompts of its task; or a JSON file of per-head probability tables
                        {"tier": [3], "insertion": [5], "topK": [5] or [5][5], "knob3": [16] or
                        [5][16]} (stage-2 heads per insertion position); implies --latency controller
  --seed S              seed of the draws from the policy (PyTorch's CPU generator) and of the
                        trained controller's prompts (default 0)
  --alpha A             batching: b configurations take T·(A + (1−A)·b), A in [0, 1] (default 0)
  --max-batch N|none    memory cap on the configurations in one launch (default none)
  --gather-cost G       spread's all-gather, in the latency unit (default 10% of the mean latency)
  --schemes LIST        comma-separated subset of ${SCHEMES.join(', ')}
  --width N             columns of the longest chart (default 80)
  --json                one JSON object {config, unit, work, gatherCost, configurations, schemes};
                        each scheme's timeline: per rank, intervals {kind, start, end, configs: ids}
  --html FILE           also write a self-contained page with the charts side by side

Schemes:
  serial-dp          today's code: DataParallel, but a batch-1 loop runs everything on rank 0
  per-rank-serial    DDP: each rank its own samples, configurations one by one
  per-rank-batched   each rank runs each sample's k configurations as one batch (the seed's ideal)
  by-structure       each rank batches its configurations of equal tier, insertion, top-K, blocks
  spread             one sample's configurations round-robin over the ranks, then an all-gather
`;

/** A real number in [min, max]; `undefined` when absent. */
function numberFlag(value: unknown, name: string, min: number, max = Number.POSITIVE_INFINITY): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) throw new ConfigError(`--${name} must be a number, got ${quote(text)}`);
  if (n < min || n > max) {
    // Words for open bounds: "between 5e-324 and Infinity" is what the check means, not what a person reads.
    const range =
      max === Number.POSITIVE_INFINITY
        ? min === Number.MIN_VALUE
          ? 'a positive number'
          : `a number ≥ ${min}`
        : `between ${min} and ${max}`;
    throw new ConfigError(`--${name} must be ${range}, got ${text.length > 40 ? quote(text) : text}`);
  }
  return n;
}

interface ScheduleRequest {
  config: ScheduleConfig;
  preset?: string;
  schemes: SchemeName[];
  width: number;
  json: boolean;
  html?: string;
  help: boolean;
}

/** The request the flags make: a preset (default seed-001) with the flags applied. */
export async function requestFromFlags(args: string[]): Promise<ScheduleRequest> {
  const v = parseFlags(args, spec);
  const preset = v.preset;
  // An own property only: `--preset __proto__` or `constructor` is just an unknown name.
  const chosen = ownEntry(schedulePresets, preset ?? 'seed-001');
  if (!chosen) throw new ConfigError(`unknown preset ${quote(preset!)}; schedule presets: ${schedulePresetNames.join(', ')}`);
  const base = chosen.config;
  const config: ScheduleConfig = { ...base };
  config.ranks = intFlag(v.ranks, 'ranks', 1, 4096) ?? config.ranks;
  config.batch = intFlag(v.batch, 'batch', 1) ?? config.batch;
  config.k = intFlag(v.k, 'k', 1) ?? config.k;
  config.seed = intFlag(v.seed, 'seed', 0, 2 ** 32 - 1) ?? config.seed;
  config.alpha = numberFlag(v.alpha, 'alpha', 0, 1) ?? config.alpha;
  config.gatherCost = numberFlag(v['gather-cost'], 'gather-cost', 0) ?? config.gatherCost;
  if (v['max-batch'] !== undefined) config.maxBatch = v['max-batch'] === 'none' ? null : intFlag(v['max-batch'], 'max-batch', 1)!;
  // Budget before work (and before --policy draws --batch prompts): refuse in one line instead of running out of memory or time.
  const configurations = config.batch * config.k;
  const tooMuch = overBudget(
    `a schedule of batch × k = ${configurations} configurations on ${config.ranks} ranks${v.json ? ' as JSON' : ''}${v.html ? ' with --html' : ''}`,
    scheduleEstimate(configurations, config.ranks, { json: v.json === true, html: v.html !== undefined }),
    '--batch or --k',
  );
  if (tooMuch) throw tooMuch;

  const latency =
    choiceFlag(v.latency, 'latency', ['constant', 'controller'] as const) ?? (v.policy !== undefined ? 'controller' : base.latency.kind);
  if (latency === 'constant') {
    if (v.policy !== undefined)
      throw new ConfigError('--policy draws configurations for --latency controller; drop --latency constant or --policy');
    const ms = numberFlag(v['config-time'], 'config-time', Number.MIN_VALUE);
    config.latency = ms === undefined ? { kind: 'constant', t: 1, unit: 'T' } : { kind: 'constant', t: ms, unit: 'ms' };
  } else {
    if (v['config-time'] !== undefined) {
      throw new ConfigError(
        "--config-time sets the constant model's T; the controller model takes each configuration's prefill latency instead",
      );
    }
    config.latency = { kind: 'controller', policy: await loadPolicy(v.policy ?? 'uniform', config.batch, config.seed) };
  }

  let schemes: SchemeName[] = [...SCHEMES];
  if (v.schemes !== undefined) {
    const names = v.schemes.split(',').map((x) => x.trim());
    const unknown = names.filter((x) => !(SCHEMES as readonly string[]).includes(x));
    if (unknown.length > 0) throw new ConfigError(`unknown scheme ${quote(unknown[0]!)} in --schemes; schemes: ${SCHEMES.join(', ')}`);
    schemes = SCHEMES.filter((x) => names.includes(x));
  }
  const width = intFlag(v.width, 'width', 10, 1000) ?? 80;
  if (v.html === '') throw new ConfigError('--html needs a file name, e.g. --html schedule.html');
  return { config, preset, schemes, width, json: v.json === true, html: v.html, help: v.help === true };
}

/** The JSON form of a config: the policy by name and its tables (a function-free copy). */
function configJson(c: ScheduleConfig) {
  return c.latency.kind === 'constant'
    ? c
    : { ...c, latency: { kind: 'controller', policy: c.latency.policy.name, tables: c.latency.policy.tables } };
}

const scheduleCommand: Command = {
  summary: 'how the batch × k configurations run on the ranks (seed-001): Gantt charts and speed-ups of five schemes',
  async run(args, io) {
    const req = await requestFromFlags(args);
    if (req.help) {
      io.out(help);
      return 0;
    }
    const result = simulateSchedules(req.config);
    const shown = result.schemes.filter((s) => req.schemes.includes(s.scheme));
    const intro = req.preset ? schedulePresets[req.preset]!.description : undefined;
    if (req.html !== undefined) {
      try {
        writeFileSync(req.html, renderScheduleHtml(result, shown, intro));
      } catch (err) {
        throw new ConfigError(
          `--html ${quote(req.html)}: cannot write it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
        );
      }
    }
    if (req.json) {
      const { config, unit, work, gatherCost, configurations } = result;
      // Intervals name their configurations by id (`2-1`), as the charts do.
      const schemes = shown.map((s) => ({
        ...s,
        timeline: s.timeline.map((t) => t.map((i) => ({ ...i, configs: i.configs.map((x) => configurations[x]!.id) }))),
      }));
      io.out(`${JSON.stringify({ config: configJson(config), unit, work, gatherCost, configurations, schemes })}\n`);
    } else {
      io.out(renderSchedule(result, shown, req.width, intro));
    }
    if (req.html !== undefined) io.err(`grpo-sandbox schedule: wrote ${req.html}\n`);
    return 0;
  },
};

export default scheduleCommand;
