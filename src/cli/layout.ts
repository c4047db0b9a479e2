// `grpo-sandbox layout`: where the k copies of each prompt go, for any sampler and configuration.
import process from 'node:process';
import { layoutStats, type LayoutConfig } from '../core/layout/index.ts';
import { buildLayout } from '../core/samplers/index.ts';
import type { Command } from './commands.ts';
import { parseFlags, type FlagSpec } from './flags.ts';
import { helpLine, layoutConfigFromFlags, layoutFlagSpec, layoutFlagsHelp } from './layout-flags.ts';
import { renderLayout } from './layout-text.ts';

const spec = { ...layoutFlagSpec, json: { type: 'boolean' } } as const satisfies FlagSpec;

const help = () => `usage: grpo-sandbox layout [--preset NAME] [flags] [--json]

Shows where the k copies of each prompt go: one table per step (ranks × slots of prompt ids),
each prompt's copies with their gathered positions, the three regroupings, and the statistics.
Flags override the preset (default: seed-000).

${layoutFlagsHelp()}${helpLine(
  '--json',
  'one JSON object {sampler, config, steps, stats}; stats.counts holds generation batches, micro-steps and optimizerSteps per epoch and in total',
)}
A flag the chosen sampler does not read is refused (exit 2), never silently ignored.
`;

/** The configuration the flags ask for: a preset (or the default) with the given flags applied. */
export function configFromFlags(args: string[]): { config: LayoutConfig; preset?: string; json: boolean; help: boolean } {
  const v = parseFlags(args, spec);
  return { ...layoutConfigFromFlags(v), json: v.json === true, help: v.help === true };
}

const layoutCommand: Command = {
  summary: 'where the k copies of each prompt go (samplers, gathers, regrouping, statistics)',
  async run(args) {
    const { config, preset, json, help: wantsHelp } = configFromFlags(args);
    if (wantsHelp) {
      process.stdout.write(help());
      return 0;
    }
    const layout = buildLayout(config);
    const stats = layoutStats(layout);
    if (json) {
      const steps = layout.steps.map(({ epoch, step, ranks }) => ({ epoch, step, ranks }));
      process.stdout.write(`${JSON.stringify({ sampler: layout.sampler, config: layout.config, steps, stats })}\n`);
    } else {
      process.stdout.write(renderLayout(layout, stats, preset));
    }
    return 0;
  },
};

export default layoutCommand;
