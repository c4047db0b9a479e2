// `grpo-sandbox layout --sampler NAME` for a framework with a home (src/core/frameworks/): the
// framework's own keys as flags, `--config FILE` in its own format, and each training step's
// prompts per data-parallel rank as its loader and dispatch produce them.
import { overBudget } from '../core/budget.ts';
import { ConfigError } from '../core/errors.ts';
import { frameworkLayoutEstimate, plannedLayout, plannedLower, plannedText } from '../core/frameworks/budget.ts';
import { packedSteps } from '../core/frameworks/packed.ts';
import type { FrameworkHome, FrameworkStep, PackedStep } from '../core/frameworks/types.ts';
import { GROUPING } from './advantages-compare-text.ts';
import type { CliIo } from './io.ts';
import { writeFrameworkConfig } from './config-file.ts';
import { parseFlags, quote } from './flags.ts';
import { frameworkFlagSpec, frameworkSettingsFrom, type FrameworkSettingsReading } from './framework-settings.ts';
import { readSeqlensFile } from './seqlens-file.ts';

/** Steps the text report prints in full; --json has them all. */
const TEXT_STEPS = 4;
/** Ranks a step's text table prints. */
const TEXT_RANKS = 16;
/** Ids or micro-batches a text line lists before it says how many more there are. */
const TEXT_ITEMS = 32;

/** The first TEXT_ITEMS items, then how many more (--json has them all). */
function listed(items: readonly (number | string)[]): string {
  const shown = items.slice(0, TEXT_ITEMS).join(' ');
  return items.length > TEXT_ITEMS ? `${shown} … (${items.length - TEXT_ITEMS} more)` : shown;
}

export function frameworkLayoutHelp(home: FrameworkHome): string {
  const keys = home.keys
    .map((k) => `  --${k.flag.padEnd(30)} ${k.key}${k.key === k.flag ? '' : ''} (default ${JSON.stringify(k.default)}): ${k.about}`)
    .join('\n');
  return `usage: grpo-sandbox layout --sampler ${home.name} [--config FILE] [flags] [--seqlens FILE] [--json]

${home.title} at ${home.pinned.repo} @ ${home.pinned.commit.slice(0, 7)} (${home.pinned.date}): each training step's prompts,
per data-parallel rank, as the framework's loader and dispatch produce them.
  --config FILE                     the run's own config (${home.configFormat}); flags override its values
${home.presets.map((p) => `  --preset ${p.name.padEnd(24)} ${p.about} (${p.source})`).join('\n')}
  --seqlens FILE                    token counts per sample (prompt + completion) in generation order, step after step
  --emit ${home.name.padEnd(26)} instead of the layout, these settings as ${home.title}'s own config (${home.configFormat}), which --config reads back
  --json                            {framework, settings, steps[i].ranks[r], counts, groups, notes, warnings}
The framework's keys (flag, its own key, its shipped default):
${keys}
`;
}

function stepText(s: FrameworkStep, packed: PackedStep | null): string {
  const lines = [`step ${s.step} of epoch ${s.epoch}: prompts ${listed(s.prompts)}`];
  s.ranks.slice(0, TEXT_RANKS).forEach((ids, r) => {
    lines.push(`  rank ${r} (${ids.length}): ${listed(ids)}`);
    if (packed) {
      const mbs = packed.ranks[r] ?? [];
      const tokens = (mb: number[]) => mb.reduce((a, i) => a + (s.seqlens?.[i] ?? 0), 0);
      lines.push(`    ${mbs.length} micro-batches (samples/tokens): ${listed(mbs.map((mb) => `${mb.length}/${tokens(mb)}`))}`);
    }
  });
  if (s.ranks.length > TEXT_RANKS) lines.push(`  … ${s.ranks.length - TEXT_RANKS} more ranks (--json has them all)`);
  return lines.join('\n');
}

