// One framework's packer on one step of synthetic token counts, in its own process (bench/packing.bench.ts
// runs it under a time limit). Prints one JSON line: { ms (wall), cpuMs (the process's CPU time), microBatchesPerRank }
// or { error }.
// HOME may also be 'verl': verl's RayPPOTrainer._balance_batch (Karmarkar–Karp over the ranks), balanceBatchOrder.
// usage: node --import tsx bench/packing-one.ts HOME SAMPLES RANKS
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FRAMEWORK_HOMES } from '../src/core/frameworks/index.ts';
import { defaultSettings } from '../src/core/frameworks/settings.ts';
import type { FrameworkSettings, PackerDef } from '../src/core/frameworks/types.ts';
import { balanceBatchOrder } from '../src/core/frameworks/verl/balance.ts';
import { Mt19937, randint } from '../src/core/rng/index.ts';

export const RANKS = 64;
export const SIZES = [10_240, 102_400];
/** Not a home with a packer: verl's batch balancing (the order of a step's samples over the ranks). */
export const VERL = 'verl';
const root = fileURLToPath(new URL('..', import.meta.url));

/** Token counts of one step: torch.randint(16, 513) on MT19937(seed), within every home's default length limits. */
export function syntheticSeqlens(samples: number, seed = 0): number[] {
  return Array.from(randint(new Mt19937(seed), 16, 513, samples));
}

/**
 * Each home's settings for one step of `samples` = prompts × k 8 over `ranks` data-parallel ranks, with its
 * token-budget packing switched on where a switch turns it on (the budgets: 16,384 tokens a micro-batch).
 */
export function packingSettings(name: string, samples: number, ranks: number): FrameworkSettings {
  const prompts = samples / 8;
  const common: FrameworkSettings = { ranks, 'train-batch-size': prompts, k: 8, 'dataset-size': prompts, epochs: 1 };
  const own: Record<string, FrameworkSettings> = {
    'nemo-rl': { 'train-global-batch-size': samples },
    easyr1: { 'n-gpus-per-node': ranks, nnodes: 1 },
    skyrl: { 'policy-num-gpus-per-node': ranks, 'max-tokens-per-microbatch': 16384 },
    slime: { 'actor-num-gpus-per-node': ranks, 'global-batch-size': samples, 'use-dynamic-batch-size': true, 'max-tokens-per-gpu': 16384 },
    areal: { 'max-tokens-per-mb': 16384 },
    roll: { 'use-dynamic-batching-in-train': true, 'max-tokens-per-microbatch-in-train': 16384 },
    openrlhf: { 'dynamic-batch-enable': true, 'train-global-batch-size': samples },
    'open-instruct': {},
    'prime-rl': { 'num-train-gpus': ranks },
  };
  return { ...common, ...(own[name] ?? {}) };
}

/** A home's settings for the bench: its defaults, packingSettings, then its resolver (verl: the ranks alone). */
export function benchSettings(name: string, samples: number, ranks: number): FrameworkSettings {
  if (name === VERL) return { ranks };
  const home = FRAMEWORK_HOMES.find((h) => h.name === name)!;
  const settings: FrameworkSettings = { ...defaultSettings(home.keys), ...packingSettings(name, samples, ranks) };
  return home.resolve ? home.resolve(settings) : settings;
}

export interface PackRun {
  ms?: number;
  cpuMs?: number;
  microBatchesPerRank?: number;
  error?: string;
  timedOut?: boolean;
}

/** One run of this file in its own process, stopped after limitS seconds. */
export function packOnce(home: string, samples: number, limitS: number, ranks = RANKS): PackRun {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'bench/packing-one.ts', home, String(samples), String(ranks)], {
    cwd: root,
    encoding: 'utf8',
    timeout: limitS * 1000,
    maxBuffer: 1 << 20,
  });
  if (res.error || res.signal) return { timedOut: true };
  const line = (res.stdout ?? '').trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as PackRun;
  } catch {
    return { error: `exit ${res.status}: ${(res.stderr ?? '').trim().split('\n').at(-1)?.slice(0, 200) ?? ''}` };
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, samplesText, ranksText] = process.argv.slice(2);
  const samples = Number(samplesText);
  const ranks = Number(ranksText);
  const settings = benchSettings(name!, samples, ranks);
  const packing = name === VERL ? null : (FRAMEWORK_HOMES.find((h) => h.name === name)!.packing as PackerDef);
  const seqlens = syntheticSeqlens(samples);
  try {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    // verl: _balance_batch reorders the step over the ranks and makes no micro-batches: the count is samples per rank.
    const microBatchesPerRank = packing
      ? packing.pack(seqlens, settings).microBatchesPerRank
      : balanceBatchOrder(seqlens, ranks).length / ranks;
    const cpu = process.cpuUsage(cpu0);
    const ms = performance.now() - t0;
    // CPU time of the whole process (the packer, and the garbage collector's helper threads) while it packs.
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(JSON.stringify({ ms, cpuMs, microBatchesPerRank, enabled: packing?.enabled?.(settings) ?? true }));
  } catch (err) {
    console.log(JSON.stringify({ error: (err as Error).message.slice(0, 300) }));
  }
}
