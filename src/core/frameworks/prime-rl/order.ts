// Which samples make up each prime-rl training step.
// - Task order: the default curriculum sampler, StandardSampler (orchestrator/curriculum/samplers/
//   standard.py @ 559b447), cycles the finite taskset in source order: draw d is task d mod N. No RNG.
//   (TrainSource.next_task first picks the env with random.Random(42).choices by env ratio; with one
//   train env that draw changes nothing.)
// - Each draw is one group of group_size rollouts. The train sink (orchestrator/train_sink.py:
//   TrainSink.process_group / _maybe_batch / process_batch) queues a finished group's traces in
//   arrival order and cuts a step when batch_size traces are queued (the first batch_size) or, with
//   token_batch_size, at the first trace where the running token count reaches it; the rest wait for
//   the next step.
// The sandbox completes groups in dispatch order (the real orchestrator runs up to max_inflight
// episodes at once and queues groups as they finish).

/** One step's samples: global sample ids (draw·k + copy) in the step's order. */
export interface StepSamples {
  samples: number[];
}

export interface CutOptions {
  draws: number;
  k: number;
  /** Traces per step (batch_size), or null for token batching. */
  batchSize: number | null;
  tokenBatchSize: number | null;
  /** Token count of every sample (global id), needed for token batching. */
  seqlens: readonly number[];
  maxSteps: number | null;
}

/** The steps the sink cuts while `draws` groups arrive in order, stopping after maxSteps. */
export function cutSteps(o: CutOptions): StepSamples[] {
  const steps: StepSamples[] = [];
  let queue: number[] = [];
  let queuedTokens = 0;
  for (let draw = 0; draw < o.draws; draw++) {
    for (let copy = 0; copy < o.k; copy++) {
      const id = draw * o.k + copy;
      queue.push(id);
      if (o.tokenBatchSize !== null) queuedTokens += o.seqlens[id]!;
    }
    // _maybe_batch runs once per finished group.
    if (o.batchSize !== null) {
      if (queue.length < o.batchSize) continue;
      steps.push({ samples: queue.slice(0, o.batchSize) });
      queue = queue.slice(o.batchSize);
    } else {
      if (queuedTokens < o.tokenBatchSize!) continue;
      let running = 0;
      let cut = 0;
      for (const id of queue) {
        running += o.seqlens[id]!;
        cut++;
        if (running >= o.tokenBatchSize!) break;
      }
      steps.push({ samples: queue.slice(0, cut) });
      queue = queue.slice(cut);
      queuedTokens -= running;
    }
    if (o.maxSteps !== null && steps.length >= o.maxSteps) break;
  }
  return steps;
}
