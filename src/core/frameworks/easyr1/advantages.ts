// EasyR1's outcome advantages (verl/trainer/core_algos.py @ b44b311, ADV_ESTIMATOR_MAP), computed on
// the driver after _balance_batch, grouped by the `uid` each prompt draw gets in _make_batch_data. The
// scores are float32 tensors; this follows torch's float32 steps (Math.fround) with the group sums taken
// exactly, which is what torch gives whenever the float32 sum is exact (0/1 rewards, small multiples
// of 1/4…); for other rewards torch's vectorised summation order can move the mean by an ulp.
import { ConfigError } from '../../errors.ts';
import type { AdvantageDef } from '../types.ts';
import { EASYR1_VERSION } from './dispatch.ts';

const f32 = Math.fround;
const EPS = f32(1e-6);

/** Sample indices by group (uid per prompt draw: one draw per prompt id within a step), in first-seen order. */
function groups(promptIds: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  promptIds.forEach((p, i) => {
    const g = out.get(p);
    if (g) g.push(i);
    else out.set(p, [i]);
  });
  return out;
}

/** torch.mean and torch.std (unbiased) of a float32 group, as float32. */
function meanStd(xs: readonly number[]): { mean: number; std: number } {
  const sum = xs.reduce((s, x) => s + x, 0);
  const mean = f32(f32(sum) / xs.length);
  const m = sum / xs.length;
  const ss = xs.reduce((s, x) => s + (x - m) * (x - m), 0);
  return { mean, std: f32(Math.sqrt(ss / (xs.length - 1))) };
}

function needsTwo(name: string, members: number[][]): void {
  if (members.some((g) => g.length < 2)) {
    throw new ConfigError(`AssertionError: ${name} needs rollout.n > 1. (core_algos.py, a uid with one sample; ${EASYR1_VERSION})`);
  }
}

const grpo: AdvantageDef = {
  scheme: 'easyr1',
  about: 'grpo (default): per uid, (r − mean) / (torch.std unbiased + 1e-6) in float32; a uid with one sample fails its assert',
  groupBy: 'uid',
  compute({ rewards, promptIds }) {
    const scores = rewards.map(f32);
    const members = [...groups(promptIds).values()];
    needsTwo('GRPO', members);
    const out: number[] = new Array(scores.length);
    for (const g of members) {
      const { mean, std } = meanStd(g.map((i) => scores[i]!));
      const denom = f32(std + EPS);
      for (const i of g) out[i] = f32(f32(scores[i]! - mean) / denom);
    }
    return { advantages: out, warnings: [] };
  },
};

const rloo: AdvantageDef = {
  scheme: 'easyr1-rloo',
  about: 'algorithm.adv_estimator rloo: r − (sum of the uid’s other rewards) / (n − 1), float32; no std',
  groupBy: 'uid',
  compute({ rewards, promptIds }) {
    const scores = rewards.map(f32);
    const members = [...groups(promptIds).values()];
    needsTwo('RLOO', members);
    const out: number[] = new Array(scores.length);
    for (const g of members) {
      const sum = f32(g.reduce((s, i) => s + scores[i]!, 0));
      for (const i of g) out[i] = f32(scores[i]! - f32(f32(sum - scores[i]!) / (g.length - 1)));
    }
    return { advantages: out, warnings: [] };
  },
};

const passk: AdvantageDef = {
  scheme: 'easyr1-grpo-passk',
  about: 'algorithm.adv_estimator grpo_passk: only a uid’s best sample gets (r_max − r_second) / (torch.std + 1e-6); the rest 0',
  groupBy: 'uid',
  compute({ rewards, promptIds }) {
    const scores = rewards.map(f32);
    const members = [...groups(promptIds).values()];
    needsTwo('GRPO', members);
    const out: number[] = scores.map(() => 0);
    for (const g of members) {
      const byScore = [...g].sort((a, b) => scores[b]! - scores[a]!);
      const [best, second] = [byScore[0]!, byScore[1]!];
      // With a tie at the top the value is 0 whichever copy torch.topk names.
      const { std } = meanStd(g.map((i) => scores[i]!));
      out[best] = f32(f32(scores[best]! - scores[second]!) / f32(std + EPS));
    }
    return { advantages: out, warnings: [] };
  },
};

export const advantages: readonly AdvantageDef[] = [grpo, rloo, passk];
