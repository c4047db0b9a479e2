// The seed task's latency tokens at dModel 2048 (5 × 2048² float64 multiply-adds a prompt): the JS
// kernel (blockedLatencyTokens) and the fast backend's WebAssembly SIMD one (simdLatencyTokens),
// side by side in one process, alternating, in CPU milliseconds (process.cpuUsage: user + system),
// with the load average. Both give the reference's bits (checked here once on the largest count).
import os from 'node:os';
import process from 'node:process';
import { SEED_DIMS } from '../src/core/env/controller.ts';
import { blockedLatencyTokens, makeTask, type LatencyTokensKernel } from '../src/core/env/task.ts';
import { simdLatencyTokens } from '../src/ops/fast/latencyTokens.ts';
import { fastKernelKind } from '../src/ops/fast/simd.ts';
import { printTable } from './timing.ts';

const COUNTS = [16, 32, 64];
const REPS = 5;

function cpuMs(kernel: LatencyTokensKernel, task: ReturnType<typeof makeTask>, ids: number[]): number {
  const t0 = process.cpuUsage();
  kernel(task, ids);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default function bench(): void {
  const task = makeTask(SEED_DIMS, 3, 256);
  const load = () => os.loadavg()[0]!.toFixed(2);
  console.log(`dModel ${SEED_DIMS.dModel}, kernel ${fastKernelKind()}, load ${load()}`);
  // warm both (the WebAssembly function's optimised tier, B's packing)
  const check = Array.from({ length: COUNTS.at(-1)! }, (_, i) => i);
  const a = blockedLatencyTokens(task, check),
    b = simdLatencyTokens(task, check);
  a.forEach((t, k) => {
    const other = new Uint32Array(b[k]!.buffer);
    if (!new Uint32Array(t.buffer).every((v, i) => v === other[i])) throw new Error(`prompt ${k} differs`);
  });
  const rows: (string | number)[][] = [];
  for (const n of COUNTS) {
    const js: number[] = [],
      simd: number[] = [];
    for (let r = 0; r < REPS; r++) {
      const ids = Array.from({ length: n }, (_, i) => (r * n + i) % 256);
      js.push(cpuMs(blockedLatencyTokens, task, ids));
      simd.push(cpuMs(simdLatencyTokens, task, ids));
    }
    const [j, s] = [median(js), median(simd)];
    const madds = (5 * SEED_DIMS.dModel ** 2 * n) / 1e9;
    rows.push([n, j.toFixed(0), s.toFixed(0), (j / s).toFixed(2), (madds / (j / 1000)).toFixed(2), (madds / (s / 1000)).toFixed(2)]);
  }
  printTable(['prompts', 'JS blocked CPU ms', 'SIMD CPU ms', 'JS / SIMD', 'JS G madd/s', 'SIMD G madd/s'], rows);
  console.log(`load ${load()}`);
}
