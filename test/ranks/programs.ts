// Rank programs the rank tests run inside real workers. Inputs are a pure function of
// (rank, n, seed) so the main thread can build the expected results with plain loops.
import type { Rank } from '../../src/ranks/rank.ts';
import type { ReduceOp } from '../../src/core/reduce-op.ts';
import { stack } from '../../src/ranks/tensor.ts';

/** Rank r's float32 input of n elements: mixed magnitudes and signs, so summation order matters. */
export function inputFor(rank: number, n: number, seed = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const x = Math.sin((rank + 1) * 12.9898 + (i + 1) * 78.233 + seed * 37.719) * 43758.5453;
    out[i] = (x - Math.floor(x) - 0.5) * 10 ** (((i + rank) % 7) - 3);
  }
  return out;
}

/** No collective: run first, so every worker has imported this module before a timed collective (see faults.test.ts). */
export async function loaded(rank: Rank) {
  return rank.rank;
}

/** The flags this rank's thread was started with (Node: its worker's execArgv; null where there are none). */
export async function threadFlags(_rank: Rank): Promise<string[] | null> {
  return (globalThis as { process?: { execArgv?: string[] } }).process?.execArgv ?? null;
}

/** Every collective once; returns what each produced (small n, so messages are fine for checking). */
export async function everyCollective(rank: Rank, args: { n: number; seed: number }) {
  const { n, seed } = args;
  const x = inputFor(rank.rank, n, seed);
  await rank.barrier();
  const bcast = await rank.broadcast(rank.rank === rank.size - 1 ? x : undefined, rank.size - 1);
  const gathered = await rank.allGather(x);
  const into = new Float32Array(rank.size * n);
  const intoResult = await rank.allGather(x, { out: into });
  const variable = await rank.allGatherVariable(new Int32Array(rank.rank % 3).fill(rank.rank + 1));
  const sum = await rank.allReduce(x);
  const mean = await rank.allReduce(x, { op: 'mean' });
  const max = await rank.allReduce(x, { op: 'max' });
  const inPlace = x.slice();
  const inPlaceResult = await rank.allReduce(inPlace, { op: 'mean', out: inPlace });
  const isum = await rank.allReduce(new Int32Array([rank.rank, -rank.rank, 2 ** 30]), { op: 'sum' });
  const objects = await rank.allGatherObject({
    rank: rank.rank,
    prompt: `p${rank.rank}`,
    reward: rank.tensor(new Float32Array([rank.rank / 2]), [1, 1]),
  });
  const toOne = await rank.gatherObject([rank.rank, { nested: [rank.rank * 2] }], 0);
  return {
    bcast: Array.from(bcast),
    gathered: Array.from(gathered),
    into: intoResult === into ? Array.from(into) : 'not the out array',
    variable: { data: Array.from(variable.data), lengths: variable.lengths },
    sum: Array.from(sum),
    mean: Array.from(mean),
    max: Array.from(max),
    inPlace: inPlaceResult === inPlace ? Array.from(inPlace) : 'not the out array',
    isum: Array.from(isum),
    objects: objects.map((o) => ({
      rank: o.rank,
      prompt: o.prompt,
      device: o.reward.device,
      shape: [...o.reward.shape],
      reward: o.reward.data[0],
    })),
    toOne: toOne ?? null,
    device: rank.device,
  };
}

/** allReduce of inputFor(rank, n, seed) with `op`; returns the result's bits as uint32. */
export async function reduceBits(rank: Rank, args: { n: number; seed: number; op: ReduceOp; repeat: number }) {
  const x = inputFor(rank.rank, args.n, args.seed);
  const runs: number[][] = [];
  for (let i = 0; i < args.repeat; i++) {
    const out = await rank.allReduce(x, { op: args.op });
    runs.push(Array.from(new Uint32Array(out.buffer)));
  }
  return runs;
}

/** seed-002: a 62-sample pool sliced 16 per rank, so the last of 4 ranks holds 14 → allGather of [rows, 1]. */
export async function unevenGather(rank: Rank, args: { pool: number; perRank: number }) {
  const lo = Math.min(args.pool, rank.rank * args.perRank);
  const rows = Math.min(args.pool, lo + args.perRank) - lo;
  await rank.allGather(rank.tensor(new Float32Array(rows), [rows, 1]));
  return rows;
}

/** seed-004 V2: every rank but `skipper` all-gathers; the skipper goes to `then` (a barrier, nothing, or a busy loop of busyMs). */
export async function skipCollective(rank: Rank, args: { skipper: number; then: 'barrier' | 'nothing' | 'sleep'; busyMs?: number }) {
  await rank.allReduce(new Float32Array([1]));
  if (rank.rank !== args.skipper) {
    await rank.allGather(new Float32Array([rank.rank]));
  } else if (args.then === 'barrier') {
    await rank.barrier();
  } else if (args.then === 'sleep') {
    // Busy outside any collective for longer than the world's grace period (timeout + 500 ms).
    // Kept short: Deno cannot interrupt a worker's JS loop (denoland/deno#35657), it runs to its end.
    const end = Date.now() + (args.busyMs ?? 3_000);
    while (Date.now() < end) {
      /* a stuck rank */
    }
  }
  return 'done';
}

