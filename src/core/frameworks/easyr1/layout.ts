// The steps of an EasyR1 run (b44b311): RayPPOTrainer.fit runs training_steps steps; each one
// _make_batch_data (prompt draws, uid per draw, repeat(n, interleave=True)), _balance_batch, then
// update_actor's contiguous chunks per rank. Checked against the exec'd trainer code in
// test/fixtures/golden-easyr1-layout.json.
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkCount, FrameworkLayout, FrameworkSettings, FrameworkStep } from '../types.ts';
import { type Sizes, checkLoader, checkSimulable, checkTrainer, checkWorkers, globalBatchPerDevice, tooManyTries } from './checks.ts';
import { checkEqualChunks, dispatch } from './dispatch.ts';
import { PromptLoader } from './order.ts';
import { worldSize } from './packing.ts';

/** Most samples the sandbox lays out in one call. */
export const MAX_SAMPLES = 4_000_000;

const optInt = (settings: FrameworkSettings, flag: string): number | null => (settings[flag] === null ? null : intSetting(settings, flag));

export function sizesOf(settings: FrameworkSettings): Sizes {
  const adv = settings['adv-estimator'];
  return {
    datasetSize: intSetting(settings, 'dataset-size'),
    ranks: worldSize(settings),
    prompts: intSetting(settings, 'train-batch-size'),
    miniRollout: optInt(settings, 'mini-rollout-batch-size'),
    k: intSetting(settings, 'k'),
    // null: the flag form's one optimizer step per training step (keys.ts).
    globalBatch:
      settings['global-batch-size'] === null ? intSetting(settings, 'train-batch-size') : intSetting(settings, 'global-batch-size'),
    microUpdate: intSetting(settings, 'micro-batch-size-per-device-for-update'),
    microExperience: intSetting(settings, 'micro-batch-size-per-device-for-experience'),
    tensorParallel: intSetting(settings, 'tensor-parallel-size'),
    ulysses: intSetting(settings, 'ulysses-size'),
    advEstimator: typeof adv === 'string' ? adv : 'grpo',
    onlineFiltering: boolSetting(settings, 'online-filtering'),
  };
}

/** RayPPOTrainer.__init__'s training_steps: max_steps, else the loader's batches over total_epochs. */
function trainingSteps(s: Sizes, batchesPerEpoch: number, epochs: number, maxSteps: number | null): FrameworkCount {
  if (maxSteps !== null)
    return { name: 'training_steps', value: maxSteps, how: `trainer.max_steps = ${maxSteps} (total_epochs is ignored)` };
  if (s.miniRollout !== null) {
    const examples = batchesPerEpoch * s.miniRollout;
    const value = Math.floor(examples / s.prompts) * epochs;
    return {
      name: 'training_steps',
      value,
      how:
        `num_examples = len(train_dataloader) ${batchesPerEpoch} × mini_rollout_batch_size ${s.miniRollout} = ${examples}; ${examples} // ` +
        `rollout_batch_size ${s.prompts} × total_epochs ${epochs} = ${value}`,
    };
  }
  return {
    name: 'training_steps',
    value: batchesPerEpoch * epochs,
    how: `len(train_dataloader) ${batchesPerEpoch} × trainer.total_epochs ${epochs} = ${batchesPerEpoch * epochs}`,
  };
}

function counts(s: Sizes, loaderBatch: number, batchesPerEpoch: number, steps: FrameworkCount): FrameworkCount[] {
  const samples = s.prompts * s.k;
  const perRank = samples / s.ranks;
  const perDevice = globalBatchPerDevice(s);
  const minis = Math.ceil(perRank / perDevice);
  const out: FrameworkCount[] = [
    {
      name: 'len(train_dataloader)',
      value: batchesPerEpoch,
      how:
        `${s.datasetSize} prompts // ${s.miniRollout !== null ? 'mini_rollout_batch_size' : 'rollout_batch_size'} ${loaderBatch} = ` +
        `${batchesPerEpoch} (drop_last=True; ${s.datasetSize - batchesPerEpoch * loaderBatch} prompts unused per epoch)`,
    },
    steps,
    { name: 'samples per step', value: samples, how: `rollout_batch_size ${s.prompts} × rollout.n ${s.k} = ${samples}` },
    { name: 'samples per rank', value: perRank, how: `${samples} / world size ${s.ranks} = ${perRank}` },
    {
      name: 'global_batch_size_per_device',
      value: perDevice,
      how: `global_batch_size ${s.globalBatch}${s.k > 1 ? ` × n ${s.k}` : ''} // (world size ${s.ranks} // ulysses_size ${s.ulysses}) = ${perDevice}`,
    },
    {
      name: 'optimizer steps per training step',
      value: minis,
      how: `ceil(${perRank} samples per rank / ${perDevice}) = ${minis} mini-batches (ppo_epochs 1)`,
    },
  ];
  if (s.miniRollout !== null) {
    const pulls = Math.ceil(s.prompts / s.miniRollout);
    out.push({
      name: 'loader batches per step',
      value: pulls,
      how:
        `ceil(rollout_batch_size ${s.prompts} / mini_rollout_batch_size ${s.miniRollout}) = ${pulls}; ${pulls * s.miniRollout - s.prompts} ` +
        `generated prompts are cut off each step`,
    });
  }
  return out;
}

