// `npm run bench -- train`: the real training loop, train() of
// src/train/run.ts, the function `grpo-sandbox train` calls, side by side with PyTorch eager in
// one run. Per step: each rank's prompt ids from the sampler, rollout and scoring, one all-gather
// of rewards and prompt ids, the scheme's advantages, the loss, one all-reduce of the gradients
// (with the metric sums), Adam, and every checksumEvery steps the replica check; the ranks run
// several steps per call to the main thread. The demo's settings (flow_grpo's sampler and
// advantages, DAPO), in worker threads as the CLI runs them, at three sizes: the demo (32 prompts
// × 8, dModel 32), 256 × 8 (dModel 32) and 256 × 8 at the seed's dModel 2048 (hidden 256). Rows:
// the CPU at 1 and 8 ranks (the same global batch; 8 ranks on min(ranks, cores) threads, train's default where products are large,
// and at the two smaller sizes also on 8 threads, one per rank, and on one thread), --backend webgpu on 1 rank (whatever
// adapter Dawn finds: SwiftShader on a machine without a GPU; BENCH_NO_WEBGPU=1 leaves it out), and
// PyTorch eager (bench/torch/controller_step.py, the same controller step) at 1 and 2 threads, as
// written (every row through both trunks) and with each trunk once per distinct input as train
// runs it (the ratio column is against the fastest PyTorch row of the size); at the
// demo's size also `npm run train` as a user runs it, the whole process (start, 120 steps, files).
// ms/step: the mean wall time of the timed steps (after the warm-up steps; PyTorch's rows take the
// mean of theirs likewise, after as many warm-up steps). BENCH_QUICK=1: the
// first two sizes only, fewer steps. Where `train` gives the 1-rank run helper threads for its large
// matmuls (the cores the rank thread leaves idle: dModel 2048 here), the same run without them follows. Each size ends with the 1-rank train row and PyTorch's
// 1-thread distinct-input row run again, one after the other (this VM's vCPUs change speed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DIMS, SEED_DIMS, type ControllerDims } from '../src/core/env/controller.ts';
import { DEFAULT_TRAIN, type TrainConfig } from '../src/train/config.ts';
import { train } from '../src/train/run.ts';
import { findTorch } from './find-torch.ts';
import { ceiling128, kernelCeilingRows } from './train-kernel.ts';
import { printTable } from './timing.ts';

interface Size {
  /** Prompts per step (× k configurations each). */
  prompts: number;
  dims: ControllerDims;
  warmup: number;
  timed: number;
  /** Whether the WebGPU row runs at this size (SwiftShader at dModel 2048 takes minutes). */
  gpu: boolean;
}

interface Row {
  size: string;
  what: string;
  msPerStep: number | null;
  note: string;
}

/** One train() run of warmup + timed steps; the warm-up steps (V8 optimising every worker) are not timed. */
async function trainRow(
  size: Size,
  ranks: number,
  backend: 'cpu' | 'webgpu',
  threads?: number,
  helpers?: number,
): Promise<{ msPerStep: number; note: string; helpers: number }> {
  const global = size.prompts * DEFAULT_TRAIN.k;
  const steps = size.warmup + size.timed;
  const config: TrainConfig = { ...DEFAULT_TRAIN, backend, ranks, batch: global / ranks, steps, dims: size.dims };
  const t0 = performance.now();
  let startMs = 0;
  let device = '';
  const result = await train({
    config,
    threads,
    helpers,
    onStart: (d) => {
      startMs = performance.now() - t0;
      device = d;
    },
  });
  const mean = (ms: number[]) => ms.reduce((sum, t) => sum + t, 0) / ms.length;
  const warm = result.metrics.slice(0, size.warmup).map((m) => m.stepMs);
  const fraction = result.metrics.at(-1)!.optimumFraction;
  const t = result.transfers;
  return {
    msPerStep: mean(result.metrics.slice(size.warmup).map((m) => m.stepMs)),
    helpers: result.helpers,
    note:
      `start ${startMs.toFixed(0)} ms, warm-up steps ${mean(warm).toFixed(0)} ms each, ${device}` +
      (result.helpers ? `, ${result.helpers} helper thread${result.helpers > 1 ? 's' : ''} per rank thread` : '') +
      `, optimum fraction ${fraction.toFixed(3)}` +
      (t ? `, ${t.submissionsPerStep.toFixed(2)} submissions and ${t.readbacksPerStep.toFixed(2)} readbacks per step` : ''),
  };
}

