// A module worker that evaluates the learned policy per latency budget (src/train/evaluate.ts,
// what report.html shows) off the page's main thread: on the main thread the evaluation of the
// default bank was one 461 ms task right after the last step.
import { makeTask, randomPolicyFraction } from '../../core/env/task.ts';
import type { TrainConfig } from '../../train/config.ts';
import { policyByBudget, type BudgetBand } from '../../train/evaluate.ts';

export interface PolicyRequest {
  config: TrainConfig;
  params: Float32Array;
}

export interface PolicyAnswer {
  bands: BudgetBand[];
  /** Mean optimum fraction of the uniform random policy over the bank. */
  randomFraction: number;
}

/** The bands and the random policy's fraction, as `grpo-sandbox train --out` computes them for report.html. */
export async function evaluatePolicy({ config, params }: PolicyRequest): Promise<PolicyAnswer> {
  const task = makeTask(config.dims, config.seed, config.bankSize);
  // As the CLI: seed-sized models (dModel > 256) are evaluated on 128 prompts of the bank.
  const bands = await policyByBudget(task, params, 6, config.dims.dModel > 256 ? 128 : task.prompts.count);
  return { bands, randomFraction: randomPolicyFraction(task) };
}

// Only when loaded as a worker (a worker has no document).
if ('WorkerGlobalScope' in globalThis && !('document' in globalThis)) {
  addEventListener('message', async (ev: MessageEvent<PolicyRequest>) => {
    try {
      postMessage({ ok: true, answer: await evaluatePolicy(ev.data) });
    } catch (err) {
      postMessage({ ok: false, message: (err as Error).message });
    }
  });
}
