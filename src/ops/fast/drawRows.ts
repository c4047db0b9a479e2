// The draws of the fast sampler (maskedSoftmax.ts's softmaxRows) from a softmax already computed, for rows
// that share one: what the ranks of a thread that share each head's softmax per distinct input
// (src/train/shared-heads.ts) draw their own rows from.
import { NO_OPTION } from '../cpu/categoricalSample.ts';
import { philoxKey, unitFloat } from '../../core/rng/philox.ts';
import type { RowDraws } from './maskedSoftmax.ts';
import { philoxWord0 } from './philox.ts';

/**
 * softmaxRows' draws from a softmax already computed: row r's probabilities and log-probabilities are row
 * `of[r]` of `probs` and `logp` (`stride` floats apart, the head's `width` from `offset`), as softmaxRows wrote
 * them for a row with the same logits and mask. Each row's probabilities are copied into `outProbs` (rows ×
 * width), and its uniform, walk and action's log-probability are softmaxRows' (a row without a valid option: NO_OPTION, 0).
 * What ranks that share a softmax per distinct input (src/train/shared-heads.ts) draw their own rows from.
 */
export function drawRows(
  probs: Float32Array,
  logp: Float32Array,
  of: Uint32Array,
  src: { stride: number; offset: number },
  mask: Float32Array | null,
  width: number,
  outProbs: Float32Array,
  draws: RowDraws,
): void {
  const rows = of.length;
  const [k0, k1] = philoxKey(draws.key.seed);
  const { rowOffset, step, rank, stream } = draws.key;
  for (let r = 0; r < rows; r++) {
    const at = of[r]! * src.stride + src.offset,
      out = r * width;
    // softmaxRows' row without a valid option (or whose valid logits are all −∞) is all 0: no valid option has a
    // probability or a log-probability (any other row's likeliest option has both non-zero).
    let live = false;
    for (let j = 0; j < width && !live; j++) live = (mask === null || mask[out + j] !== 0) && (probs[at + j] !== 0 || logp[at + j] !== 0);
    if (!live) {
      outProbs.fill(0, out, out + width);
      draws.actions[r] = NO_OPTION;
      draws.logp[r] = 0;
      continue;
    }
    const u = unitFloat(philoxWord0(rowOffset + r, step, rank, stream, k0, k1));
    let drawing = true,
      action = NO_OPTION,
      cumulative = 0;
    for (let j = 0; j < width; j++) {
      const p = probs[at + j]!;
      outProbs[out + j] = p;
      if (!drawing || (mask !== null && mask[out + j] === 0)) continue;
      action = j;
      cumulative += p;
      if (u < cumulative) drawing = false;
    }
    draws.actions[r] = action;
    draws.logp[r] = logp[at + action]!;
  }
}
