// `grpo-sandbox dynamic`: one step of synchronized dynamic sampling on real ranks (one worker
// each), logged the way seed-002 tells it: the pool filling up resample by resample, each
// rank's slice and where its samples came from, the shortage, then the trainer's next gather.
// `--sweep` runs the sparsity study instead (src/cli/dynamic-sweep.ts).
// Exit 0 the step trained, 1 the simulated run failed (diagnosis printed), 2 bad flags.
import { type DynamicConfig, POLICIES, POLICY_ABOUT, type Policy, plural } from '../core/dynamic/index.ts';
import { DYNAMIC_SETTINGS, type DynamicRequest, dynamicSettingsFrom } from '../core/dynamic/settings.ts';
import { ConfigError } from '../core/errors.ts';
import { type BackendChoice, type RunRecord, runDynamicOnce } from '../ranks/dynamic-run.ts';
import type { PlanSummary } from '../ranks/programs/dynamic.ts';
import type { Command } from './commands.ts';
import { runSweepCommand, SWEEP_FLAGS, SWEEP_USAGE } from './dynamic-sweep.ts';
import { type FlagSpec, parseFlags } from './flags.ts';
import { helpLine } from './layout-flags.ts';
import { settingFlagSpec, settingsHelp } from './setting-help.ts';
import { BACKEND_HELP, backendFlags, SHOWN_AS } from './ranks.ts';

const USAGE = `usage: grpo-sandbox dynamic [--preset seed-002|seed-004|none] [--policy P] [--ranks W] [--per-rank L] [--k K]
                            [--max-resample-times N] [--p P] [--seed S] [--device-fix on|off] [--range MIN,MAX]
                            [--backend-behaviour nccl|gloo|detail|sandbox] [--watchdog-ms MS] [--json]
       grpo-sandbox dynamic --sweep [sweep flags]

One step of dynamic sampling on W simulated ranks: every rank generates L samples (L/K prompts × K), the
batch is gathered with allGatherObject, groups whose rewards all tie are dropped, and the ranks resample
together until the pool holds W·L valid samples or N resamples are spent; then each rank takes its slice,
stacks its reward tensors and gathers them for the loss.
${settingsHelp(DYNAMIC_SETTINGS)}${BACKEND_HELP}
${helpLine('--json', 'print the same data as JSON')}Policies:
${POLICIES.map((p) => `  ${p.padEnd(11)}${POLICY_ABOUT[p]}`).join('\n')}
Exit status: 0 the step trained, 1 the simulated run failed (diagnosis printed), 2 bad flags.

${SWEEP_USAGE}`;

const STEP_FLAGS = {
  ...settingFlagSpec(DYNAMIC_SETTINGS),
  'backend-behaviour': { type: 'string' },
  'watchdog-ms': { type: 'string' },
  json: { type: 'boolean' },
  sweep: { type: 'boolean' },
} as const satisfies FlagSpec;

/** One line of stdout, through the command's io (a full disk or closed pipe is one line, or quiet, never a stack trace). */
type Out = (line?: string) => void;

const label = (draw: number, policy: Policy) => (draw === 0 ? 'initial batch' : policy === 'stream' ? `round ${draw}` : `resample ${draw}`);

/** `ranks 0, 1` from the origins of a slice, in order of first appearance. */
function originText(origins: number[]): string {
  const seen = [...new Set(origins)];
  if (seen.length === 0) return 'no samples';
  const counts = seen.map((r) => `${origins.filter((o) => o === r).length} from rank ${r}`);
  return counts.join(', ');
}

function printPlan(plan: PlanSummary, config: DynamicConfig, out: Out): void {
  const T = plan.target;
  // A stream on a hard task runs thousands of rounds: show the first and last ones.
  const shown = plan.events.length > 12 ? [...plan.events.slice(0, 8), null, ...plan.events.slice(-3)] : plan.events;
  for (const e of shown) {
    if (e === null) {
      out(`…               ${plural(plan.events.length - 11, 'more round')}`);
      continue;
    }
    const byRank = e.addedByRank.join(' ');
    out(
      `${label(e.draw, plan.policy).padEnd(14)}  ${String(e.generated).padStart(3)} generated, ${plural(e.groups, 'group')}, ${e.flatGroups} flat → ` +
        `${e.draw === 0 ? `${e.added} valid` : `+${e.added}`} (by rank: ${byRank}) → pool ${e.pool}/${T}`,
    );
  }
  const resamples = plural(plan.resamples, plan.policy === 'stream' ? 'replacement round' : 'resample');
  out(
    `final pool      ${plan.pool}/${T} after ${resamples}; ${plural(plan.generated, 'generation')} (${plan.extraGenerations} beyond one batch)`,
  );
  if (plan.shortage > 0) out(`Shortage: ${plan.shortage}/${T}`);
  for (const note of plan.notes) out(`warning         ${note}`);
  if (plan.invalidGroupsKept) out(`invalid groups kept: ${plan.invalidGroupsKept} (flat groups of the original batch, trained on anyway)`);
  if (plan.duplicated) out(`duplicated samples: ${plan.duplicated} (copies of random valid samples)`);
  if (plan.discardedSurplus) out(`discarded surplus: ${plural(plan.discardedSurplus, 'valid sample')} beyond ${T}`);
  // A framework error is printed with the failure, after the check, where the run stops.
  if (plan.error) return;
  for (const s of plan.slices) {
    const where = s.from === null ? `(${s.source})` : `[${s.from}:${s.to}]`;
    const mark = s.size !== config.perRank ? `  ← ${s.size} of ${config.perRank}` : '';
    out(
      `rank ${s.rank} slice    ${where.padEnd(9)} ${String(s.size).padStart(2)} ${s.size === 1 ? 'sample' : 'samples'}, ` +
        `${plural(s.groups, 'group')}: ${originText(s.origins)}${mark}`,
    );
  }
}