/**
 * PyTorch eager's step at this size (bench/torch/controller_step.py), as a researcher writes it
 * (every row through both trunks) or, with `distinct`, each trunk once per distinct input row as
 * the sandbox's step runs it (src/train/distinct-rows.ts): the same method on both sides (how many
 * rows stage 2 shares follows each side's own policy as it trains, so the row counts differ).
 */
function torchRow(python: string, size: Size, threads: number, distinct: boolean): { msPerStep: number; torch: string } {
  const script = fileURLToPath(new URL('./torch/controller_step.py', import.meta.url));
  const args = {
    prompts: size.prompts,
    k: DEFAULT_TRAIN.k,
    'd-model': size.dims.dModel,
    hidden: size.dims.hidden,
    steps: size.timed,
    warmup: size.warmup,
    threads,
  };
  const flags = [...Object.entries(args).flatMap(([flag, v]) => [`--${flag}`, String(v)]), ...(distinct ? ['--distinct-inputs'] : [])];
  const run = spawnSync(python, [script, ...flags], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`bench/torch/controller_step.py failed: ${run.stderr.trim()}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { msPerStep: number; torch: string };
}

/** `npm run train` (the demo) as a user runs it: the whole process, wall seconds. */
function demoProcessSeconds(): number {
  const out = mkdtempSync(join(os.tmpdir(), 'bench-demo-'));
  try {
    const bin = fileURLToPath(new URL('../bin/grpo-sandbox.js', import.meta.url));
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [bin, 'train', '--out', out, '--overwrite'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`npm run train failed: ${run.stderr.trim().split('\n').at(-1)}`);
    return (performance.now() - t0) / 1000;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export default async function trainLoopBench(): Promise<void> {
  const quick = Boolean(process.env.BENCH_QUICK);
  const demoPrompts = (DEFAULT_TRAIN.ranks * DEFAULT_TRAIN.batch) / DEFAULT_TRAIN.k;
  const sizes: Size[] = [
    { prompts: demoPrompts, dims: DEFAULT_DIMS, warmup: 10, timed: quick ? 20 : 60, gpu: true },
    // 20 warm-up steps: V8's optimising tiers (JavaScript and WebAssembly) reach every function of the
    // step, and the policy has begun to concentrate (fewer distinct stage-2 rows: ~1060 at step 1, ~510 at
    // step 21, ~360 later); with 5, one quiet run's 1-rank row read 8.3 ms/step over steps 6–35, where
    // steps 31–150 of the same loop took 5.1–5.6 ms in three runs.
    { prompts: 256, dims: DEFAULT_DIMS, warmup: 20, timed: quick ? 20 : 60, gpu: true },
    // At dModel 2048 a step of the bank's first epoch also computes its new prompts' latency tokens
    // (5 × 2048² float64 multiply-adds each, kept for the run), which PyTorch's step is handed:
    // timed after 16 warm-up steps, when almost every prompt's are kept (the note gives the warm-up's mean).
    ...(quick ? [] : [{ prompts: 256, dims: SEED_DIMS, warmup: 16, timed: 6, gpu: false }]),
  ];
  const torch = findTorch();
  if (!('python' in torch)) console.log(`  PyTorch not measured: ${torch.reason}`);
  // The machine and its load, in the same run as the figures (other jobs on a shared VM skew every row).
  const cpu = os.cpus()[0];
  console.log(`  machine: ${cpu?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);
  console.log(
    `  load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const rows: Row[] = [];
  const add = (row: Row) => {
    rows.push(row);
    console.log(`  ${row.size}: ${row.what}: ${row.msPerStep === null ? row.note : `${row.msPerStep.toFixed(1)} ms/step (${row.note})`}`);
  };
  for (const size of sizes) {
    const label = `${size.prompts}×${DEFAULT_TRAIN.k} dModel ${size.dims.dModel}`;
    // Other jobs on the machine skew every row: say how busy it was (1-minute load average).
    console.log(`  ${label}: load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    const cores = os.availableParallelism();
    // At the two smaller sizes also 8 ranks on one thread: one replica for all, no barrier across threads.
    const placements = [
      [1, 1],
      [8, Math.min(8, cores)],
      ...(size.gpu && cores < 8 ? [[8, 8]] : []),
      ...(size.gpu && cores > 1 ? [[8, 1]] : []),
    ];
    for (const [ranks, threads] of placements as [number, number][]) {
      const r = await trainRow(size, ranks, 'cpu', threads);
      const on = ranks === 1 ? '' : ` on ${threads} thread${threads > 1 ? 's' : ''}`;
      add({ size: label, what: `train --backend cpu, ${ranks} rank${ranks > 1 ? 's' : ''}${on}`, ...r });
      // Where the rank thread took helper threads for its matmuls, the same run without them beside it.
      if (r.helpers > 0)
        add({
          size: label,
          what: `train --backend cpu, ${ranks} rank${ranks > 1 ? 's' : ''}${on}, no helper thread`,
          ...(await trainRow(size, ranks, 'cpu', threads, 0)),
        });
    }
    if (size.prompts === demoPrompts) {
      const s = demoProcessSeconds();
      add({
        size: label,
        what: 'npm run train (the demo, whole process)',
        msPerStep: null,
        note: `${s.toFixed(1)} s for ${DEFAULT_TRAIN.steps} steps`,
      });
    }
    if (size.gpu && !process.env.BENCH_NO_WEBGPU) {
      try {
        const r = await trainRow(size, 1, 'webgpu');
        add({ size: label, what: 'train --backend webgpu, 1 rank', ...r });
      } catch (err) {
        add({
          size: label,
          what: 'train --backend webgpu, 1 rank',
          msPerStep: null,
          note: `not measured: ${(err as Error).message.split('\n')[0]}`,
        });
      }
    }
    const torchRows = (threads: number, distinct: boolean, again = '') => {
      if (!('python' in torch)) return;
      const t = torchRow(torch.python, size, threads, distinct);
      add({
        size: label,
        what: `PyTorch ${t.torch} eager, ${threads} thread${threads > 1 ? 's' : ''}${distinct ? ', trunks once per distinct input' : ''}${again}`,
        msPerStep: t.msPerStep,
        note: distinct ? 'bench/torch --distinct-inputs (rows shared by input, as train)' : 'bench/torch, every row through both trunks',
      });
    };
    for (const distinct of [false, true]) for (const threads of [1, 2]) torchRows(threads, distinct);
    // Again, the 1-rank train row and PyTorch's 1-thread distinct-input row, one after the other: this
    // VM's two vCPUs run at speeds up to ~1.45× apart that change from minute to minute (bench/README.md),
    // so the two rows a ratio compares are also taken side by side in time, and the spread between a
    // row and its repeat shows how far the machine moved during the run.
    const r = await trainRow(size, 1, 'cpu', 1);
    add({ size: label, what: 'train --backend cpu, 1 rank (again, after PyTorch)', ...r });
    torchRows(1, true, ' (again, after train)');
    // And 8 ranks again after the 1-rank repeat: the 8 ÷ 1 ratio from runs taken next to each other.
    const eight = await trainRow(size, 8, 'cpu', Math.min(8, cores));
    add({ size: label, what: `train --backend cpu, 8 ranks on ${Math.min(8, cores)} threads (again, after 1 rank)`, ...eight });
  }
  console.log(
    `  load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  // The kernel against the 128-bit ceiling, on the dModel-2048 step's products.
  const ceiling = ceiling128();
  console.log(`  128-bit ceiling: ${ceiling.gPerS.toFixed(1)} G multiply-adds/s a core (${ceiling.source})`);
  const kernel = kernelCeilingRows(ceiling.gPerS);
  if ('reason' in kernel) console.log(`  kernel's fraction of the 128-bit ceiling not measured: ${kernel.reason}`);
  else
    for (const k of kernel)
      console.log(
        `  kernel, ${k.product}: ${k.gPerS.toFixed(1)} G multiply-adds/s (CPU time), ${(100 * k.fraction).toFixed(0)}% of the 128-bit ceiling`,
      );
  console.log('');
  printTable(
    ['size', 'loop', 'ms/step', 'steps/s', "vs PyTorch's best row", 'time ÷ 1 rank', 'notes'],
    rows.map((r) => {
      const same = rows.filter((o) => o.size === r.size);
      const torchBest = Math.min(...same.filter((o) => o.what.startsWith('PyTorch') && o.msPerStep !== null).map((o) => o.msPerStep!));
      const isRepeat = r.what.includes('(again');
      // A row against the 1-rank row of its pass: the first, or the repeat taken after PyTorch.
      const one = same.find((o) => o.what.startsWith('train --backend cpu, 1 rank') && o.what.includes('(again') === isRepeat)?.msPerStep;
      const ms = r.msPerStep;
      return [
        r.size,
        r.what,
        ms === null ? 'n/a' : ms.toFixed(1),
        ms === null ? 'n/a' : (1000 / ms).toFixed(1),
        ms === null || !Number.isFinite(torchBest) ? 'n/a' : `${(torchBest / ms).toFixed(2)}×`,
        ms === null || !one || !r.what.startsWith('train --backend cpu') ? '' : `${(ms / one).toFixed(2)}×`,
        r.note,
      ];
    }),
  );
}
