// hiyouga/EasyR1, a verl fork, at b44b311: its prompt order, dispatch, micro-batches and advantages.
import { intSetting, ranksKey, withRanks } from '../settings.ts';
import type { FrameworkHome, FrameworkSettings } from '../types.ts';
import { advantages } from './advantages.ts';
import { keys } from './keys.ts';
import { layout } from './layout.ts';
import { packing } from './packing.ts';
import { presets } from './presets.ts';
import { trainer } from './trainer.ts';
import { countSetting } from '../budget.ts';
import { oneStepBase } from '../one-step.ts';
import { gcd } from '../../samplers/rules.ts';

/** `--ranks` as the data-parallel size: trainer.n_gpus_per_node = ranks × ulysses_size on one node. */
const ranked = (s: FrameworkSettings) => withRanks(s, 'n-gpus-per-node', 'nnodes', intSetting(s, 'ulysses-size'));

export const home: FrameworkHome = {
  name: 'easyr1',
  // trainer.max_steps, when set, is the run's length: the loader restarts as often as needed.
  plannedLayout(s, generic) {
    const plan = { ...generic, passes: countSetting(s, 'ppo-epochs') ?? 1, lower: '--dataset-size, --epochs, --k or --max-steps' };
    const steps = countSetting(s, 'max-steps');
    return steps === null || plan.steps === 0 ? plan : { ...plan, steps, samples: (plan.samples / plan.steps) * steps };
  },
  title: 'EasyR1',
  pinned: {
    repo: 'hiyouga/EasyR1',
    commit: 'b44b311b669bf1fd1aa2fc36f2251482ba33cb16',
    date: '2026-07-30',
    files: [
      'verl/trainer/data_loader.py',
      'verl/trainer/ray_trainer.py',
      'verl/trainer/config.py',
      'verl/trainer/core_algos.py',
      'verl/utils/seqlen_balancing.py',
      'verl/workers/actor/config.py',
      'verl/workers/actor/dp_actor.py',
      'verl/workers/fsdp_workers.py',
      'verl/protocol.py',
      'examples/config.yaml',
    ],
  },
  configFormat: 'yaml',
  resolve: ranked,
  keys: [ranksKey('trainer.n_gpus_per_node × trainer.nnodes // worker.actor.ulysses_size'), ...keys],
  layout: (settings, seqlens) => layout(ranked(settings), seqlens),
  advantages,
  packing: { ...packing, pack: (seqlens, settings) => packing.pack(seqlens, ranked(settings)) },
  trainer: {
    ...trainer,
    optimizerSteps: (step, tokens, settings, loss, first) => trainer.optimizerSteps(step, tokens, ranked(settings), loss, first),
  },
  /**
   * One GPU: rollout.tensor_parallel_size 1 (its default 2 refuses one GPU), one epoch; the micro-batch sizes its default 16
   * (experience) and 4 (update) where they divide the samples, else their greatest common divisor (EasyR1 refuses a size that
   * does not divide them); the padded response width at least the longest completion (its packer refuses a longer one);
   * global_batch_size unset: the flag form's one optimizer step per training step.
   */
  oneStep: (b) => ({
    ...oneStepBase(b),
    epochs: '1',
    'tensor-parallel-size': '1',
    'micro-batch-size-per-device-for-experience': String(gcd(b.samples, 16)),
    'micro-batch-size-per-device-for-update': String(gcd(b.samples, 4)),
    'max-response-length': String(b.maxLength),
  }),
  presets,
  checkedBy: [
    'golden-easyr1-layout.json: exec — PPOConfig defaults, create_dataloader (torch RandomSampler in torchdata StatefulDataLoader), ' +
      "RayPPOTrainer.__init__/_make_batch_data/_balance_batch, FSDPWorker._init_dist_mesh and _build_rollout's tp check, DataProto.chunk's assert; " +
      'transcribed: a DataProto stand-in and generate_sequences (n samples per prompt), because DataProto needs tensordict and ray',
    'golden-easyr1-packing.json: exec — seqlen_balancing.rearrange_micro_batches per rank; transcribed: its dist.all_reduce(MAX) of the ' +
      'micro-batch count, because it needs NCCL',
    'golden-easyr1-advantages.json: exec — core_algos.py grpo, rloo, grpo_passk under torch float32',
  ],
};
