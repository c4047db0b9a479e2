// Rank programs that reproduce the seeded multi-rank failures on purpose (and their fixes),
// for `grpo-sandbox ranks` and the browser demo. Each returns a small summary per rank.
import type { Rank } from '../rank.ts';
import { stack, type Tensor } from '../tensor.ts';

/** Per-rank samples: `count` completions with a prompt id and a [1]-shaped reward on this rank's device. */
function samples(rank: Rank, count: number): { id: string; prompt: number; reward: Tensor }[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `r${rank.rank}s${i}`,
    prompt: Math.floor((rank.rank * count + i) / 4),
    reward: rank.tensor(new Float32Array([((rank.rank * 7 + i * 3) % 10) / 10])),
  }));
}

export interface HealthySummary {
  gatheredShape: number[];
  gathered: number[];
  rewardSum: number;
  rewardMax: number;
  poolSize: number;
  poolOrigins: string[];
  device: string;
}

/** A healthy step: allGather rewards [2, 1] per rank, allReduce their sum and max, allGatherObject the samples. */
export async function healthy(rank: Rank): Promise<HealthySummary> {
  const mine = samples(rank, 2);
  const rewards = rank.tensor(Float32Array.from(mine.map((s) => s.reward.data[0]!)), [2, 1]);
  const gathered = await rank.allGather(rewards);
  const sum = await rank.allReduce(new Float32Array([rewards.data[0]! + rewards.data[1]!]), { op: 'sum' });
  const max = await rank.allReduce(new Float32Array([Math.max(rewards.data[0]!, rewards.data[1]!)]), { op: 'max' });
  const pool = (await rank.allGatherObject(mine)).flat();
  await rank.barrier();
  return {
    gatheredShape: [...gathered.shape],
    gathered: Array.from(gathered.data),
    rewardSum: sum[0]!,
    rewardMax: max[0]!,
    poolSize: pool.length,
    poolOrigins: pool.map((s) => s.reward.device),
    device: rank.device,
  };
}

/**
 * seed-002: dynamic sampling ends 2 short (pool = 16·W − 2); the buggy slicing gives the last
 * rank 14 rows, and allGather of the [rows, 1] rewards fails. `fix`: fall back to equal batches.
 */
export async function unevenBatches(rank: Rank, args: { fix: boolean }) {
  const perRank = 16;
  const pool = perRank * rank.size - 2;
  const lo = Math.min(pool, rank.rank * perRank);
  const rows = args.fix ? perRank : Math.min(pool, lo + perRank) - lo;
  const gathered = await rank.allGather(rank.tensor(new Float32Array(rows), [rows, 1]));
  return { rows, gatheredShape: [...gathered.shape] };
}

/**
 * seed-004 V2: the last rank already has enough samples and skips the allGatherObject the
 * others call (`then: 'nothing'`: it just returns; 'barrier': it goes on to the next collective).
 * `fix`: every rank takes part in every collective.
 */
export async function skippedCollective(rank: Rank, args: { fix: boolean; then: 'nothing' | 'barrier' }) {
  const enough = rank.rank === rank.size - 1;
  await rank.allReduce(new Int32Array([enough ? 16 : 12]), { op: 'sum' });
  if (!enough || args.fix) {
    const pool = (await rank.allGatherObject(samples(rank, enough ? 0 : 4))).flat();
    return { pool: pool.length };
  }
  if (args.then === 'barrier') await rank.barrier();
  return { pool: 0 };
}

/**
 * seed-004 V4: ranks produce 14 or 18 valid samples, allGatherObject pools them, each rank
 * stacks the rewards of its slice [16r, 16r+16). Slices that hold another rank's samples fail
 * with torch's device error; `fix` moves each tensor with .to(rank.device) first.
 */
export async function pooledStack(rank: Rank, args: { fix: boolean }) {
  const count = rank.size === 1 ? 16 : rank.rank % 2 === 0 ? (rank.rank === rank.size - 1 ? 16 : 14) : 18;
  const pool = (await rank.allGatherObject(samples(rank, count))).flat();
  const per = Math.floor(pool.length / rank.size);
  const slice = pool.slice(rank.rank * per, (rank.rank + 1) * per);
  const rewards = stack(slice.map((s) => (args.fix ? s.reward.to(rank.device) : s.reward)));
  return {
    slice: [rank.rank * per, (rank.rank + 1) * per],
    shape: [...rewards.shape],
    device: rewards.device,
    origins: [...new Set(slice.map((s) => s.reward.device))],
  };
}

/** A reward model crashes on rank 1 (rank 0 when alone) while the others wait in allGather. */
export async function crashingRank(rank: Rank) {
  await rank.barrier();
  if (rank.rank === Math.min(1, rank.size - 1))
    throw new Error(`reward model crashed on rank ${rank.rank} (CUDA error: device-side assert triggered, simulated)`);
  await rank.allGather(new Float32Array(16));
  return {};
}
