// slime's FLOPs estimate of one sample, slime/utils/flops_utils.py calculate_fwd_flops([seqlen], args)
// @ 624b824, for a dense model without multi-latent attention (num_experts None): per layer the QKV
// projections, causal attention, output projection and a 3-matrix (SwiGLU) MLP, times num_layers, plus
// the LM head. The sums are evaluated in slime's order with Python's int/float rules: the attention term
// divides by 2 (a float), so everything after it is a float, exactly as doubles compute it here.

export interface DenseModel {
  numLayers: number;
  hiddenSize: number;
  ffnHiddenSize: number;
  numAttentionHeads: number;
  numQueryGroups: number;
  kvChannels: number;
  vocabSize: number;
}

/** calculate_fwd_flops([seqlen], args) for a dense, non-MLA model. */
export function sampleFlops(seqlen: number, m: DenseModel): number {
  const h = m.hiddenSize;
  const qFlops = 2 * seqlen * h * m.numAttentionHeads * m.kvChannels;
  const kvFlops = 2 * 2 * seqlen * h * m.numQueryGroups * m.kvChannels;
  const qkv = qFlops + kvFlops;
  // QK^T (causal, halved) then A·V.
  let attention = (2 * m.numAttentionHeads * seqlen * seqlen * m.kvChannels) / 2;
  attention += m.numAttentionHeads * seqlen * seqlen * m.kvChannels;
  const output = 2 * seqlen * h * h;
  const mlp = 2 * seqlen * h * m.ffnHiddenSize * 3;
  const layer = qkv + attention + output + mlp;
  let total = 0;
  total += layer * m.numLayers;
  total += 2 * seqlen * h * m.vocabSize;
  return total;
}
