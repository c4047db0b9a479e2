// inclusionAI AReaL @ 4aef98d (2026-05-21): its home in the sandbox. Prompt order: order.ts; dispatch of whole groups
// to data-parallel ranks: dispatch.ts; micro-batches: packing.ts; advantages: advantages.ts; keys: keys.ts.
import { ConfigError } from '../../errors.ts';
import { Mt19937, randint } from '../../rng/index.ts';
import { SYNTHETIC_SEQLEN } from '../verl/sampler.ts';
import { boolSetting, intSetting } from '../settings.ts';
import type { FrameworkHome, FrameworkLayout, FrameworkSettings, FrameworkStep, PackedStep } from '../types.ts';
import { oneStepBase } from '../one-step.ts';
import { AREAL_ADVANTAGES } from './advantages.ts';
import { singleControllerDispatch, spmdDispatch } from './dispatch.ts';
import { AREAL_KEYS } from './keys.ts';
import { loaderLength, rankChunks, samplerShare } from './order.ts';
import { DEFAULT_MAX_TOKENS_PER_MB, packRanks } from './packing.ts';
import type { PackingAlgorithm } from './seqpack.ts';
import { AREAL_COMMIT, arealSays } from './version.ts';
import { presets } from './presets.ts';
import { trainer } from './trainer.ts';
import { keyBudget } from '../budget.ts';

/** The data-parallel size: the d-degree of actor.backend ("fsdp:d4p1t1" → 4), or --ranks. */
export function dataParallelSize(settings: FrameworkSettings): number {
  const backend = settings['actor-backend'];
  const ranks = settings.ranks;
  let fromBackend: number | null = null;
  if (typeof backend === 'string' && backend !== '') {
    const m = /^[a-z]+:d(\d+)(?:[ptce]\d+)*$/.exec(backend);
    if (!m) {
      throw new ConfigError(
        `actor.backend "${backend}": the sandbox reads only "<engine>:d<N>[p<N>][t<N>]" specs; give --ranks for the data-parallel size instead`,
      );
    }
    fromBackend = Number(m[1]);
  }
  if (ranks !== null && ranks !== undefined) {
    const r = intSetting(settings, 'ranks');
    if (fromBackend !== null && r !== fromBackend) {
      throw new ConfigError(`--ranks ${r} contradicts actor.backend "${backend}" (data-parallel size ${fromBackend}): set one of them`, [
        { ranks: fromBackend },
      ]);
    }
    fromBackend = r;
  }
  const w = fromBackend ?? 1;
  if (w < 1) throw new ConfigError(`the data-parallel size must be at least 1, got ${w}`);
  return w;
}

interface Plan {
  ranks: number;
  spmd: boolean;
  prompts: number;
  k: number;
  /** Each loader's batch size and how many loaders there are. */
  loaderBatch: number;
  loaders: number;
  stepsPerEpoch: number;
  epochs: number;
}

function plan(settings: FrameworkSettings): Plan {
  const ranks = dataParallelSize(settings);
  const spmd = boolSetting(settings, 'spmd-mode');
  const prompts = intSetting(settings, 'train-batch-size');
  const k = intSetting(settings, 'k');
  const datasetSize = intSetting(settings, 'dataset-size');
  const epochs = intSetting(settings, 'epochs');
  if (prompts < 1 || k < 1 || datasetSize < 1) throw new ConfigError('--train-batch-size, --k and --dataset-size must be at least 1');
  if (epochs <= 0) throw new ConfigError(arealSays(`total_train_epochs must be positive, got ${epochs}`));
  // SPMD: every rank runs create_dataloader(world_size = dp size); single controller: one loader, world_size 1.
  const loaders = spmd ? ranks : 1;
  if (prompts % loaders !== 0) {
    throw new ConfigError(arealSays(`batch size(${prompts}) must be divisible by world_size(${loaders})!`), [
      { 'train-batch-size': Math.max(loaders, prompts - (prompts % loaders)) },
    ]);
  }
  const loaderBatch = prompts / loaders;
  const stepsPerEpoch = loaderLength(samplerShare(datasetSize, loaders), loaderBatch, boolSetting(settings, 'drop-last'));
  if (stepsPerEpoch === 0) {
    throw new ConfigError(
      `len(train_dataloader) = 0: ${datasetSize} prompts over ${loaders} loader(s) do not fill one batch of ${loaderBatch}, so AReaL trains no step; ` +
        'raise --dataset-size or lower --train-batch-size',
    );
  }
  return { ranks, spmd, prompts, k, loaderBatch, loaders, stepsPerEpoch, epochs };
}

