// The settings SkyRL's checks and layout read, taken from the home's flags.
import { ConfigError } from '../../errors.ts';
import { boolSetting, intSetting, withRanks } from '../settings.ts';
import type { FrameworkSettings } from '../types.ts';
import type { SkyrlSizes } from './checks.ts';

function optionalInt(settings: FrameworkSettings, flag: string): number | null {
  return settings[flag] === null ? null : intSetting(settings, flag);
}

function atLeastOne(settings: FrameworkSettings, flag: string): number {
  const v = intSetting(settings, flag);
  if (v < 1) throw new ConfigError(`--${flag} must be at least 1, got ${v}`);
  return v;
}

export function sizesOf(settings: FrameworkSettings): SkyrlSizes {
  return {
    trainBatchSize: atLeastOne(settings, 'train-batch-size'),
    k: atLeastOne(settings, 'k'),
    miniBatchSize:
      settings['policy-mini-batch-size'] === null
        ? intSetting(settings, 'train-batch-size')
        : intSetting(settings, 'policy-mini-batch-size'),
    microBatchSize: intSetting(settings, 'micro-train-batch-size-per-gpu'),
    workers: optionalInt(settings, 'dataloader-num-workers'),
    persistentWorkers: boolSetting(settings, 'persistent-workers'),
    maxTrainingSteps: optionalInt(settings, 'max-training-steps'),
    policyNodes: atLeastOne(settings, 'policy-num-nodes'),
    policyGpusPerNode: atLeastOne(settings, 'policy-num-gpus-per-node'),
    policySp: atLeastOne(settings, 'policy-sequence-parallel-size'),
    refNodes: atLeastOne(settings, 'ref-num-nodes'),
    refGpusPerNode: atLeastOne(settings, 'ref-num-gpus-per-node'),
    refSp: atLeastOne(settings, 'ref-sequence-parallel-size'),
    useKlLoss: boolSetting(settings, 'use-kl-loss'),
    useKlInReward: boolSetting(settings, 'use-kl-in-reward'),
  };
}

/** `--ranks` as the data-parallel size: trainer.placement.policy_num_gpus_per_node = ranks × policy sequence_parallel_size on one node. */
export function ranked(settings: FrameworkSettings): FrameworkSettings {
  return withRanks(settings, 'policy-num-gpus-per-node', 'policy-num-nodes', intSetting(settings, 'policy-sequence-parallel-size'));
}
