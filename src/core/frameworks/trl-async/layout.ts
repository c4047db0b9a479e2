// The optimizer steps of a TRL async run (trl 1.13.0 wheel, trl/experimental/async_grpo): the rollout worker
// (AsyncRolloutWorker, async_rollout_worker.py) iterates the dataset in order, cycling it, and queues num_generations
// samples per prompt under a new group_id; the trainer pulls them through the planner (planner.ts) and transformers'
// Trainer takes gradient_accumulation_steps micro-batches per optimizer step. _EpochStopCallback stops after the first
// optimizer step by which the collator has seen ceil(num_train_epochs × len(dataset)) distinct group_ids; max_steps
// (AsyncGRPOTrainer.__init__) is a safety ceiling: ceil(num_train_epochs × len(dataset) × num_generations × 32 /
// (per_device_train_batch_size × gradient_accumulation_steps × num_processes)).
// The sandbox lets groups finish in dispatch order (the real queue order follows vLLM's timing) and, with no lag
// model, says nothing here about which policy generated a sample (that is `async --framework trl-async`).
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import type { FrameworkCount, FrameworkLayout, FrameworkSettings, FrameworkStep } from '../types.ts';
import { type MicroBatch, type TrlAsyncConfig, plan, resolveConfig } from './planner.ts';

/** Groups the stream may hold beyond the epoch target, doubled from it, before the sandbox says the planner starves. */
const MORE_GROUPS = 64;

/** The distinct group_ids the epoch stop waits for. */
export const targetGroups = (c: TrlAsyncConfig): number => Math.ceil(c.epochs * c.datasetSize);

/** AsyncGRPOTrainer.__init__'s max_steps ceiling (max_tool_calling_iterations None: 32 rows a conversation at most). */
export function maxStepsCeiling(c: TrlAsyncConfig): number {
  const samplesPerStep = c.perDeviceTrainBatchSize * c.gradientAccumulationSteps * c.numProcesses;
  return Math.ceil((c.epochs * c.datasetSize * c.numGenerations * 32) / samplesPerStep);
}

/** The most groups the sandbox streams: the epoch target, doubled while no stop is reached, up to 4× + MORE_GROUPS. */
export const groupCap = (c: TrlAsyncConfig): number => 4 * targetGroups(c) + MORE_GROUPS;

function streamSeqlens(c: TrlAsyncConfig, count: number, given?: readonly number[]): number[] {
  if (!given) {
    const drawn = Array.from(randint(new Mt19937(c.seed), SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, count));
    return c.maxModelLen === null ? drawn : drawn.map((n) => Math.min(n, c.maxModelLen!));
  }
  const bad = given.findIndex((n) => !Number.isSafeInteger(n) || n < 1);
  if (bad >= 0) throw new ConfigError(`seqlens[${bad}] must be a whole number of tokens ≥ 1, got ${given[bad]}`);
  if (c.maxModelLen !== null) {
    const over = given.findIndex((n) => n > c.maxModelLen!);
    if (over >= 0)
      throw new ConfigError(
        `seqlens[${over}] is ${given[over]} tokens, above max_model_len ${c.maxModelLen}: the vLLM server refuses such a request`,
      );
  }
  return given.slice(0, count);
}

/** One optimizer step's slice of the stream: its micro-batches and the samples pulled for it. */
export interface StreamStep {
  /** Stream indices [from, to): every sample pulled while its micro-batches filled (dropped ones included). */
  from: number;
  to: number;
  microBatches: MicroBatch[];
}

export interface Stream {
  seqlens: number[];
  steps: StreamStep[];
  /** Why the steps end: the epoch stop, the max_steps ceiling, or too few samples (the planner would wait for more). */
  stop: 'epochs' | 'max-steps' | 'starved';
  dropped: number[];
  groups: number;
}

/** The run's optimizer steps from the stream of `groups` groups, with the stop rule. */
function stepsOf(c: TrlAsyncConfig, seqlens: readonly number[]): { steps: StreamStep[]; stop: Stream['stop']; dropped: number[] } {
  const planned = plan(seqlens, c);
  const ga = c.gradientAccumulationSteps;
  const ceiling = maxStepsCeiling(c);
  const target = targetGroups(c);
  const trained = new Set<number>();
  const first = (mb: MicroBatch) => mb.reduce((lo, row) => row.reduce((a, s) => Math.min(a, s), lo), Number.POSITIVE_INFINITY);
  const steps: StreamStep[] = [];
  for (let j = 0; (j + 1) * ga <= planned.yielded.length; j++) {
    const microBatches = planned.yielded.slice(j * ga, (j + 1) * ga);
    const next = planned.yielded[(j + 1) * ga];
    const to = next ? first(next) : planned.held.length ? planned.held[0]! : seqlens.length;
    steps.push({ from: j === 0 ? 0 : steps[j - 1]!.to, to, microBatches });
    for (const mb of microBatches) for (const row of mb) for (const s of row) trained.add(Math.floor(s / c.numGenerations));
    const stop = trained.size >= target ? 'epochs' : steps.length >= ceiling ? 'max-steps' : null;
    if (stop) return { steps, stop, dropped: planned.dropped.filter((s) => s < to) };
  }
  const end = steps.at(-1)?.to ?? 0;
  return { steps, stop: 'starved', dropped: planned.dropped.filter((s) => s < end) };
}

