// randperm(10^6) on the PyTorch-exact generator, next to what bounds it: the raw MT19937 draws
// it needs, the 64-bit branch PyTorch uses from n = 214748364 on (forced here on the same n),
// and an unseeded Fisher–Yates on Math.random as a floor for "a shuffle in JS".
import { Mt19937, randperm } from '../src/core/rng/index.ts';
import { spawnSync } from 'node:child_process';
import { findTorch } from './find-torch.ts';
import { medianMs, printTable } from './timing.ts';

const N = 1_000_000;

function mathRandomShuffle(n: number): Int32Array {
  const r = new Int32Array(n);
  for (let i = 0; i < n; i++) r[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const t = r[i]!;
    r[i] = r[j]!;
    r[j] = t;
  }
  return r;
}

export default async function bench(): Promise<void> {
  let sink = 0;
  const cases: [string, () => void][] = [
    [
      'randperm(1e6), torch branch n < 214748364',
      () => {
        sink ^= randperm(N, new Mt19937(42))[0]!;
      },
    ],
    [
      '1e6 raw MT19937 draws',
      () => {
        const g = new Mt19937(42);
        for (let i = 0; i < N; i++) sink ^= g.random();
      },
    ],
    [
      'randperm(1e6), 64-bit branch forced',
      () => {
        sink ^= randperm(N, new Mt19937(42), { largeThreshold: 0 })[0]!;
      },
    ],
    [
      'Math.random Fisher–Yates (not PyTorch)',
      () => {
        sink ^= mathRandomShuffle(N)[0]!;
      },
    ],
  ];
  const rows: (string | number)[][] = [];
  let base = 0;
  for (const [name, fn] of cases) {
    const ms = await medianMs(fn, 9, 2);
    if (!base) base = ms;
    rows.push([name, ms.toFixed(1), (ms / base).toFixed(2)]);
  }
  // torch.randperm(10^6) on one thread, the same median of 9, timed inside Python.
  const torch = findTorch();
  if ('python' in torch) {
    const code =
      'import torch,time,statistics\ntorch.set_num_threads(1)\ng=torch.Generator().manual_seed(42)\nts=[]\n' +
      'for _ in range(11):\n t=time.perf_counter();torch.randperm(10**6,generator=g);ts.append((time.perf_counter()-t)*1000)\n' +
      'print(statistics.median(ts[2:]), torch.__version__)';
    const run = spawnSync(torch.python, ['-c', code], { encoding: 'utf8' });
    const [ms, version] = run.stdout.trim().split(' ');
    if (run.status === 0)
      rows.push([`torch.randperm(1e6), PyTorch ${version}, 1 thread`, Number(ms).toFixed(1), (Number(ms) / base).toFixed(2)]);
    else rows.push(['torch.randperm(1e6)', 'failed', run.stderr.trim().split('\n').at(-1) ?? '']);
  } else console.log(`PyTorch row left out: ${torch.reason}`);
  printTable(['case (n = 10^6, median of 9)', 'ms', 'ratio'], rows);
  if (sink === 0.5) console.log(sink); // keeps the work observable
}