export function layout(settings: FrameworkSettings, seqlens?: readonly number[]): FrameworkLayout {
  const s = sizesOf(settings);
  checkSimulable(s);
  const loaderBatch = s.miniRollout ?? s.prompts;
  const loader = new PromptLoader(s.datasetSize, loaderBatch, boolSetting(settings, 'shuffle'), intSetting(settings, 'seed'));
  checkLoader(loader.batchesPerEpoch);
  checkTrainer(s);
  const stepsCount = trainingSteps(s, loader.batchesPerEpoch, intSetting(settings, 'epochs'), optInt(settings, 'max-steps'));
  checkWorkers(s);
  const total = stepsCount.value;
  const samples = s.prompts * s.k;
  if (total * samples > MAX_SAMPLES) {
    throw new ConfigError(
      `${total} steps × ${samples} samples is more than the sandbox lays out (${MAX_SAMPLES}); set trainer.max_steps or fewer epochs`,
    );
  }
  if (seqlens) {
    const bad = seqlens.findIndex((x) => !Number.isSafeInteger(x) || x < 1);
    if (bad >= 0) throw new ConfigError(`token count ${bad} must be a whole number ≥ 1, got ${seqlens[bad]}`);
    if (seqlens.length < total * samples) {
      throw new ConfigError(`${seqlens.length} token counts given; ${total} steps × ${samples} samples need ${total * samples}`);
    }
  }
  const maxTry = intSetting(settings, 'max-try-make-batch');
  const lengths = new Mt19937(intSetting(settings, 'seed'));
  const steps: FrameworkStep[] = [];
  const perEpoch = new Map<number, number>();
  for (let t = 0; t < total; t++) {
    const prompts: number[] = [];
    const drawn: number[] = [];
    let epoch = -1;
    for (let tries = 1; ; tries++) {
      const batch = loader.take();
      if (epoch < 0) epoch = batch.epoch;
      // generate_sequences: DP_COMPUTE_PROTO chunks the loader batch over the ranks.
      checkEqualChunks(batch.prompts.length, s.ranks, 'generate_sequences dispatch, protocol.DataProto.chunk');
      prompts.push(...batch.prompts);
      if (!seqlens) drawn.push(...randint(lengths, SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, batch.prompts.length * s.k));
      if (prompts.length >= s.prompts) break;
      if (maxTry > 0 && tries >= maxTry) throw tooManyTries(tries, maxTry);
    }
    prompts.length = s.prompts;
    const stepSeqlens = seqlens ? seqlens.slice(t * samples, (t + 1) * samples) : drawn.slice(0, samples);
    const sources = dispatch(stepSeqlens, s.ranks);
    const step = perEpoch.get(epoch) ?? 0;
    perEpoch.set(epoch, step + 1);
    steps.push({
      epoch,
      step,
      prompts,
      ranks: sources.map((r) => r.map((i) => prompts[Math.floor(i / s.k)]!)),
      sources,
      seqlens: stepSeqlens,
    });
  }
  return { steps, counts: counts(s, loaderBatch, loader.batchesPerEpoch, stepsCount), notes: notes(s, settings, !!seqlens), warnings: [] };
}

function notes(s: Sizes, settings: FrameworkSettings, measured: boolean): string[] {
  const seed = intSetting(settings, 'seed');
  return [
    boolSetting(settings, 'shuffle')
      ? `Prompt order: torch RandomSampler with a generator seeded ${seed}; epoch e reads the generator's permutation 2e (each epoch also draws an ` +
        `empty trailing permutation), with any number of loader workers.`
      : 'Prompt order: data.shuffle false, SequentialSampler: 0, 1, 2, … every epoch.',
    `Each prompt draw gets its own uid; its ${s.k} copies are adjacent in generation order (repeat(n, interleave=True)) and are the GRPO group.`,
    `_balance_batch always runs: Karmarkar–Karp over the ${s.ranks} ranks by raw token counts (equal sample counts), so a prompt's copies are ` +
      `scattered over ranks by length; rank r takes the r-th contiguous chunk.`,
    s.miniRollout !== null
      ? `mini_rollout_batch_size ${s.miniRollout}: a step pulls loader batches until it has ${s.prompts} prompts and keeps the first ${s.prompts}; ` +
        `when the loader runs out mid-step it restarts (a new epoch) inside that step.`
      : `One loader batch of ${s.prompts} prompts per step.`,
    measured
      ? 'Token counts: as given, in generation order.'
      : `Token counts: synthetic, torch.randint(${SYNTHETIC_SEQLEN.low}, ${SYNTHETIC_SEQLEN.high}) with a generator seeded ${seed}, one draw per ` +
        `loader batch (its prompts × n).`,
  ];
}
