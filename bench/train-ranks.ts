// `node --import tsx bench/train-ranks.ts`: what 8 simulated ranks cost against one rank for the same global
// batch, the figure `npm run bench -- train` gives among many rows, alone and alternating: at each size,
// W = 1 then W = 8 (on train's default threads), REPEATS times, each a train() call of
// src/train/run.ts as bench/train-loop.bench.ts makes it (the demo's settings, the same sizes, warm-up and timed
// steps), with the 1-minute load average before each run (other jobs on the machine skew every row), in wall
// time and in the process's CPU time per timed step.
// Env: TRAIN_RANKS_SIZES (comma-separated of demo, 256, 2048; default all three), TRAIN_RANKS_REPEATS (default 2),
// TRAIN_RANKS_THREADS (the 8-rank run's threads; default train's own: one where a rank's products are too small to
// share, else min(ranks, cores)).
import os from 'node:os';
import process from 'node:process';
import { DEFAULT_DIMS, SEED_DIMS, type ControllerDims } from '../src/core/env/controller.ts';
import { DEFAULT_TRAIN } from '../src/train/config.ts';
import { train } from '../src/train/run.ts';

interface Size {
  name: string;
  prompts: number;
  dims: ControllerDims;
  warmup: number;
  timed: number;
}

// bench/train-loop.bench.ts's sizes and step counts (its comments say why these warm-up counts).
const SIZES: Size[] = [
  { name: 'demo', prompts: (DEFAULT_TRAIN.ranks * DEFAULT_TRAIN.batch) / DEFAULT_TRAIN.k, dims: DEFAULT_DIMS, warmup: 10, timed: 60 },
  { name: '256', prompts: 256, dims: DEFAULT_DIMS, warmup: 20, timed: 60 },
  { name: '2048', prompts: 256, dims: SEED_DIMS, warmup: 16, timed: 6 },
];

/**
 * One train() run at `ranks` ranks: the mean wall ms of its timed steps (each step's stepMs), and the process's CPU ms
 * per step over them (every thread: the ranks', the helpers', the main thread's), which other jobs on the machine
 * skew far less. The ranks run several steps per call, whose records arrive together: the CPU time is counted
 * from the end of the call that ran the last warm-up step.
 */
async function measure(size: Size, ranks: number, threads: number | undefined): Promise<{ wall: number; cpu: number }> {
  const global = size.prompts * DEFAULT_TRAIN.k;
  const config = { ...DEFAULT_TRAIN, ranks, batch: global / ranks, steps: size.warmup + size.timed, dims: size.dims };
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let from: { step: number; cpu: number } | null = null;
  let lastCall = { at: 0, step: 0 };
  const result = await train({
    config,
    threads: threads === undefined ? undefined : Math.min(ranks, threads),
    onStep: (record) => {
      const now = performance.now();
      // Records of one call arrive in one go (well under a millisecond apart).
      const sameCall = now - lastCall.at < 1;
      lastCall = { at: now, step: record.step };
      if (from && sameCall && from.step === record.step - 1) from.step = record.step;
      else if (!from && record.step >= size.warmup) from = { step: record.step, cpu: cpuMs() };
    },
  });
  const timed = result.metrics.slice(size.warmup).map((m) => m.stepMs);
  const steps = result.metrics.at(-1)!.step - from!.step;
  return { wall: timed.reduce((s, t) => s + t, 0) / timed.length, cpu: (cpuMs() - from!.cpu) / steps };
}

const wanted = (process.env.TRAIN_RANKS_SIZES ?? 'demo,256,2048').split(',');
const repeats = Number(process.env.TRAIN_RANKS_REPEATS ?? 2);
const threads = process.env.TRAIN_RANKS_THREADS ? Number(process.env.TRAIN_RANKS_THREADS) : undefined;
const load = () => os.loadavg()[0]!.toFixed(1);
console.log(
  `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores; 8 ranks on ${threads ?? "train's default"} thread(s)`,
);
for (const size of SIZES.filter((s) => wanted.includes(s.name))) {
  const label = `${size.prompts}×${DEFAULT_TRAIN.k} dModel ${size.dims.dModel}`;
  for (let i = 0; i < repeats; i++) {
    const l1 = load();
    const one = await measure(size, 1, threads);
    const l8 = load();
    const eight = await measure(size, 8, threads);
    const ms = (m: { wall: number; cpu: number }) => `${m.wall.toFixed(1)} ms/step wall, ${m.cpu.toFixed(1)} CPU`;
    console.log(
      `${label}: W=1 ${ms(one)} (load ${l1}); W=8 ${ms(eight)} (load ${l8}); ` +
        `W=8 ÷ W=1 ${(eight.wall / one.wall).toFixed(2)}× wall, ${(eight.cpu / one.cpu).toFixed(2)}× CPU`,
    );
  }
}
