// The frameworks' own words for a pool that stays short, so a person recognises them.

/** `1 resample`, `3 resamples`: a count with its noun (`many` for irregular plurals). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * verl DAPO (recipe/dapo/dapo_ray_trainer.py, volcengine/verl commit 004c888; same wording in
 * later releases). `{num_gen_batches=}` is Python's self-documenting f-string: `num_gen_batches=4`.
 */
export function verlTooManyBatches(numGenBatches: number, maxNumGenBatches: number): string {
  return (
    `num_gen_batches=${numGenBatches} >= max_num_gen_batches=${maxNumGenBatches}. Generated too many. ` +
    'Please check if your data are too difficult. You could also try set max_num_gen_batches=0 to enable endless trials.'
  );
}

/** NeMo RL (nemo_rl/algorithms/grpo.py, dynamic sampling): raised when num_gen_batches > max. */
export function nemoMaxBatches(maxGenBatches: number): string {
  return (
    `Dynamic sampling has reached the maximum allowed number of batches (${maxGenBatches}). Consider evaluating the complexity ` +
    'of your data or adjusting the num_prompts_per_step or num_generations_per_prompt parameters to enhance the diversity of the samples.'
  );
}

/**
 * ms-swift's warning when it falls back to the original batch: its literal f-string
 * (`after {self.max_resample_times} retries.`), so `after 1 retries` is ms-swift's own grammar.
 */
export function swiftFallbackWarning(maxResampleTimes: number): string {
  return `There are still std=0 groups present after ${maxResampleTimes} retries.`;
}

/** What to do about a stalled stream when rewards are drawn at random (a success probability, a task). */
export const STREAM_RANDOM_ADVICE = 'Make the task easier (higher success probability) or use a capped policy (fallback, raise).';

/**
 * What to do about a stalled stream when the reward draws are scripted (a preset): the script
 * makes groups mix only in its first `scriptedDraws` draws and every later group ties, so no
 * number of rounds can fill the missing slots; an easier task does not apply.
 */
export function streamScriptedAdvice(scriptedDraws: number): string {
  return (
    `The preset's reward draws are scripted for ${plural(scriptedDraws, 'draw')} and every later group ties, so no further round can ` +
    'fill the missing prompts: the preset tells its story with the capped policies (naive, fallback, pad, rebalance, raise); ' +
    'to watch stream fill up, drop --preset and draw random rewards with --p.'
  );
}

/** OpenRLHF has no cap; the simulation stops where a real run would keep generating. */
export function streamStalled(generated: number, short: number, advice: string = STREAM_RANDOM_ADVICE): string {
  return (
    `stream (OpenRLHF) is still ${plural(short, 'prompt')} short after ${plural(generated, 'generation')}; it has no cap, so a real ` +
    `run would keep generating. ${advice}`
  );
}

/** stream keeps or drops each rank's own groups; a group split over ranks cannot be judged there. */
export function streamScattered(group: string, ranks: [number, number]): string {
  return (
    `stream (OpenRLHF) replaces each rank's dropped prompts on that rank, but group ${group} has members on ranks ${ranks[0]} and ` +
    `${ranks[1]}; use a sampler that keeps every group on one rank (trl with batch a multiple of k, contiguous) or a batched policy`
  );
}
