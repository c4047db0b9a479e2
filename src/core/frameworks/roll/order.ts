// ROLL's prompt order (roll/distributed/scheduler/generate_scheduler.py,
// DynamicSamplingScheduler.get_next_dataset_item @ 8eb27cc): the scheduler keeps one list of dataset
// indices; when a pass starts it calls random.seed(seed + dataset_epoch) and random.shuffle(indices) on
// that same list (so pass e shuffles pass e−1's order, not range(N)), then hands out the items one at a
// time. A pipeline step takes the next rollout_batch_size items, crossing into the next pass mid-step
// when the current one runs out (nothing is dropped).
import { PythonRandom } from '../../rng/python-random.ts';

/** The dataset indices in the order the scheduler hands them out, pass after pass. */
export class RollPromptStream {
  private readonly indices: number[];
  private pos: number;
  /** ROLL's dataset_epoch: the pass the next item comes from once it is drawn. */
  epoch = 0;
  private readonly random = new PythonRandom(0);

  constructor(
    private readonly seed: number,
    datasetSize: number,
  ) {
    this.indices = Array.from({ length: datasetSize }, (_, i) => i);
    this.pos = -1; // no pass started yet (ROLL's dataset_iter is None)
  }

  private startPass(): void {
    this.random.seed(this.seed + this.epoch);
    this.random.shuffle(this.indices);
    this.pos = 0;
  }

  /** get_next_dataset_item: the next index, and the pass it belongs to. */
  next(): { prompt: number; epoch: number } {
    if (this.pos < 0) this.startPass();
    else if (this.pos >= this.indices.length) {
      this.epoch += 1;
      this.startPass();
    }
    return { prompt: this.indices[this.pos++]!, epoch: this.epoch };
  }

  /** One step's prompts: `count` draws. */
  take(count: number): { prompts: number[]; epochs: number[] } {
    const prompts: number[] = [];
    const epochs: number[] = [];
    for (let i = 0; i < count; i++) {
      const d = this.next();
      prompts.push(d.prompt);
      epochs.push(d.epoch);
    }
    return { prompts, epochs };
  }
}
