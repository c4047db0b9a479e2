import { NO_OPTION, type SampleKey, type SampleOut } from '../cpu/categoricalSample.ts';
import { checkHead, type HeadShape } from '../cpu/head.ts';
import { philoxKey, unitFloat } from '../../core/rng/philox.ts';
import { softmaxInto } from './maskedSoftmax.ts';
import { scratch } from './tiles.ts';
import { philoxWord0 } from './philox.ts';

/**
 * src/ops/cpu/categoricalSample.ts (inverse CDF over the masked softmax, Philox-keyed uniform per
 * row) with the fast softmax (its full log-probabilities in scratch, not a new array per call) and
 * an allocation-free Philox: the same actions, log-probs and probs.
 */
export function categoricalSample(
  logits: Float32Array,
  mask: Float32Array | null,
  h: HeadShape,
  k: SampleKey,
  out?: SampleOut,
): { actions: Uint32Array; logp: Float32Array; probs: Float32Array } {
  checkHead(h, logits.length, mask);
  const { rows, width } = h;
  // The log-probabilities of every option are a temporary (only the actions' are returned): scratch, unless given.
  const soft = softmaxInto(logits, mask, h, out?.softLogp ?? scratch(3, rows * width), out?.probs ?? new Float32Array(rows * width));
  const actions = (out?.actions ?? new Uint32Array(rows)).fill(NO_OPTION);
  const logp = out ? out.logp.fill(0) : new Float32Array(rows);
  const [k0, k1] = philoxKey(k.seed);
  for (let r = 0; r < rows; r++) {
    const u = unitFloat(philoxWord0(k.rowOffset + r, k.step, k.rank, k.stream, k0, k1));
    const row = r * width;
    let cumulative = 0;
    for (let j = 0; j < width; j++) {
      if (mask !== null && mask[row + j] === 0) continue;
      actions[r] = j;
      cumulative += soft.probs[row + j]!;
      if (u < cumulative) break;
    }
    if (actions[r] !== NO_OPTION) logp[r] = soft.logp[row + actions[r]!]!;
  }
  return { actions, logp, probs: soft.probs };
}
