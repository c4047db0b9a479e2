// Straightforward references the collective results are checked against.
import { inputFor } from './programs.ts';

/** Rank-major concatenation of every rank's input. */
export function refAllGather(size: number, n: number, seed: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < size; r++) out.push(...inputFor(r, n, seed));
  return out;
}

/** Element-wise reduction in rank order 0..W−1, float32 rounding after every step. */
export function refAllReduce(size: number, n: number, seed: number, op: 'sum' | 'mean' | 'max'): Float32Array {
  const acc = Float32Array.from(inputFor(0, n, seed));
  for (let r = 1; r < size; r++) {
    const x = inputFor(r, n, seed);
    for (let i = 0; i < n; i++) acc[i] = op === 'max' ? Math.max(acc[i]!, x[i]!) : acc[i]! + x[i]!;
  }
  if (op === 'mean') for (let i = 0; i < n; i++) acc[i] = acc[i]! / size;
  return acc;
}
