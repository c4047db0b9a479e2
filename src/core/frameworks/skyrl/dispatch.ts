// SkyRL's path from a loader batch to the ranks (@ a956457):
// - skyrl/train/trainer.py RayPPOTrainer._remove_tail_data: keeps the largest prompt count m ≤ the batch with
//   m·k divisible by lcm_dp_size (stride = lcm ÷ gcd(lcm, k));
// - skyrl/train/generators/utils.py prepare_generator_input: prompt i's k copies at i·k … i·k+k−1, uid = its index;
// - skyrl/train/dataset/preprocess.py compute_prompt_mini_batch_boundaries: policy_mini_batch_size prompts per
//   mini-batch, contiguous;
// - skyrl/backends/skyrl_train/distributed/dispatch.py MeshDispatch.stage_chunks: each mini-batch on its own is
//   padded to a multiple of the policy's data-parallel size (dummy samples with loss_mask 0) and cut into equal
//   contiguous pieces, piece r to rank r. (verl instead cuts the whole batch into W pieces first.)

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

export function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}

/** _remove_tail_data: how many of `prompts` prompts are kept. */
export function keptPrompts(prompts: number, k: number, lcmDp: number): number {
  const stride = lcmDp / gcd(lcmDp, k);
  if (stride <= 1) return prompts;
  return Math.floor(prompts / stride) * stride;
}

export interface SkyrlDispatch {
  /** sources[r] = rank r's real samples (indices in generation order), mini-batch after mini-batch. */
  sources: number[][];
  /** perMiniBatch[r][m] = rank r's real samples in mini-batch m. */
  perMiniBatch: number[][][];
  /** padding[r][m] = dummy samples (loss_mask 0) stage_chunks put at the end of rank r's piece of mini-batch m. */
  padding: number[][];
}

/** stage_chunks over the mini-batches of one step of `prompts` prompts (all kept), k copies each. */
export function skyrlDispatch(prompts: number, k: number, miniBatchPrompts: number, ranks: number): SkyrlDispatch {
  const perMiniBatch: number[][][] = Array.from({ length: ranks }, () => []);
  const padding: number[][] = Array.from({ length: ranks }, () => []);
  const miniSamples = miniBatchPrompts * k;
  for (let start = 0; start < prompts * k; start += miniSamples) {
    const size = Math.min(miniSamples, prompts * k - start);
    const pad = (ranks - (size % ranks)) % ranks;
    const piece = (size + pad) / ranks;
    for (let r = 0; r < ranks; r++) {
      const real: number[] = [];
      for (let p = r * piece; p < (r + 1) * piece && p < size; p++) real.push(start + p);
      perMiniBatch[r]!.push(real);
      padding[r]!.push(piece - real.length);
    }
  }
  return { sources: perMiniBatch.map((mbs) => mbs.flat()), perMiniBatch, padding };
}
