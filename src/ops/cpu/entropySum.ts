/** Σ −q·log q over the probabilities (q = 0, a masked option, adds 0), summed in index order in float64: a head's entropy summed over its rows. */
export function entropySum(probs: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < probs.length; i++) {
    const q = probs[i]!;
    if (q > 0) sum -= q * Math.log(q);
  }
  return sum;
}