function settingsText(home: FrameworkHome, reading: FrameworkSettingsReading): string {
  const given = home.keys.filter((k) => reading.origins[k.flag] !== 'default');
  const lines = given.map((k) => `  ${k.key} = ${JSON.stringify(reading.settings[k.flag])} (${reading.origins[k.flag]})`);
  const rest = home.keys.length - given.length;
  const out = [`settings (key = value (from the config file or a flag)):`, ...lines];
  if (rest) out.push(`  and ${rest} more at ${home.title}'s shipped defaults (--help lists them; --json has every value)`);
  if (reading.config) {
    const { path, read, ignored } = reading.config;
    out.push(
      `--config ${path}: read ${read.length} key${read.length === 1 ? '' : 's'}${read.length ? `: ${read.map((r) => r.key).join(', ')}` : ''}`,
    );
    if (ignored.length)
      out.push(
        `  ignored ${ignored.length} key${ignored.length === 1 ? '' : 's'} the sandbox does not model (they do not change the layout): ${ignored.join(', ')}`,
      );
  }
  return out.join('\n');
}

export async function runFrameworkLayout(home: FrameworkHome, args: string[], io: CliIo): Promise<number> {
  const values = parseFlags(args, frameworkFlagSpec(home)) as Record<string, unknown>;
  if (values.help) {
    io.out(frameworkLayoutHelp(home));
    return 0;
  }
  const reading = frameworkSettingsFrom(home, values);
  if (values.emit !== undefined) {
    if (values.emit !== home.name)
      throw new ConfigError(`--emit writes ${home.title}'s own config: use --emit ${home.name}, got ${quote(String(values.emit))}`);
    const sandbox = home.keys.filter((k) => k.sandbox && reading.origins[k.flag] !== 'default');
    const header = [
      `${home.title} config written by grpo-sandbox layout from these settings (${home.pinned.repo} @ ${home.pinned.commit.slice(0, 7)}).`,
      "Keys at the framework's defaults are left out.",
      ...(sandbox.length
        ? [`Sandbox-only settings (no ${home.title} key): ${sandbox.map((k) => `--${k.flag} ${reading.settings[k.flag]}`).join(' ')}`]
        : []),
    ].join('\n');
    io.out(writeFrameworkConfig(home, home.resolve?.(reading.settings) ?? reading.settings, header));
    return 0;
  }
  // Budget before work: the steps and samples the settings plan, refused in one line when over.
  const plan = plannedLayout(home, reading.settings);
  const tooMuch = overBudget(
    `${home.title}'s layout (${values.json ? 'JSON' : 'text report'}) of ${plannedText(plan)}`,
    frameworkLayoutEstimate(plan),
    plannedLower(plan),
  );
  if (tooMuch) throw tooMuch;
  const seqlens = typeof values.seqlens === 'string' ? readSeqlensFile(values.seqlens) : undefined;
  const layout = home.layout(reading.settings, seqlens);
  if (layout.steps.length === 0)
    throw new ConfigError(`${home.title} trains no step with these settings; give more prompts (--dataset-size) or fewer per step`);
  const packed = packedSteps(home, layout, reading.settings);
  if (values.json) {
    const steps = layout.steps.map((s, i) => ({ ...s, ...(packed[i] ? { microBatches: packed[i] } : {}) }));
    io.out(
      `${JSON.stringify({
        framework: home.name,
        title: home.title,
        pinned: home.pinned,
        settings: reading.settings,
        origins: reading.origins,
        ...(reading.config ? { config: { path: reading.config.path, read: reading.config.read, ignored: reading.config.ignored } } : {}),
        steps,
        counts: layout.counts,
        groups: { scheme: home.advantages[0]!.scheme, groupBy: home.advantages[0]!.groupBy },
        notes: layout.notes,
        warnings: layout.warnings,
      })}\n`,
    );
    return 0;
  }
  const parts = [
    `${home.title} (${home.pinned.repo} @ ${home.pinned.commit.slice(0, 7)}, ${home.pinned.date})`,
    settingsText(home, reading),
    ...layout.warnings.map((w) => `WARNING (printed by ${home.title}): ${w}`),
    'counts:',
    ...layout.counts.map((c) => `  ${c.name} = ${c.value}: ${c.how}`),
    `groups: its default advantage scheme (${home.advantages[0]!.scheme}) ${GROUPING[home.advantages[0]!.groupBy]}`,
    ...layout.steps.slice(0, TEXT_STEPS).map((s, i) => stepText(s, packed[i] ?? null)),
    ...(layout.steps.length > TEXT_STEPS ? [`… ${layout.steps.length - TEXT_STEPS} more steps (--json has them all)`] : []),
    ...layout.notes.map((n) => `note: ${n}`),
  ];
  io.out(`${parts.join('\n')}\n`);
  return 0;
}