/** Rank `thrower` throws after one collective; the others go on to a gather. */
export async function throwing(rank: Rank, args: { thrower: number }) {
  await rank.barrier();
  if (rank.rank === args.thrower) throw new Error(`reward model crashed on rank ${rank.rank}`);
  await rank.allGather(new Float32Array(4));
  return 'done';
}

/** seed-004 V4: gather samples from every rank, take this rank's slice of the pool, stack its rewards (optionally after .to(device)). */
export async function stackPooledRewards(rank: Rank, args: { counts: number[]; fix: boolean }) {
  const mine = Array.from({ length: args.counts[rank.rank]! }, (_, i) => ({
    id: `${rank.rank}-${i}`,
    rewards: rank.tensor(new Float32Array([rank.rank, i])),
  }));
  const pool = (await rank.allGatherObject(mine)).flat();
  const per = Math.floor(pool.length / rank.size);
  const slice = pool.slice(rank.rank * per, (rank.rank + 1) * per);
  const tensors = slice.map((s) => (args.fix ? s.rewards.to(rank.device) : s.rewards));
  const stacked = stack(tensors);
  return { shape: [...stacked.shape], device: stacked.device, origins: slice.map((s) => s.rewards.device) };
}

/** Calls allReduce with the option bag it is given (to check option validation). */
export async function reduceWithOptions(rank: Rank, args: { options: Record<string, unknown> }) {
  return Array.from(await rank.allReduce(new Float32Array([1]), args.options as { op?: ReduceOp }));
}

/** allGather of `bytes` per rank (to check arena growth and its cap). */
export async function gatherBytes(rank: Rank, args: { bytes: number }) {
  const out = await rank.allGather(new Uint8Array(args.bytes).fill(rank.rank + 1));
  let ok = true;
  for (let r = 0; r < rank.size; r++) if (out[r * args.bytes] !== r + 1 || out[(r + 1) * args.bytes - 1] !== r + 1) ok = false;
  return { ok, length: out.length };
}

/** Rank `slow` awaits a timer between collectives (an event-loop wait, as a GPU readback would be). */
export async function asyncWaits(rank: Rank, args: { slow: number; ms: number }) {
  if (rank.rank === args.slow) await new Promise((r) => setTimeout(r, args.ms));
  const out = await rank.allReduce(new Float64Array([rank.rank]), { op: 'max' });
  return { mode: rank.waitMode, max: out[0] };
}

/** Uses this rank's own GPUDevice: uploads [rank + 1, …], reads it back through a staging buffer, then allReduces it (waitMode 'async'). */
export async function gpuRoundTrip(rank: Rank) {
  const device = rank.gpu;
  if (!device) throw new Error(`rank ${rank.rank} has no GPU device`);
  const values = new Float32Array([rank.rank + 1, 2 * (rank.rank + 1)]);
  const src = device.createBuffer({ size: 8, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const staging = device.createBuffer({ size: 8, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(src, 0, values);
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(src, 0, staging, 0, 8);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const back = new Float32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  src.destroy();
  staging.destroy();
  const sum = await rank.allReduce(back);
  return { info: rank.gpuInfo, mode: rank.waitMode, sum: Array.from(sum) };
}

/**
 * allReduce of inputFor(rank, n, seed) with `op`, `repeat` times, in one of its three ways: into a new array
 * ('fresh'), in place into the payload ('inPlace') or into the thread's shared result ('shared'); returns each
 * result's bits (uint32), and whether the payload kept its values where it was not the output.
 */
export async function reduceModes(
  rank: Rank,
  args: { n: number; seed: number; op: ReduceOp; repeat: number; mode: 'fresh' | 'inPlace' | 'shared' },
) {
  const runs: Uint32Array[] = [];
  let kept = true;
  for (let i = 0; i < args.repeat; i++) {
    const x = inputFor(rank.rank, args.n, args.seed);
    const options =
      args.mode === 'shared' ? { op: args.op, shared: true } : args.mode === 'inPlace' ? { op: args.op, out: x } : { op: args.op };
    const out = await rank.allReduce(x, options);
    runs.push(new Uint32Array(out.buffer, out.byteOffset, out.length).slice());
    if (args.mode !== 'inPlace') kept &&= inputFor(rank.rank, args.n, args.seed).every((v, j) => Object.is(v, x[j]));
  }
  return { runs, kept };
}
