// What each framework itself prints for a configuration it rejects, word for word, so a user can
// match our one-line error with the line in their own log. Every message names the version it was
// read from; the wording changes between versions (TRL ≤ 0.18 printed a different sentence).

/** TRL version whose GRPOConfig.__post_init__ (trl/trainer/grpo_config.py) the messages below are taken from. */
export const TRL_VERSION = '1.13.0';

/** flow_grpo's scatter sampler (DistributedKRepeatSampler in scripts/train_sd3.py before the lcm rewrite of flow_grpo/sampler.py, 74db691). */
export const FLOW_GRPO_VERSION = 'flow_grpo (DistributedKRepeatSampler before commit 74db691)';

/** DanceGRPO commit whose fastvideo/train_grpo_flux.py the dance-grpo sampler reproduces. */
export const DANCE_GRPO_VERSION = 'DanceGRPO 22b85ef';

/** Appends `; <framework> raises: <text>` to our message. */
export function withFrameworkSays(ours: string, framework: string, says: string): string {
  return `${ours}; ${framework} raises: ${says}`;
}

/** TRL's own messages (GRPOConfig.__post_init__, TRL 1.13.0). */
export const trlSays = {
  generationNotDivisibleByK: (generationBatchSize: number, numGenerations: number) =>
    `ValueError: generation_batch_size (${generationBatchSize}) must be divisible by num_generations (${numGenerations}).`,
  generationNotDivisibleByGlobalBatch: (generationBatchSize: number, globalBatch: number) =>
    `ValueError: generation_batch_size (${generationBatchSize}) must be divisible by the global batch size (${globalBatch}).`,
  bothGiven: () => `ValueError: 'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time`,
  tooFewGenerations: (numGenerations: number) =>
    `ValueError: GRPO requires at least 2 generations per prompt to calculate the advantages. You provided ${numGenerations}, which is less than ` +
    `the minimum required.`,
};

/** flow_grpo's assertion in DistributedKRepeatSampler.__init__ (the scatter sampler with m = n·b/k). */
export const flowGrpoSays = {
  kDoesNotDivide: (k: number, numReplicas: number, batchSize: number) =>
    `AssertionError: k can not divide n*b, k${k}-num_replicas${numReplicas}-batch_size${batchSize}`,
};
