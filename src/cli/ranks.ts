// `grpo-sandbox ranks`: starts a world of simulated ranks (on worker threads), runs a healthy
// step (allGather, allReduce, allGatherObject) or reproduces one seeded failure on purpose,
// and prints what happened in words. Exit 0 when the step succeeded, 1 when the simulated
// run failed (as the real one would), 2 on bad flags.
import { ConfigError } from '../core/errors.ts';
import { MAX_WORLD } from '../ranks/arena.ts';
import { BACKEND_ABOUT, BACKEND_BEHAVIOURS, type BackendBehaviour } from '../ranks/backend.ts';
import type { HealthySummary } from '../ranks/programs/seeds.ts';
import { World, WorldFailure } from '../ranks/world.ts';
import type { Command } from './commands.ts';
import { choiceFlag, intFlag, parseFlags } from './flags.ts';

const FAULTS = {
  none: { program: 'healthy', about: 'a healthy step: allGather, allReduce (sum, max) and allGatherObject across all ranks' },
  shape: { program: 'unevenBatches', about: 'seed-002: a pool 2 samples short, sliced 16 per rank, so the last rank gathers 14 rows' },
  deadlock: { program: 'skippedCollective', about: 'seed-004 V2: the last rank skips the allGatherObject the others wait in' },
  mismatch: { program: 'skippedCollective', about: 'seed-004 V2: the last rank skips the allGatherObject and calls barrier instead' },
  device: { program: 'pooledStack', about: 'seed-004: pooled samples keep their origin device; stacking a slice mixes devices' },
  throw: { program: 'crashingRank', about: 'a rank throws (its reward model crashes) while the others wait in allGather' },
} as const;
type Fault = keyof typeof FAULTS;

/** How the failure is shown, per backend behaviour: whose behaviour it imitates, said plainly. */
export const SHOWN_AS: Record<BackendBehaviour, string> = {
  nccl: 'as NCCL would (imitated: the world hangs until a simulated watchdog fires; no NCCL runs here)',
  gloo: 'as gloo raises it (torch 2.13 wording, reproduced on real gloo processes)',
  detail: 'as torch raises it with TORCH_DISTRIBUTED_DEBUG=DETAIL (torch 2.13 wording, reproduced on real gloo processes)',
  sandbox: "in the sandbox's own words (no real backend reports it this way)",
};

/** The backend behaviour flag of `ranks` and `dynamic`, and the hang timeout it implies. */
export const BACKEND_HELP = `  --backend-behaviour B  how a collective whose ranks disagree (shapes, dtypes, which collective) ends (default nccl):
${BACKEND_BEHAVIOURS.map((b) => `                     ${b.padEnd(8)} ${BACKEND_ABOUT[b]}`).join('\n')}
  --watchdog-ms MS   nccl only: how long the ranks hang in a mismatched collective before the simulated watchdog fires
                     (default 2000; torch's is 10 minutes)`;

/** The backend behaviour and NCCL's watchdog timeout from the flags; --watchdog-ms with another behaviour is a mistake. */
export function backendFlags(flags: { 'backend-behaviour'?: string; 'watchdog-ms'?: string }): {
  backend: BackendBehaviour;
  watchdogMs: number | undefined;
} {
  const backend = choiceFlag(flags['backend-behaviour'], 'backend-behaviour', BACKEND_BEHAVIOURS) ?? 'nccl';
  const watchdog = intFlag(flags['watchdog-ms'], 'watchdog-ms', 1, 600_000);
  if (watchdog !== undefined && backend !== 'nccl')
    throw new ConfigError(`--watchdog-ms is NCCL's watchdog and applies to --backend-behaviour nccl, not '${backend}'`);
  return { backend, watchdogMs: watchdog };
}

const USAGE = `usage: grpo-sandbox ranks [--world N] [--fault none|shape|deadlock|mismatch|device|throw] [--fix] [--timeout-ms MS]
                          [--backend-behaviour nccl|gloo|detail|sandbox] [--watchdog-ms MS] [--json]

Starts N simulated ranks (one worker thread each, sharing one SharedArrayBuffer) and runs one step.
  --world N        number of ranks, 1 to ${MAX_WORLD} (default 4)
  --fault F        reproduce a seeded failure (default none):
${Object.entries(FAULTS)
  .map(([k, v]) => `                     ${k.padEnd(9)}${v.about}`)
  .join('\n')}
  --fix            apply the scenario's fix (equal batches, every rank calls every collective, .to(device))
  --timeout-ms MS  a collective with no progress for MS is diagnosed as a hang (default max(2000, 50 × world); the clock starts
                   once every rank has begun its step); a line on stderr every 5 s says who waits for what
${BACKEND_HELP}
  --json           one JSON object on stdout {world, fault, fix, backend, ok, ranks, error?}
Results go to stdout without timings (byte-stable); timings, diagnosis and progress go to stderr.
Exit status: 0 the step succeeded, 1 the simulated run failed (diagnosis printed), 2 bad flags.`;

/** The hang timeout when --timeout-ms is not given, in ms: 2 s, or 50 ms per rank for big worlds. */
export function defaultTimeoutMs(world: number): number {
  return Math.max(2000, 50 * world);
}

function runtime(): string {
  return 'Deno' in globalThis ? 'Deno Web Workers' : 'Node worker_threads';
}

