// The seed-003 ranking loss: within each group, for every pair with reward_i > reward_j,
// −log σ(log π_i − log π_j), where log π of a sequence is the sum of its tokens' log-probabilities.
// The batch loss is the mean over all such pairs (0 when every group is tied).
import type { TokenShape } from './grpoLoss.ts';

/** −log σ(x) = softplus(−x), computed without overflow. */
export function negLogSigmoid(x: number): number {
  return x >= 0 ? Math.log1p(Math.exp(-x)) : -x + Math.log1p(Math.exp(x));
}

/** σ(x), computed without overflow. */
export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/**
 * Pairwise ranking loss over contiguous groups of `groupSize` rows and its gradient.
 * logp, mask: B × T; rewards: B. Returns the loss, gradLogp (B × T) and the number of ordered pairs.
 */
export function pairwiseLoss(
  logp: Float32Array,
  mask: Float32Array,
  rewards: Float32Array,
  shape: TokenShape & { groupSize: number },
): { loss: number; gradLogp: Float32Array; pairs: number } {
  const { rows, tokens, groupSize } = shape;
  const seq = new Float64Array(rows);
  for (let b = 0; b < rows; b++) for (let t = 0; t < tokens; t++) seq[b]! += mask[b * tokens + t]! * logp[b * tokens + t]!;
  let lossSum = 0;
  let pairs = 0;
  const gradSeq = new Float64Array(rows);
  for (let b = 0; b < rows; b++) {
    const start = b - (b % groupSize);
    const end = Math.min(start + groupSize, rows);
    for (let j = start; j < end; j++) {
      if (rewards[b]! > rewards[j]!) {
        // b beats j: loss softplus(−(lp_b − lp_j)); its slope pushes lp_b up.
        lossSum += negLogSigmoid(seq[b]! - seq[j]!);
        pairs += 1;
        gradSeq[b]! -= 1 - sigmoid(seq[b]! - seq[j]!);
      } else if (rewards[j]! > rewards[b]!) {
        gradSeq[b]! += 1 - sigmoid(seq[j]! - seq[b]!);
      }
    }
  }
  const scale = pairs > 0 ? 1 / pairs : 0;
  const gradLogp = new Float32Array(rows * tokens);
  for (let b = 0; b < rows; b++) for (let t = 0; t < tokens; t++) gradLogp[b * tokens + t] = scale * gradSeq[b]! * mask[b * tokens + t]!;
  return { loss: lossSum * scale, gradLogp, pairs };
}