export function buildStream(c: TrlAsyncConfig, given?: readonly number[]): Stream {
  const most = given ? Math.min(groupCap(c), Math.floor(given.length / c.numGenerations)) : groupCap(c);
  if (most === 0)
    throw new ConfigError(`--seqlens gives ${given!.length} token counts; one group needs num_generations ${c.numGenerations}`);
  let groups = Math.min(most, targetGroups(c));
  for (;;) {
    const seqlens = streamSeqlens(c, groups * c.numGenerations, given);
    const made = stepsOf(c, seqlens);
    if (made.stop !== 'starved' || groups >= most) return { seqlens, ...made, groups };
    groups = Math.min(most, groups * 2);
  }
}

export function layout(settings: FrameworkSettings, given?: readonly number[]): FrameworkLayout {
  const c = resolveConfig(settings);
  const stream = buildStream(c, given);
  const prompt = (s: number) => Math.floor(s / c.numGenerations) % c.datasetSize;
  const perEpoch = new Map<number, number>();
  const steps: FrameworkStep[] = stream.steps.map(({ from, to, microBatches }) => {
    const epoch = Math.floor(from / (c.numGenerations * c.datasetSize));
    const step = perEpoch.get(epoch) ?? 0;
    perEpoch.set(epoch, step + 1);
    const prompts: number[] = [];
    for (let s = from; s < to; s++)
      if (s === from || Math.floor(s / c.numGenerations) !== Math.floor((s - 1) / c.numGenerations)) prompts.push(prompt(s));
    const sources = Array.from({ length: c.numProcesses }, (_, r) => microBatches.flatMap((mb) => mb[r]!.map((s) => s - from)));
    return {
      epoch,
      step,
      prompts,
      ranks: sources.map((rank) => rank.map((i) => prompt(i + from))),
      sources,
      seqlens: stream.seqlens.slice(from, to),
    };
  });
  return { steps, counts: counts(c, stream), notes: notes(c, stream, !given), warnings: warnings(c, stream) };
}

function counts(c: TrlAsyncConfig, stream: Stream): FrameworkCount[] {
  return [
    {
      name: 'epoch stop',
      value: targetGroups(c),
      how: `ceil(num_train_epochs ${c.epochs} × len(dataset) ${c.datasetSize}) = ${targetGroups(c)} distinct group_ids trained`,
    },
    {
      name: 'max_steps',
      value: maxStepsCeiling(c),
      how:
        `ceil(${c.epochs} × ${c.datasetSize} prompts × num_generations ${c.numGenerations} × 32 / (per_device_train_batch_size ` +
        `${c.perDeviceTrainBatchSize} × gradient_accumulation_steps ${c.gradientAccumulationSteps} × num_processes ${c.numProcesses}))`,
    },
    {
      name: 'optimizer steps',
      value: stream.steps.length,
      how: `gradient_accumulation_steps ${c.gradientAccumulationSteps} micro-batches each`,
    },
  ];
}

function notes(c: TrlAsyncConfig, stream: Stream, synthetic: boolean): string[] {
  const out = [
    'The rollout worker iterates the dataset in order and cycles it; each prompt is one group of num_generations samples with its own group_id. ' +
      'The sandbox queues groups in dispatch order (the real queue follows vLLM’s completion timing) and drops none for staleness.',
    c.tokenBudget > 0
      ? `TokenBudgetBatcher (${c.budgetFrom}) packs the stream into micro-batches of ${c.numProcesses} rows; an optimizer step is ` +
        `gradient_accumulation_steps ${c.gradientAccumulationSteps} of them, whatever their sample count.`
      : `FixedCountBatcher: per_device_train_batch_size ${c.perDeviceTrainBatchSize} × num_processes ${c.numProcesses} samples per micro-batch, ` +
        `balanced over the rows by Σ L²; an optimizer step is gradient_accumulation_steps ${c.gradientAccumulationSteps} of them.`,
  ];
  if (stream.stop === 'starved')
    out.push(
      `After ${stream.steps.length} optimizer steps the planner holds too few samples for another (${stream.groups} groups streamed): ` +
        'TRL would wait on the rollout queue.',
    );
  if (synthetic)
    out.push(
      `Token counts are synthetic: torch.randint(${SYNTHETIC_SEQLEN.low}, ${SYNTHETIC_SEQLEN.high}) per sample from a generator seeded with --seed ${c.seed}` +
        (c.maxModelLen === null ? '.' : `, capped at max_model_len ${c.maxModelLen}.`),
    );
  return out;
}

function warnings(c: TrlAsyncConfig, stream: Stream): string[] {
  return stream.dropped.map(
    (s) =>
      `Dropping a rollout sample of ${stream.seqlens[s]} tokens that exceeds token_budget=${c.tokenBudget}. Raise token_budget to avoid dropping samples.`,
  );
}
