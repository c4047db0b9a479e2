// allGather of 1 MiB per rank across 8 ranks, three ways, in one run:
//   1. the SharedArrayBuffer arena (src/ranks), timed inside the ranks, result into a reused buffer;
//   2. a single thread copying the same bytes with TypedArray.set (every rank's 8 MiB result:
//      8 × 8 × 1 MiB = 64 MiB), the memory-bandwidth yardstick;
//   3. postMessage gathering: each worker posts its 1 MiB (structured clone) to the main thread,
//      which posts all 8 to every worker, which assembles its 8 MiB result.
// "Effective bandwidth" = bytes that land in the ranks' results (64 MiB) / time.
import { Worker } from 'node:worker_threads';
import { World } from '../src/ranks/world.ts';
import { medianMs, printTable } from './timing.ts';

const RANKS = 8;
const BYTES = 2 ** 20;
const REPS = 25;
const delivered = RANKS * RANKS * BYTES;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function arena(): Promise<number> {
  const world = await World.start({ size: RANKS, arenaBytes: RANKS * BYTES });
  try {
    const perRank = await world.run<number[]>({ module: 'builtin:bench', name: 'allGatherTimes' }, { bytes: BYTES, reps: REPS, warmup: 3 });
    // An allGather is done when its slowest rank is: the max over ranks of each repetition.
    return median(perRank[0]!.map((_, i) => Math.max(...perRank.map((t) => t[i]!))));
  } finally {
    await world.stop();
  }
}

async function copy(): Promise<number> {
  const sources = Array.from({ length: RANKS }, (_, r) => new Float32Array(BYTES / 4).fill(r));
  const results = Array.from({ length: RANKS }, () => new Float32Array((RANKS * BYTES) / 4));
  return medianMs(
    () => {
      for (const out of results) sources.forEach((s, r) => out.set(s, r * s.length));
    },
    REPS,
    3,
  );
}

// The postMessage worker: on 'send', posts its 1 MiB (cloned); on receiving all parts, assembles them.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const mine = new Float32Array(workerData.bytes / 4).fill(workerData.rank);
const out = new Float32Array(workerData.ranks * mine.length);
parentPort.on('message', (m) => {
  if (m === 'send') return parentPort.postMessage(mine);
  m.forEach((part, r) => out.set(part, r * part.length));
  parentPort.postMessage(out[out.length - 1]);
});`;

async function postMessage(): Promise<number> {
  const workers = Array.from(
    { length: RANKS },
    (_, rank) => new Worker(WORKER, { eval: true, workerData: { rank, ranks: RANKS, bytes: BYTES } }),
  );
  const next = (w: Worker) => new Promise<unknown>((resolve) => w.once('message', resolve));
  try {
    return await medianMs(
      async () => {
        const parts = await Promise.all(
          workers.map((w) => {
            const p = next(w);
            w.postMessage('send');
            return p;
          }),
        );
        await Promise.all(
          workers.map((w) => {
            const p = next(w);
            w.postMessage(parts);
            return p;
          }),
        );
      },
      REPS,
      3,
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

export default async function run(): Promise<void> {
  const copyMs = await copy();
  const arenaMs = await arena();
  const postMs = await postMessage();
  const gbps = (ms: number) => (delivered / 1e9 / (ms / 1e3)).toFixed(2);
  console.log(
    `allGather of ${BYTES / 2 ** 20} MiB per rank across ${RANKS} ranks; ${delivered / 2 ** 20} MiB land in the ranks' results; median of ${REPS}`,
  );
  printTable(
    ['method', 'ms', 'effective GB/s', 'bandwidth vs copy'],
    [
      ['TypedArray.set copy, 1 thread', copyMs.toFixed(2), gbps(copyMs), '1.00'],
      ['SharedArrayBuffer arena allGather', arenaMs.toFixed(2), gbps(arenaMs), (copyMs / arenaMs).toFixed(2)],
      ['postMessage gather via main thread', postMs.toFixed(2), gbps(postMs), (copyMs / postMs).toFixed(2)],
    ],
  );
  console.log(
    `arena vs postMessage: ${(postMs / arenaMs).toFixed(1)}× faster (aim ≥ 10×); arena vs copy: ${(copyMs / arenaMs).toFixed(2)} of the copy ` +
      `bandwidth (aim ≥ 0.5)`,
  );
}
