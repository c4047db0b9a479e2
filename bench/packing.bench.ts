// Each framework home's packer (src/core/frameworks/index.ts, a PackerDef): one step of 102,400
// samples (12,800 prompts × 8, token counts torch.randint(16, 513) on MT19937(0)) packed over 64
// ranks, beside the same at 10,240 samples: the ratio says how the packer grows (10 = linear). The figure is the
// process's CPU time while it packs (process.cpuUsage), with the wall time beside it.
// The sweep at scale: the 102,400 samples over 1,024 ranks too (WIDE).
// Each runs in its own process (bench/packing-one.ts) under a time limit, GRPO_BENCH_PACK_LIMIT_S
// seconds (default 60): a packer that grows quadratically takes minutes at 10^5 samples.
import os from 'node:os';
import { FRAMEWORK_HOMES } from '../src/core/frameworks/index.ts';
import { type PackRun, RANKS, SIZES, packOnce } from './packing-one.ts';
import { printTable } from './timing.ts';

/** The ranks of the sweep at scale. */
const WIDE = 1024;

export default function bench(): void {
  const limitS = Number(process.env.GRPO_BENCH_PACK_LIMIT_S ?? 60);
  const load = () => os.loadavg()[0]!.toFixed(1);
  console.log(`load average before: ${load()}; one run per size, each in its own process, stopped after ${limitS} s; ${RANKS} ranks`);
  const rows: (string | number)[][] = [];
  for (const home of FRAMEWORK_HOMES) {
    if (!home.packing || !('pack' in home.packing)) continue;
    const runs = SIZES.map((n) => packOnce(home.name, n, limitS));
    const said = (r: PackRun) => (r.timedOut ? `> ${limitS * 1000}` : r.error ? 'error' : r.cpuMs!.toFixed(0));
    const [small, large] = runs as [PackRun, PackRun];
    const wide = packOnce(home.name, SIZES[1]!, limitS, WIDE);
    rows.push([
      home.name,
      said(small),
      said(large),
      small.cpuMs && large.cpuMs ? (large.cpuMs / small.cpuMs).toFixed(1) : '—',
      large.microBatchesPerRank ?? '—',
      large.ms !== undefined ? large.ms.toFixed(0) : '—',
      large.cpuMs !== undefined ? (large.cpuMs < 1000 ? 'yes' : 'no') : 'no',
      wide.cpuMs !== undefined ? `${wide.cpuMs.toFixed(0)} (${wide.cpuMs < 1000 ? 'yes' : 'no'})` : said(wide),
    ]);
    for (const r of [...runs, wide]) if (r.error) console.log(`  ${home.name}: ${r.error}`);
  }
  printTable(
    [
      'home',
      `CPU ms at ${SIZES[0]}`,
      `CPU ms at ${SIZES[1]}`,
      'ratio (10 = linear)',
      'micro-batches per rank',
      `wall ms at ${SIZES[1]}`,
      '< 1 s CPU',
      `CPU ms at ${SIZES[1]} on ${WIDE} ranks (< 1 s)`,
    ],
    rows,
  );
  console.log(`load average after: ${load()}`);
  console.log(
    "The frameworks' own Python packers on the same input: bench/packing-python.bench.ts (`npm run bench -- packing` runs both).",
  );
}
