// OpenRLHF's prompt order (openrlhf/trainer/ppo_trainer.py prepare_datasets and PPOTrainer.fit,
// openrlhf/trainer/ppo_utils/samples_generator.py generate_samples / _collect_prompt_batch @ 3c3be62).
// The loader is strategy.setup_dataloader(prompts_dataset, 1, True, True, …): a torchdata
// StatefulDataLoader(batch_size=1, shuffle=True, drop_last=True, num_workers, persistent_workers=num_workers>0)
// without a sampler, since torch.distributed is not initialised on the PPOTrainer Ray actor. Its
// RandomSampler takes a seed from the process's global generator when it is built
// (torch.empty((), dtype=torch.int64).random_()) and draws one randperm per iterator from its own generator.
// Each episode makes a new iterator; a training step pulls rollout.batch_size prompts one by one, and the
// episode's last step takes whatever is left (nothing is dropped: the batch size is 1).
import { Mt19937, randperm } from '../../rng/index.ts';

/**
 * The RandomSampler's seed when the global generator was seeded with `seed`: random_() on an int64
 * tensor is random64() modulo 2^63. (OpenRLHF never seeds that generator; the sandbox assumes --seed.)
 */
export function samplerSeed(seed: number): bigint {
  return BigInt.asUintN(63, new Mt19937(seed).random64());
}

export interface PromptStep {
  episode: number;
  step: number;
  prompts: number[];
}

/** Every training step's prompt ids, episode by episode. */
export function promptSteps(prompts: number, batch: number, episodes: number, workers: number, seed: number): PromptStep[] {
  const gen = new Mt19937(samplerSeed(seed));
  // With workers, the first iterator's multiprocessing setup draws a permutation that is never used
  // (measured with torchdata 0.11 and persistent workers: episode e gets permutation e + 1).
  if (workers > 0) randperm(prompts, gen);
  const out: PromptStep[] = [];
  for (let episode = 0; episode < episodes; episode++) {
    const perm = Array.from(randperm(prompts, gen));
    for (let start = 0, step = 0; start < prompts; start += batch, step++) {
      out.push({ episode, step, prompts: perm.slice(start, start + batch) });
    }
  }
  return out;
}