/** Groups of k token counts, one per prompt of the step, from the step's seqlens in generation order. */
const groupsOf = (seqlens: readonly number[], k: number) =>
  Array.from({ length: seqlens.length / k }, (_, g) => seqlens.slice(g * k, (g + 1) * k));

/** Which groups each rank trains on, in its order. */
function dispatch(p: Plan, seqlens: readonly number[], algorithm: PackingAlgorithm): number[][] {
  const groups = groupsOf(seqlens, p.k);
  return p.spmd ? spmdDispatch(groups, p.ranks, algorithm) : singleControllerDispatch(groups, p.ranks);
}

function layout(settings: FrameworkSettings, seqlens?: readonly number[]): FrameworkLayout {
  const p = plan(settings);
  const algorithm = settings['packing-algorithm'] as PackingAlgorithm;
  const datasetSize = intSetting(settings, 'dataset-size');
  const totalSteps = p.stepsPerEpoch * p.epochs;
  const chunks = rankChunks(
    datasetSize,
    p.loaders,
    boolSetting(settings, 'shuffle'),
    p.loaderBatch,
    boolSetting(settings, 'drop-last'),
    totalSteps,
  );
  const perStep = p.prompts * p.k;
  if (seqlens && seqlens.length < perStep * totalSteps) {
    throw new ConfigError(`need ${perStep * totalSteps} token counts (${perStep} per step × ${totalSteps} steps), got ${seqlens.length}`);
  }
  const gen = new Mt19937(BigInt(intSetting(settings, 'seed')));
  const steps: FrameworkStep[] = [];
  for (let s = 0; s < totalSteps; s++) {
    const prompts = chunks.flatMap((c) => c[s]!);
    const lens = seqlens
      ? seqlens.slice(s * perStep, (s + 1) * perStep)
      : Array.from(randint(gen, SYNTHETIC_SEQLEN.low, SYNTHETIC_SEQLEN.high, perStep));
    const sources = dispatch(p, lens, algorithm).map((gs) => gs.flatMap((g) => Array.from({ length: p.k }, (_, c) => g * p.k + c)));
    steps.push({
      epoch: Math.floor(s / p.stepsPerEpoch),
      step: s % p.stepsPerEpoch,
      prompts,
      ranks: sources.map((src) => src.map((i) => prompts[Math.floor(i / p.k)]!)),
      sources,
      seqlens: lens,
    });
  }
  const notes = [
    p.spmd
      ? `SPMD mode: each of the ${p.ranks} ranks loads ${p.loaderBatch} prompts a step and generates their ${p.k} samples; ` +
        `redistribute_trajectories then moves whole groups between ranks (${algorithm}, weight = the group's tokens), so ranks can hold unequal ` +
        `numbers of groups.`
      : `single-controller mode: one loader of ${p.prompts} prompts a step; the controller deals whole groups to the ${p.ranks} ranks with ` +
        `balanced_greedy_partition (weight = ${p.k} × the group's longest sequence), the same number of groups on each rank.`,
    'The prompt order does not depend on seed: create_dataloader builds DistributedSampler without one, so every run shuffles with generator seed 0 + epoch.',
    'A prompt’s samples stay together on one rank (one trajectory dict per prompt).',
    'Completions are taken in submission order; in AReaL a step takes the first batch_size trajectories to finish (async rollout, ' +
      'max_head_offpolicyness), which the sandbox does not simulate.',
  ];
  if (!seqlens) {
    notes.push(
      `Dispatch depends on token counts; none were given, so each step's are drawn as torch.randint(${SYNTHETIC_SEQLEN.low}, ` +
        `${SYNTHETIC_SEQLEN.high}) from a generator seeded with --seed.`,
    );
  }
  if (p.spmd && algorithm === 'ffd') {
    notes.push(
      'ffd orders groups by np.argsort, whose order among equal token counts is CPU-dependent; the sandbox takes equal counts in index order.',
    );
  }
  const share = samplerShare(datasetSize, p.loaders);
  return {
    steps,
    counts: [
      {
        name: 'len(train_dataloader)',
        value: p.stepsPerEpoch,
        how:
          `DistributedSampler gives each of ${p.loaders} loader(s) ${share} prompts; ${share} ${settings['drop-last'] ? '//' : '/ (rounded up)'} ` +
          `${p.loaderBatch} = ${p.stepsPerEpoch}`,
      },
      {
        name: 'max_steps',
        value: totalSteps,
        how: `total_train_epochs × len(train_dataloader) = ${p.epochs} × ${p.stepsPerEpoch} = ${totalSteps}`,
      },
      {
        name: 'trajectories per step',
        value: perStep,
        how: `train_dataset.batch_size × gconfig.n_samples = ${p.prompts} × ${p.k} = ${perStep}`,
      },
    ],
    notes,
    warnings: [],
  };
}