function printHealthy(out: (line?: string) => void, results: HealthySummary[]): void {
  const r0 = results[0]!;
  const same = results.every((r) => JSON.stringify({ ...r, device: '' }) === JSON.stringify({ ...r0, device: '' }));
  const w = results.length;
  out(
    `allGather        each rank sent rewards of shape [2, 1]; every rank now holds [${r0.gatheredShape.join(', ')}], rank-major (rank r's rows ` +
      `at ${w > 1 ? '2r, 2r+1' : '0, 1'})`,
  );
  out(`                 gathered rewards: ${r0.gathered.map((x) => x.toFixed(1)).join(' ')}`);
  out(
    `allReduce        sum of per-rank reward sums = ${r0.rewardSum.toFixed(4)}, max = ${r0.rewardMax.toFixed(1)} (summed in rank order ` +
      `0…${w - 1}: bit-identical on every rank)`,
  );
  const origins = r0.poolOrigins.map((d) => d.replace('sim:', ''));
  out(
    `allGatherObject  pool of ${r0.poolSize} samples; origin rank of each: ${origins.join(' ')} (their reward tensors still live on sim:<origin>)`,
  );
  out(`devices          ${results.map((r) => r.device).join(', ')}`);
  out(same ? `check            all ${w} ranks received identical results` : 'check            RANKS DISAGREE (a bug: please report it)');
}

/** The shortest world in which each fault can happen (one rank has no one to disagree with). */
const MIN_WORLD: Record<Fault, number> = { none: 1, shape: 2, deadlock: 2, mismatch: 2, device: 2, throw: 2 };

const command: Command = {
  summary: 'simulated ranks on worker threads: collectives, and five seeded multi-rank failures explained (--fault)',
  async run(args, io) {
    // Results go to stdout in a stable form (no timings), diagnosis and progress to stderr.
    const out = (line = '') => io.out(`${line}\n`);
    const note = (line: string) => io.err(`${line}\n`);
    const flags = parseFlags(args, {
      world: { type: 'string' },
      fault: { type: 'string' },
      fix: { type: 'boolean' },
      'timeout-ms': { type: 'string' },
      'backend-behaviour': { type: 'string' },
      'watchdog-ms': { type: 'string' },
      json: { type: 'boolean' },
    });
    if (flags.help) {
      out(USAGE);
      return 0;
    }
    const size = intFlag(flags.world, 'world', 1, MAX_WORLD) ?? 4;
    // The default grows with the world: hundreds of rank threads share a few cores, and a healthy
    // rank that waits its turn for a core is not hung (Deno's 256-rank step under load took > 2 s
    // between two collectives and was wrongly diagnosed as a hang with a flat 2000 ms).
    const timeoutMs = intFlag(flags['timeout-ms'], 'timeout-ms', 1, 600_000) ?? defaultTimeoutMs(size);
    const { backend, watchdogMs } = backendFlags(flags);
    const fault = choiceFlag(flags.fault, 'fault', Object.keys(FAULTS) as Fault[]) ?? 'none';
    if (flags.fix && (fault === 'none' || fault === 'throw'))
      throw new ConfigError(`--fix applies to --fault shape, deadlock, mismatch or device, not '${fault}'`);
    if (size < MIN_WORLD[fault]) {
      throw new ConfigError(
        `--fault ${fault} cannot happen with --world ${size}: it needs at least ${MIN_WORLD[fault]} ranks ` +
          `(one misbehaves or differs, another waits or disagrees); use --world ${MIN_WORLD[fault]} or more`,
      );
    }
    const f = FAULTS[fault];
    note(
      `${size} ranks on ${runtime()}, one SharedArrayBuffer arena, backend behaviour ${backend}; ${f.about}` +
        `${flags.fix ? ' — with the fix applied' : ''}`,
    );
    const world = await World.start({ size, timeoutMs, backend, ...(watchdogMs !== undefined && { watchdogMs }) });
    const module = 'builtin:seeds';
    const t0 = performance.now();
    // A long timeout must not look like a freeze: every few seconds, who waits for what.
    const progress = {
      everyMs: 5000,
      report: (lines: string[]) =>
        note(`still running after ${((performance.now() - t0) / 1000).toFixed(0)} s (hang timeout ${timeoutMs} ms): ${lines.join('; ')}`),
    };
    try {
      const results = await world.run<Record<string, unknown>>(
        { module, name: f.program },
        { fix: !!flags.fix, then: fault === 'mismatch' ? 'barrier' : 'nothing' },
        progress,
      );
      note(`the step finished on all ${size} ranks in ${(performance.now() - t0).toFixed(0)} ms`);
      if (flags.json) out(JSON.stringify({ world: size, fault, fix: !!flags.fix, backend, ok: true, ranks: results }));
      else {
        if (fault === 'none') printHealthy(out, results as unknown as HealthySummary[]);
        else for (const [r, res] of results.entries()) out(`rank ${r}: ${JSON.stringify(res)}`);
        out(`ok: the step finished on all ${size} ranks`);
      }
      return 0;
    } catch (err) {
      if (!(err instanceof WorldFailure)) throw err;
      // Only a collective's mismatch or watchdog is worded as a backend shows it; a rank's own error, or a hang the sandbox
      // detected, reads the same under any backend behaviour.
      const shown = err.backendWorded ? `. Shown ${SHOWN_AS[backend]}` : '';
      note(`the simulated run failed after ${(performance.now() - t0).toFixed(0)} ms; every worker is stopped${shown}:`);
      note(err.message);
      const ranks = err.ranks.map((o) => (o.ok ? { rank: o.rank, ok: true } : { rank: o.rank, ok: false, error: o.name }));
      const root = err.ranks[err.root];
      const rootText = root && !root.ok ? `${root.name} on rank ${root.rank}` : 'a failure';
      if (flags.json) out(JSON.stringify({ world: size, fault, fix: !!flags.fix, backend, ok: false, error: rootText, ranks }));
      else out(`failed: ${rootText} (the diagnosis is on stderr)`);
      return 1;
    } finally {
      await world.stop();
    }
  },
};

export default command;
