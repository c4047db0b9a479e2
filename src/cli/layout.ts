// `grpo-sandbox layout`: where the k copies of each prompt go, for any sampler and configuration.
import { ConfigError } from '../core/errors.ts';
import { layoutStats, type LayoutConfig, type SamplerName } from '../core/layout/index.ts';
import { presetNames, presets } from '../core/presets.ts';
import { overBudget } from '../core/budget.ts';
import { layoutEstimate } from '../core/samplers/estimate.ts';
import { buildLayout, defaultConfig, samplerNames, validateConfig } from '../core/samplers/index.ts';
import type { Command } from './commands.ts';
import { choiceFlag, intFlag, ownEntry, parseFlags, quote } from './flags.ts';
import { renderLayout } from './layout-text.ts';

const spec = {
  sampler: { type: 'string' },
  ranks: { type: 'string' },
  batch: { type: 'string' },
  k: { type: 'string' },
  'batches-per-epoch': { type: 'string' },
  epochs: { type: 'string' },
  'dataset-size': { type: 'string' },
  seed: { type: 'string' },
  'steps-per-generation': { type: 'string' },
  'num-iterations': { type: 'string' },
  preset: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const help = `usage: grpo-sandbox layout [--preset NAME] [flags] [--json]

Shows where the k copies of each prompt go: one table per step (ranks × slots of prompt ids),
each prompt's copies with their gathered positions, the three regroupings, and the statistics.
Flags override the preset (default: seed-000).

  --preset NAME              ${presetNames.join(', ')}
  --sampler NAME             ${samplerNames.join(', ')}
  --ranks W                  data-parallel ranks
  --batch B                  samples (completions) per rank per step (TRL: per_device_train_batch_size)
  --k K                      copies per prompt (TRL: num_generations)
  --batches-per-epoch N      steps per epoch (flow-grpo, group-distributed; least for flow-grpo-lcm; derived otherwise)
  --epochs E
  --dataset-size D           prompts in the dataset (ids 0 … D−1)
  --seed S                   PyTorch generator seed (low 32 bits used)
  --steps-per-generation S   TRL only
  --num-iterations MU        TRL only
  --json                     one JSON object {sampler, config, steps, stats}
`;

/** --seed: a safe integer; a larger PyTorch seed gets a pointer to its low 32 bits, which are all PyTorch uses. */
function seedFlag(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (/^-?\d+$/.test(text) && !Number.isSafeInteger(Number(text))) {
    const big = BigInt(text);
    const inRange = big >= -(1n << 63n) && big < 1n << 64n;
    throw new ConfigError(
      `--seed ${text} is beyond ±(2^53−1), which the sandbox keeps as a plain number` +
        (inRange
          ? `; PyTorch seeds MT19937 with the low 32 bits only, so --seed ${BigInt.asUintN(32, big)} gives the same stream`
          : `, and outside PyTorch's [-2^63, 2^64) too`),
    );
  }
  return intFlag(value, 'seed', -Number.MAX_SAFE_INTEGER);
}

/** The configuration the flags ask for: a preset (or the default) with the given flags applied. */
export function configFromFlags(args: string[]): { config: LayoutConfig; preset?: string; json: boolean; help: boolean } {
  const v = parseFlags(args, spec);
  const preset = v.preset;
  const chosen = preset === undefined ? undefined : ownEntry(presets, preset);
  if (preset !== undefined && !chosen) {
    throw new ConfigError(`unknown preset ${quote(preset)}; presets: ${presetNames.join(', ')}`);
  }
  const config: LayoutConfig = { ...(chosen ? chosen.config : defaultConfig) };
  const sampler = choiceFlag<SamplerName>(v.sampler, 'sampler', samplerNames);
  if (sampler !== undefined) config.sampler = sampler;
  const ints: [keyof typeof spec, keyof LayoutConfig, number][] = [
    ['ranks', 'ranks', 1],
    ['batch', 'batch', 1],
    ['k', 'k', 1],
    ['batches-per-epoch', 'batchesPerEpoch', 1],
    ['epochs', 'epochs', 1],
    ['dataset-size', 'datasetSize', 1],
    ['steps-per-generation', 'stepsPerGeneration', 1],
    ['num-iterations', 'numIterations', 1],
  ];
  for (const [flag, field, min] of ints) {
    const n = intFlag(v[flag], flag, min);
    if (n !== undefined) (config as unknown as Record<string, unknown>)[field] = n;
  }
  const seed = seedFlag(v.seed);
  if (seed !== undefined) config.seed = seed;
  return { config, preset, json: v.json === true, help: v.help === true };
}

const layoutCommand: Command = {
  summary: 'where the k copies of each prompt go (samplers, gathers, regrouping, statistics)',
  async run(args, io) {
    const { config, preset, json, help: wantsHelp } = configFromFlags(args);
    if (wantsHelp) {
      io.out(help);
      return 0;
    }
    const invalid = validateConfig(config);
    if (invalid) throw invalid;
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
      const steps = layout.steps.map(({ epoch, step, ranks }) => ({ epoch, step, ranks }));
      io.out(`${JSON.stringify({ sampler: layout.sampler, config: layout.config, steps, stats })}\n`);
    } else {
      io.out(renderLayout(layout, stats, preset));
    }
    return 0;
  },
};

export default layoutCommand;
