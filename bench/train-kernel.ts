// The fast CPU backend's matmul (src/ops/fast, WebAssembly SIMD) on the products of a training step at
// dModel 2048, against the 128-bit ceiling: each product alone on one thread, best of 5 × 10, and the
// ceiling measured in the same run by bench/train-ceiling.c (12 independent chains of 128-bit fused
// multiply-adds: WebAssembly's SIMD is 128 bits wide, so no kernel here can pass it), built with the
// machine's C compiler; without one, the figure measured on the AMD EPYC VM (bench/README.md, "What the
// matmul can reach here": 26.8 G multiply-adds/s a core). Both sides are timed in CPU time, so the
// fraction holds on a loaded machine where wall times do not.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { dense } from '../src/ops/fast/dense.ts';
import { denseBackwardWeight } from '../src/ops/fast/denseBackwardWeight.ts';
import { activeKernel } from '../src/ops/fast/simd.ts';

/** G multiply-adds/s of one core's 128-bit FMAs on the AMD EPYC VM of bench/README.md (where no C compiler is found). */
export const CEILING_128_EPYC = 26.8;

/** This machine's 128-bit ceiling (G multiply-adds/s a core, CPU time) from bench/train-ceiling.c, and where it came from. */
export function ceiling128(): { gPerS: number; source: string } {
  const cc = spawnSync('cc', ['--version'], { encoding: 'utf8' });
  if (cc.status !== 0) return { gPerS: CEILING_128_EPYC, source: "no C compiler here: the AMD EPYC VM's figure (bench/README.md)" };
  const dir = mkdtempSync(join(os.tmpdir(), 'bench-ceiling-'));
  try {
    const exe = join(dir, 'ceiling');
    execFileSync('cc', ['-O2', '-mfma', '-o', exe, fileURLToPath(new URL('./train-ceiling.c', import.meta.url))]);
    const g = Number(execFileSync(exe, { encoding: 'utf8' }).split(' ')[0]);
    return { gPerS: g, source: 'bench/train-ceiling.c on this machine (CPU time)' };
  } catch (err) {
    return {
      gPerS: CEILING_128_EPYC,
      source: `bench/train-ceiling.c did not build or run (${(err as Error).message.split('\n')[0]}): the AMD EPYC VM's figure`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface KernelRow {
  product: string;
  gPerS: number;
  fraction: number;
}

const filled = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + seed) * 0.1);

/** Best CPU time of `reps` runs of `fn` (ms), `rounds` times, the best round's mean (this thread is the process's only busy one). */
function best(fn: () => void, rounds = 5, reps = 10): number {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < reps; i++) fn();
    const t = process.cpuUsage(t0);
    min = Math.min(min, (t.user + t.system) / 1000 / reps);
  }
  return min;
}

/** The step's four products at dModel 2048 (m × K → n; aᵀ: a weight gradient), G multiply-adds/s and fraction of the ceiling. */
export function kernelCeilingRows(ceiling: number): KernelRow[] | { reason: string } {
  if (!activeKernel()) return { reason: 'no WebAssembly SIMD kernel in this runtime' };
  const rows: KernelRow[] = [];
  const forward = (m: number, k: number, n: number, label: string) => {
    const x = filled(m * k, 1);
    const w = filled(k * n, 2);
    const b = filled(n, 3);
    const out = { z: new Float32Array(m * n), y: new Float32Array(m * n) };
    const shape = { rows: m, inDim: k, outDim: n, activation: 'tanh' as const };
    dense(x, w, b, shape, out);
    const ms = best(() => dense(x, w, b, shape, out));
    rows.push(row(label, m * k * n, ms, ceiling));
  };
  const weightGrad = (m: number, k: number, n: number, label: string) => {
    // dW (k × n) = xᵀ (k × m) · dz (m × n): K = m rows summed over.
    const x = filled(m * k, 4);
    const dz = filled(m * n, 5);
    const out = { dw: new Float32Array(k * n), db: new Float32Array(n) };
    const shape = { rows: m, inDim: k, outDim: n };
    denseBackwardWeight(x, dz, shape, out);
    const ms = best(() => denseBackwardWeight(x, dz, shape, out));
    rows.push(row(label, m * k * n, ms, ceiling));
  };
  forward(256, 4096, 256, "256 × 4096 → 256 (stage 1's forward)");
  weightGrad(256, 4096, 256, "4096 × 256 → 256, aᵀ (stage 1's weight gradient)");
  forward(260, 2053, 256, "260 × 2053 → 256 (stage 2's forward)");
  weightGrad(260, 2053, 256, "2053 × 260 → 256, aᵀ (stage 2's weight gradient)");
  return rows;
}

function row(product: string, madds: number, ms: number, ceiling: number): KernelRow {
  const gPerS = madds / ms / 1e6;
  return { product, gPerS, fraction: gPerS / ceiling };
}
