// One framework home's `layout --sampler NAME` or `steps --framework NAME` in this process, for the per-sample costs
// of src/core/frameworks/budget.ts's estimate: a warm-up run at 1/16 of the size, then the measured run, printed as
// one JSON line { samples, steps (planned), cpuMs, peakRssMb, outputMb }. The settings are bench/packing-one.ts's
// (one step of `samples` over 64 ranks, token-budget packing on where a switch turns it on), or with --plain the
// home's defaults at the same size (no packing switched on).
// usage: node --import tsx bench/framework-budget-one.ts HOME layout|steps json|text SAMPLES [--plain]
import { main } from '../src/cli/main.ts';
import { memoryIo } from '../src/cli/io.ts';
import { plannedLayout } from '../src/core/frameworks/budget.ts';
import { FRAMEWORK_HOMES } from '../src/core/frameworks/index.ts';
import { defaultSettings } from '../src/core/frameworks/settings.ts';
import type { FrameworkSettings } from '../src/core/frameworks/types.ts';
import { packingSettings } from './packing-one.ts';

export function budgetArgs(name: string, command: string, output: string, samples: number, plain: boolean): string[] {
  const settings: FrameworkSettings = plain
    ? { 'train-batch-size': 16, k: 8, 'dataset-size': samples / 8, epochs: 1 }
    : packingSettings(name, samples, 64);
  const flags = Object.entries(settings).flatMap(([flag, value]) => [`--${flag}`, String(value)]);
  return [
    command,
    command === 'layout' ? '--sampler' : '--framework',
    name,
    ...flags,
    ...(command === 'steps' ? ['--steps', '1'] : []),
    ...(output === 'json' ? ['--json'] : []),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, command, output, samplesText, plainFlag] = process.argv.slice(2);
  const samples = Number(samplesText);
  const plain = plainFlag === '--plain';
  const home = FRAMEWORK_HOMES.find((h) => h.name === name)!;
  const warm = memoryIo();
  await main(budgetArgs(name!, command!, output!, samples / 16, plain), warm);
  const io = memoryIo();
  const args = budgetArgs(name!, command!, output!, samples, plain);
  const cpu0 = process.cpuUsage();
  const status = await main(args, io);
  const cpu = process.cpuUsage(cpu0);
  const settings = {
    ...defaultSettings(home.keys),
    ...Object.fromEntries(Object.entries(plain ? {} : packingSettings(name!, samples, 64))),
  };
  console.log(
    JSON.stringify({
      status,
      error: status ? io.stderr.slice(0, 200) : undefined,
      samples,
      planned: status
        ? undefined
        : plannedLayout(home, { ...settings, ...(plain ? { 'train-batch-size': 16, k: 8, 'dataset-size': samples / 8, epochs: 1 } : {}) }),
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      outputMb: io.stdout.length / 2 ** 20,
    }),
  );
}
