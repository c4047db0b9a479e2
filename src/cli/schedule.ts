// `grpo-sandbox schedule`: how the expanded batch (batch × k configurations) runs on the ranks
// under each execution scheme of seed-001, as Gantt charts, a comparison table, JSON or an HTML page.
import { writeFileSync } from 'node:fs';
import { overBudget, scheduleEstimate } from '../core/budget.ts';
import { ConfigError } from '../core/errors.ts';
import { schedulePresetNames, schedulePresets, simulateSchedules, type ScheduleConfig, type SchemeName } from '../core/schedule/index.ts';
import { SCHEDULE_SETTINGS, scheduleSettingsFrom } from '../core/schedule/settings.ts';
import type { Command } from './commands.ts';
import { type FlagSpec, intFlag, parseFlags, quote } from './flags.ts';
import { helpLine } from './layout-flags.ts';
import { settingFlagSpec, settingsHelp } from './setting-help.ts';
import { renderScheduleHtml } from './schedule-html.ts';
import { loadPolicy } from './schedule-policy.ts';
import { renderSchedule } from './schedule-text.ts';

const spec = {
  preset: { type: 'string' },
  ...settingFlagSpec(SCHEDULE_SETTINGS),
  width: { type: 'string' },
  json: { type: 'boolean' },
  html: { type: 'string' },
} as const satisfies FlagSpec;

const help = `usage: grpo-sandbox schedule [--preset seed-001] [flags] [--json] [--html FILE]

Simulates how the expanded batch (batch × k configurations) runs on the ranks under five schemes
and draws each as a Gantt chart (ranks × time) with a comparison table. Default: seed-001.

${helpLine('--preset NAME', `${schedulePresetNames.join(', ')} (flags override it)`)}${settingsHelp(SCHEDULE_SETTINGS)}${helpLine(
  '--width N',
  'columns of the longest chart (default 80)',
)}${helpLine(
  '--json',
  "one JSON object {config, unit, work, gatherCost, configurations, schemes}; each scheme's timeline: per rank, intervals {kind, start, end, configs: ids}",
)}${helpLine('--html FILE', 'also write a self-contained page with the charts side by side')}
Schemes:
  serial-dp          today's code: DataParallel, but a batch-1 loop runs everything on rank 0
  per-rank-serial    DDP: each rank its own samples, configurations one by one
  per-rank-batched   each rank runs each sample's k configurations as one batch (the seed's ideal)
  by-structure       each rank batches its configurations of equal tier, insertion, top-K, blocks
  spread             one sample's configurations round-robin over the ranks, then an all-gather
`;

interface ScheduleRequest {
  config: ScheduleConfig;
  preset?: string;
  schemes: SchemeName[];
  width: number;
  json: boolean;
  html?: string;
  help: boolean;
}

/** The request the flags make: the settings (read as the page reads them) and the CLI's output flags. */
export async function requestFromFlags(args: string[]): Promise<ScheduleRequest> {
  const v = parseFlags(args, spec);
  const settings = scheduleSettingsFrom((key) => (v as Record<string, string | undefined>)[key]);
  const { config } = settings;
  // Budget before work (and before --policy draws --batch prompts): refuse in one line instead of running out of memory or time.
  const configurations = config.batch * config.k;
  const tooMuch = overBudget(
    `a schedule of batch × k = ${configurations} configurations on ${config.ranks} ranks${v.json ? ' as JSON' : ''}${v.html ? ' with --html' : ''}`,
    scheduleEstimate(configurations, config.ranks, { json: v.json === true, html: v.html !== undefined }),
    '--batch or --k',
  );
  if (tooMuch) throw tooMuch;
  if (config.latency.kind === 'controller')
    config.latency = { kind: 'controller', policy: await loadPolicy(settings.policy ?? 'uniform', config.batch, config.seed) };
  const width = intFlag(v.width, 'width', 10, 1000) ?? 80;
  if (v.html === '') throw new ConfigError('--html needs a file name, e.g. --html schedule.html');
  return {
    config,
    preset: v.preset,
    schemes: settings.schemes,
    width,
    json: v.json === true,
    html: v.html,
    help: v.help === true,
  };
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
