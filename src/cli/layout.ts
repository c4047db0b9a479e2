// `grpo-sandbox layout`: where the k copies of each prompt go, for any sampler and configuration.
import { overBudget } from '../core/budget.ts';
import { layoutStats, type LayoutConfig } from '../core/layout/index.ts';
import { layoutEstimate } from '../core/samplers/estimate.ts';
import { EMIT_TARGETS, emitConfig, type EmitTarget } from '../core/bridge/emit.ts';
import { FRAMEWORK_HOMES, frameworkHome } from '../core/frameworks/index.ts';
import { buildLayout, validateConfig } from '../core/samplers/index.ts';
import type { Command } from './commands.ts';
import { renderEmitted } from './emit-text.ts';
import { runFrameworkLayout } from './framework-layout.ts';
import { choiceFlag, parseFlags, type FlagSpec } from './flags.ts';
import { helpLine, layoutConfigFromFlags, layoutFlagSpec, layoutFlagsHelp } from './layout-flags.ts';
import { renderLayout } from './layout-text.ts';

const spec = { ...layoutFlagSpec, json: { type: 'boolean' }, emit: { type: 'string' } } as const satisfies FlagSpec;

const help = () => `usage: grpo-sandbox layout [--preset NAME] [flags] [--json]

Shows where the k copies of each prompt go: one table per step (ranks × slots of prompt ids),
each prompt's copies with their gathered positions, the three regroupings, and the statistics.
Flags override the preset (default: seed-000).

${layoutFlagsHelp()}${helpLine(
  '--json',
  'one JSON object {sampler, config, steps, stats}; stats.counts holds generation batches, micro-steps and optimizerSteps per epoch and in total',
)}${helpLine(
  '--emit FRAMEWORK',
  `instead of the layout, the ${EMIT_TARGETS.join(' | ')} configuration equivalent to these settings: ` +
    'each value with its origin, the version targeted, and what the framework cannot express',
)}
A flag the chosen sampler does not read is refused (exit 2), never silently ignored.
`;

/** The configuration the flags ask for: a preset (or the default) with the given flags applied. */
export function configFromFlags(args: string[]): {
  config: LayoutConfig;
  preset?: string;
  json: boolean;
  help: boolean;
  emit?: EmitTarget;
} {
  const v = parseFlags(args, spec);
  const emit = choiceFlag<EmitTarget>(v.emit as string | undefined, 'emit', EMIT_TARGETS);
  return { ...layoutConfigFromFlags(v), json: v.json === true, help: v.help === true, emit };
}

/** The framework home `--sampler` or `--framework` names (src/core/frameworks), or whose example `--preset` names, if any. */
export function homeNamed(args: readonly string[]) {
  for (let i = 0; i < args.length; i++) {
    const m = /^--(sampler|framework|preset)(?:=(.*))?$/.exec(args[i]!);
    if (!m) continue;
    const value = m[2] ?? args[i + 1] ?? '';
    const home = m[1] === 'preset' ? FRAMEWORK_HOMES.find((h) => h.presets.some((p) => p.name === value)) : frameworkHome(value);
    if (home) return home;
  }
  return undefined;
}

const layoutCommand: Command = {
  summary: 'where the k copies of each prompt go (samplers, gathers, regrouping, statistics)',
  async run(args, io) {
    const home = homeNamed(args);
    if (home) return runFrameworkLayout(home, args, io);
    const { config, preset, json, help: wantsHelp, emit } = configFromFlags(args);
    if (wantsHelp) {
      io.out(help());
      return 0;
    }
    const invalid = validateConfig(config);
    if (invalid) throw invalid;
    if (emit) {
      const emitted = emitConfig(config, emit);
      io.out(json ? `${JSON.stringify(emitted)}\n` : renderEmitted(emitted));
      return 0;
    }
    // Budget before work: refuse in one line instead of running out of memory or time.
    const tooMuch = overBudget(
      `this layout's ${json ? 'JSON' : 'text report'}`,
      layoutEstimate(config, json ? 'json' : 'text'),
      `--epochs, --batches-per-epoch (or --dataset-size), --ranks or --batch${json ? '' : ', or use --json'}`,
    );
    if (tooMuch) throw tooMuch;
    const layout = buildLayout(config);
    const stats = layoutStats(layout);
    if (json) {
      // verl's steps also carry each sample's token count (generation order) and the balanced dispatch order.
      const steps = layout.steps.map(({ epoch, step, ranks, seqlens, order }) => ({
        epoch,
        step,
        ranks,
        ...(seqlens ? { seqlens, order } : {}),
      }));
      io.out(`${JSON.stringify({ sampler: layout.sampler, config: layout.config, steps, stats })}\n`);
    } else {
      io.out(renderLayout(layout, stats, preset));
    }
    return 0;
  },
};

export default layoutCommand;
