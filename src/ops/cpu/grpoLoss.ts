// The GRPO surrogate loss as TRL's GRPOTrainer computes it (docs/frameworks.md), with its
// gradient with respect to every token's log-probability. Loss types and settings: src/core/grpo/loss.ts.
import type { GrpoLossSettings } from '../../core/grpo/loss.ts';

/** Shape of a batch: B sequences (rows) × T tokens. */
export interface TokenShape {
  rows: number;
  tokens: number;
}

/**
 * Per-token loss −min(ρ·A, clip(ρ, 1−ε_low, 1+ε_high)·A) + β·(e^(ref−logp) − (ref−logp) − 1),
 * ρ = e^(logp − oldLogp), and its derivative with respect to logp.
 * The clipped branch has zero slope when it is the minimum and ρ lies outside the clip range.
 */
export function grpoTokenLoss(
  logp: number,
  oldLogp: number,
  refLogp: number,
  advantage: number,
  s: GrpoLossSettings,
): { loss: number; grad: number } {
  const ratio = Math.exp(logp - oldLogp);
  const clipped = Math.min(Math.max(ratio, 1 - s.epsilonLow), 1 + s.epsilonHigh);
  const unclippedTerm = ratio * advantage;
  const clippedTerm = clipped * advantage;
  let loss: number;
  let grad: number;
  if (unclippedTerm <= clippedTerm) {
    loss = -unclippedTerm;
    grad = -unclippedTerm;
  } else {
    loss = -clippedTerm;
    grad = ratio > 1 - s.epsilonLow && ratio < 1 + s.epsilonHigh ? -unclippedTerm : 0;
  }
  if (s.beta !== 0) {
    const d = refLogp - logp;
    loss += s.beta * (Math.exp(d) - d - 1);
    grad += s.beta * (1 - Math.exp(d));
  }
  return { loss, grad };
}

/**
 * Each token's weight in the batch loss, by loss type (TRL): grpo 1/(B·|row|), bnpo and dapo
 * 1/Σmask (this batch stands for dapo's accumulated global batch), dr_grpo 1/(B·max_completion_length).
 * Token counts are clamped to ≥ 1 as TRL does.
 */
export function tokenWeight(s: GrpoLossSettings, rows: number, rowTokens: number, batchTokens: number): number {
  switch (s.lossType) {
    case 'grpo':
      return 1 / (rows * Math.max(rowTokens, 1));
    case 'bnpo':
    case 'dapo':
      return 1 / Math.max(batchTokens, 1);
    case 'dr_grpo':
      return 1 / (rows * s.maxCompletionLength);
  }
}

/**
 * The batch loss and dloss/dlogp. logp, oldLogp, refLogp (null when β = 0), mask: B × T; advantages: B.
 * Returns the scalar loss and gradLogp (B × T; 0 where mask is 0), written into `out` (cleared first) when given.
 */
export function grpoLoss(
  logp: Float32Array,
  oldLogp: Float32Array,
  refLogp: Float32Array | null,
  mask: Float32Array,
  advantages: Float32Array,
  shape: TokenShape,
  s: GrpoLossSettings,
  out?: Float32Array,
): { loss: number; gradLogp: Float32Array } {
  const { rows, tokens } = shape;
  let batchTokens = 0;
  for (let i = 0; i < rows * tokens; i++) batchTokens += mask[i]!;
  const gradLogp = out ? out.fill(0) : new Float32Array(rows * tokens);
  let loss = 0;
  for (let b = 0; b < rows; b++) {
    let rowTokens = 0;
    for (let t = 0; t < tokens; t++) rowTokens += mask[b * tokens + t]!;
    const weight = tokenWeight(s, rows, rowTokens, batchTokens);
    for (let t = 0; t < tokens; t++) {
      const i = b * tokens + t;
      if (mask[i] === 0) continue;
      const tok = grpoTokenLoss(logp[i]!, oldLogp[i]!, refLogp ? refLogp[i]! : logp[i]!, advantages[b]!, s);
      loss += weight * mask[i]! * tok.loss;
      gradLogp[i] = weight * mask[i]! * tok.grad;
    }
  }
  return { loss, gradLogp };
}
