/** Rows, candidates per row, values per candidate, and where the chosen one goes in each row of the output. */
export interface SelectShape {
  rows: number;
  choices: number;
  width: number;
  stride: number;
  offset: number;
}

/**
 * Each row takes one of its candidate vectors: into[r·stride + offset + j] =
 * candidates[(r·choices + index[r])·width + j] for j < width; returns `into`. Stage 2's input is
 * built this way on the GPU (the sampled insertion picks the row's latency token among its five).
 */
export function selectCandidates(candidates: Float32Array, index: Uint32Array, s: SelectShape, into: Float32Array): Float32Array {
  for (let r = 0; r < s.rows; r++) {
    const c = index[r]!;
    if (c >= s.choices) throw new RangeError(`selectCandidates: row ${r} chooses candidate ${c} of ${s.choices}`);
    const from = (r * s.choices + c) * s.width;
    into.set(candidates.subarray(from, from + s.width), r * s.stride + s.offset);
  }
  return into;
}
