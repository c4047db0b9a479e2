// A command run in this process (bench/layout-scale and steps-scale): the work of the real CLI call
// without the runtime's start, wall and CPU time, median of `reps` after one warm-up run.
import { memoryIo } from '../src/cli/io.ts';
import { main } from '../src/cli/main.ts';

export interface CliTiming {
  /** Median wall milliseconds of the call. */
  wallMs: number;
  /** Median CPU milliseconds of the process during the call (every thread: the GC's too). */
  cpuMs: number;
  /** Characters the command printed on stdout. */
  chars: number;
}

export async function timeCli(argv: string[], reps = 3): Promise<CliTiming> {
  const once = async () => {
    const io = memoryIo();
    const before = process.cpuUsage();
    const t0 = performance.now();
    const status = await main(argv, io);
    const wallMs = performance.now() - t0;
    const used = process.cpuUsage(before);
    if (status !== 0) throw new Error(`${argv.join(' ')}: exit ${status}: ${io.stderr.trim().slice(0, 300)}`);
    return { wallMs, cpuMs: (used.user + used.system) / 1000, chars: io.stdout.length };
  };
  await once();
  const runs: CliTiming[] = [];
  for (let i = 0; i < reps; i++) runs.push(await once());
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { wallMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)), chars: runs[0]!.chars };
}