function pack(seqlens: readonly number[], settings: FrameworkSettings): PackedStep {
  const p = plan(settings);
  if (seqlens.length !== p.prompts * p.k) {
    throw new ConfigError(`a step has ${p.prompts * p.k} samples (${p.prompts} prompts × ${p.k}), got ${seqlens.length} token counts`);
  }
  const algorithm = settings['packing-algorithm'] as PackingAlgorithm;
  const sources = dispatch(p, seqlens, algorithm).map((gs) => gs.flatMap((g) => Array.from({ length: p.k }, (_, c) => g * p.k + c)));
  const maxTokens = settings['max-tokens-per-mb'];
  const { minibatches } = packRanks(
    sources.map((src) => src.map((i) => seqlens[i]!)),
    typeof maxTokens === 'number' ? maxTokens : null,
    algorithm,
    intSetting(settings, 'ppo-n-minibatches'),
  );
  const ranks = minibatches.map((minis, r) => minis.flat().map((mb) => mb.map((row) => sources[r]![row]!)));
  return { ranks, microBatchesPerRank: Math.max(...ranks.map((mbs) => mbs.length)) };
}

/** `--ranks` written into actor.backend ("fsdp:d<ranks>p1t1") when the config names no backend. */
function resolve(settings: FrameworkSettings): FrameworkSettings {
  const ranks = settings.ranks;
  if (typeof ranks !== 'number' || (typeof settings['actor-backend'] === 'string' && settings['actor-backend'] !== '')) return settings;
  return { ...settings, 'actor-backend': `fsdp:d${ranks}p1t1` };
}

export const home: FrameworkHome = {
  resolve,
  name: 'areal',
  title: 'inclusionAI AReaL',
  pinned: {
    repo: 'inclusionAI/AReaL',
    commit: AREAL_COMMIT,
    date: '2026-05-21',
    files: [
      'areal/utils/dataloader.py',
      'areal/utils/data.py',
      'areal/utils/seqpack.py',
      'areal/infra/controller/train_controller.py',
      'areal/infra/dist_rollout.py',
      'areal/trainer/rl_trainer.py',
      'areal/trainer/ppo/actor.py',
      'areal/api/cli_args.py',
      'examples/math/gsm8k_grpo.yaml',
    ],
  },
  configFormat: 'yaml',
  keys: AREAL_KEYS,
  layout,
  advantages: AREAL_ADVANTAGES,
  packing: {
    about:
      'actor.mb_spec: each rank splits its batch into actor.ppo_n_minibatches minibatches (FFD, no budget), then each minibatch into ' +
      'micro-batches of at most max_tokens_per_mb tokens with packing_algorithm (ffd | kk); the micro-batch count is synchronised to ' +
      'the largest over ranks. ranks[r] lists every minibatch’s micro-batches in turn.',
    flags: ['max-tokens-per-mb', 'packing-algorithm', 'ppo-n-minibatches', 'ranks', 'actor-backend', 'spmd-mode', 'train-batch-size', 'k'],
    // AReaL's default max_tokens_per_mb is no budget in practice.
    budget(s) {
      const b = keyBudget(AREAL_KEYS, s, 'max-tokens-per-mb', 'cap');
      return b && b.tokens < DEFAULT_MAX_TOKENS_PER_MB ? b : null;
    },
    pack,
  },
  trainer,
  // One optimizer step of the whole batch: ppo_n_minibatches 1.
  oneStep: (b) => ({ ...oneStepBase(b), 'ppo-n-minibatches': '1' }),
  presets,
  checkedBy: [
    'golden-areal-layout.json: exec — create_dataloader, cycle_dataloader, _dispatch_tensors (single controller), redistribute_trajectories ' +
      "(SPMD) and seqpack run from the checkout; transcribed: RTensor.remotize's trim (needs the RPC tensor store)",
    'golden-areal-packing.json: exec — split_padded_tensor_dict_into_mb_list twice (minibatches, micro-batches) with allocate_balanced_mbs_synced ' +
      'over one thread per rank',
    "golden-areal-advantages.json: exec — PPOActor._compute_advantages with Normalization on a stand-in self (kl_ctl 0, GRPO examples' norms)",
    'golden-areal-staleness.json: exec — StalenessManager on seeded enqueue/submit/accept/reject/version/recover traces (staleness.ts)',
  ],
};