/** Where the framework stops when its generation loop raises: no slice, no train step. */
function printGenerationFailure(run: RunRecord, config: DynamicConfig, out: Out): void {
  const plan = run.plan!;
  const batches = plan.events.length;
  const where =
    plan.policy === 'raise'
      ? `, where verl raises: right after filtering generation batch ${batches} (max_num_gen_batches=${config.maxResampleTimes + 1}), `
      : plan.policy === 'raise-nemo'
        ? `, where NeMo RL raises: after generation batch ${batches}, one past its maximum of ${config.maxResampleTimes + 1}, `
        : ', ';
  out(`the simulated run failed in the generation loop${where}before any slice is taken or the train step runs; every worker is stopped:`);
  out(`  ${run.failure!}`);
}

function printConsume(run: RunRecord, config: DynamicConfig, backend: BackendChoice['backend'], out: Out): void {
  const gatherKind = config.policy === 'rebalance' ? 'allGatherVariable' : 'allGather';
  out(
    `train step      each rank: torch.stack(rewards of its slice)${run.deviceFix ? ' after .to(rank.device)' : ' (tensors not moved)'}, then ` +
      `${gatherKind} for the loss`,
  );
  if (run.ok) {
    for (const [r, res] of run.ranks!.entries())
      out(
        `rank ${r}          stacked [${res.shape.join(', ')}] on ${res.device} (slice was on ${res.origins.join(', ') || 'no device'}); gathered ` +
          `${plural(res.gatheredRows, 'row')}`,
      );
    out(`ok: the step trained on ${config.ranks === 1 ? 'its one rank' : `all ${config.ranks} ranks`}`);
  } else {
    // A rank's own error (seed-004's device error) reads the same under any backend; only a collective's mismatch is worded as one.
    out(
      `the simulated run failed; every worker is stopped${run.backendWorded ? `. A collective's mismatch is shown ${SHOWN_AS[backend]}` : ''}:`,
    );
    out(run.failure!);
  }
}

/** One step's request from the command's arguments (what `grpo-sandbox dynamic ARGS` would run). */
export function dynamicRequestFromArgs(args: string[]): DynamicRequest {
  const flags = parseFlags(args, STEP_FLAGS) as Record<string, unknown>;
  return dynamicSettingsFrom((key) => flags[key] as string | undefined);
}

async function runStep(flags: Record<string, unknown>, out: Out): Promise<number> {
  const {
    preset: presetName,
    presetInfo: preset,
    config,
    rewards,
    fixes,
    timeoutMs,
    p,
  } = dynamicSettingsFrom((key) => flags[key] as string | undefined);
  const choice: BackendChoice = backendFlags(flags as { 'backend-behaviour'?: string; 'watchdog-ms'?: string });
  const json = !!flags.json;

  if (!json) {
    if (preset) {
      out(preset.description);
      out(`reward draws: ${preset.draws}`);
    }
    // No runtime name (worker_threads or Web Workers) here: stdout is the same bytes under Node and Deno.
    out(
      `${plural(config.ranks, 'simulated rank')} (a worker each); policy ${config.policy}: ${POLICY_ABOUT[config.policy]}\n` +
        `k = ${config.k}, ${plural(config.perRank / config.k, 'prompt')} × ${config.k} = ${config.perRank} per rank, ` +
        `target ${config.ranks * config.perRank}, ` +
        `max_resample_times ${config.maxResampleTimes}${preset ? '' : `, success probability p = ${p} (a group ties with probability p^k + (1−p)^k)`}`,
    );
  }
  const runs: RunRecord[] = [];
  for (const deviceFix of fixes) {
    const run = await runDynamicOnce(config, rewards, deviceFix, timeoutMs, choice);
    runs.push(run);
    if (json) continue;
    out('');
    if (fixes.length > 1) out(`— run ${runs.length}: device fix ${deviceFix ? 'on' : 'off'} —`);
    if (!run.plan) {
      out('the simulated run failed while collecting, before any slice was taken; every worker is stopped:');
      out(run.failure!);
      continue;
    }
    printPlan(run.plan, config, out);
    out(
      run.identical
        ? `check           ${config.ranks === 1 ? 'one rank: nothing to compare' : `all ${config.ranks} ranks made identical decisions`}`
        : 'check           RANKS DISAGREE (a bug: please report it)',
    );
    if (run.failedIn === 'generation loop') printGenerationFailure(run, config, out);
    else printConsume(run, config, choice.backend, out);
  }
  const last = runs[runs.length - 1]!;
  if (json) out(JSON.stringify({ preset: presetName, config, rewards, runs }, null, 2));
  return last.ok && runs.every((r) => r.identical) ? 0 : 1;
}

const command: Command = {
  summary: 'dynamic sampling on real ranks: filter flat groups, resample together, slice (seed-002/004 presets, every policy, --sweep)',
  async run(args, io) {
    const out: Out = (line = '') => io.out(`${line}\n`);
    const flags = parseFlags(args, { ...STEP_FLAGS, ...SWEEP_FLAGS });
    if (flags.help) {
      out(USAGE);
      return 0;
    }
    if (flags.sweep) return runSweepCommand(flags, io);
    const stray = Object.keys(SWEEP_FLAGS).find((f) => f !== 'sweep' && (flags as Record<string, unknown>)[f] !== undefined);
    if (stray) throw new ConfigError(`--${stray} belongs to --sweep; add --sweep or drop it`);
    return runStep(flags, out);
  },
};

export default command;
