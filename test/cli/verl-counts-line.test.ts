// verl's count line names its two numbers: micro-batches per mini-batch (ceil(mini-batch / micro)) and
// their sum over the step's mini-batches (what one ppo_epoch runs). A 160-sample mini-batch with
// ppo_micro_batch_size_per_gpu 40 is 4 micro-batches; four such mini-batches are 16 in the pass. The
// per-mini-batch number is checked against `steps`, which splits each optimizer step (one mini-batch,
// dp_actor.update_policy's data.split) into its micro-batches; the total against the micro-steps count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.ts';

const VERL = ['--sampler', 'verl', '--ranks', '1', '--k', '4', '--ppo-mini-batch-size', '40', '--ppo-micro-batch-size-per-gpu', '40'];

for (const { batch, dataset, perMini, total } of [
  { batch: '640', dataset: '160', perMini: [4, 4, 4, 4], total: 16 },
  { batch: '560', dataset: '140', perMini: [4, 4, 4, 2], total: 14 },
]) {
  test(`verl's micro-batch line for ${batch} samples a rank: ${perMini.join(' + ')} = ${total}, each number named`, async () => {
    const args = [...VERL, '--batch', batch, '--dataset-size', dataset];
    const layout = await runCli(['layout', ...args]);
    assert.equal(layout.status, 0, layout.stderr);
    // The factor as one line (the text wraps it at 100 columns).
    const text = layout.stdout.replace(/\n {2}/g, ' ');
    const line = text.split('\n').find((l) => l.startsWith('- micro-batches'))!;
    assert.match(
      line,
      new RegExp(`^- micro-batches per mini-batch = ceil\\(mini-batch 160 / ppo_micro_batch_size_per_gpu 40\\) = ${perMini[0]}[,( ]`),
    );
    assert.match(line, new RegExp(`micro-batches per pass over the step's ${perMini.length} mini-batches: .*= ${total}\\.$`));
    assert.match(text, new RegExp(`micro-steps +${total} / ${total}`), 'the total is the micro-steps count');
    // Each optimizer step of `steps` is one mini-batch: its micro-batches, in order.
    const steps = await runCli(['steps', ...args, '--json']);
    assert.equal(steps.status, 0, steps.stderr);
    const report = JSON.parse(steps.stdout) as { steps: { microSteps: number }[] };
    assert.deepEqual(
      report.steps.map((s) => s.microSteps),
      perMini,
    );
  });
}
