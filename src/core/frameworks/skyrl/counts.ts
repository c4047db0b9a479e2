// SkyRL's counts in its own words (@ a956457): len(train_dataloader) and total_training_steps
// (RayPPOTrainer._build_train_dataloader_and_compute_training_steps), policy_steps_per_train_batch and
// policy_num_training_steps (RayPPOTrainer.build_models), the per-GPU batch sizes of validate_batch_sizes.
import type { FrameworkCount } from '../types.ts';
import type { SkyrlSizes } from './checks.ts';

export function skyrlCounts(
  s: SkyrlSizes,
  datasetSize: number,
  epochs: number,
  updateEpochs: number,
  dp: { policyDp: number; lcmDp: number },
  maxTokens: number,
): FrameworkCount[] {
  const len = Math.floor(datasetSize / s.trainBatchSize);
  const total = s.maxTrainingSteps === null ? len * epochs : Math.min(len * epochs, s.maxTrainingSteps);
  const perTrain = Math.floor(s.trainBatchSize / s.miniBatchSize) * updateEpochs;
  const miniPerGpu = Math.floor((s.miniBatchSize * s.k) / dp.policyDp);
  const trainPerGpu = Math.floor((s.trainBatchSize * s.k) / dp.policyDp);
  const counts: FrameworkCount[] = [
    {
      name: 'len(train_dataloader)',
      value: len,
      how: `${datasetSize} // train_batch_size ${s.trainBatchSize} = ${len} (drop_last=True): training steps per epoch`,
    },
    {
      name: 'total_training_steps',
      value: total,
      how:
        `len(train_dataloader) ${len} × epochs ${epochs} = ${len * epochs}` +
        (s.maxTrainingSteps === null ? '' : `, capped by max_training_steps ${s.maxTrainingSteps}: ${total}`),
    },
    {
      name: 'lcm_dp_size',
      value: dp.lcmDp,
      how:
        `policy dp ${dp.policyDp}${s.useKlLoss || s.useKlInReward ? ' and ref dp (KL on)' : ''}: _remove_tail_data keeps prompt counts whose ` +
        `samples divide by it`,
    },
    {
      name: 'policy_train_batch_size_per_gpu',
      value: trainPerGpu,
      how: `train_batch_size ${s.trainBatchSize} × n_samples_per_prompt ${s.k} // policy_dp_size ${dp.policyDp} = ${trainPerGpu}`,
    },
    {
      name: 'policy_mini_batch_size_per_gpu',
      value: miniPerGpu,
      how: `policy_mini_batch_size ${s.miniBatchSize} × n_samples_per_prompt ${s.k} // policy_dp_size ${dp.policyDp} = ${miniPerGpu}`,
    },
    {
      name: 'policy_steps_per_train_batch',
      value: perTrain,
      how:
        `train_batch_size ${s.trainBatchSize} // policy_mini_batch_size ${s.miniBatchSize} × update_epochs_per_batch ${updateEpochs} = ${perTrain} ` +
        `optimizer steps per training step`,
    },
    {
      name: 'policy_num_training_steps',
      value: total * perTrain,
      how: `total_training_steps ${total} × policy_steps_per_train_batch ${perTrain} = ${total * perTrain} (the LR scheduler's length)`,
    },
  ];
  if (maxTokens <= 0) {
    const micro = Math.ceil(Math.ceil((s.miniBatchSize * s.k) / dp.policyDp) / s.microBatchSize);
    counts.push({
      name: 'micro-batches per mini-batch per rank',
      value: micro,
      how:
        `ceil(ceil(${s.miniBatchSize} × ${s.k} / ${dp.policyDp}) / micro_train_batch_size_per_gpu ${s.microBatchSize}) = ${micro} ` +
        `(SampleBasedBatchIterator)`,
    });
  }
  return counts;
}
