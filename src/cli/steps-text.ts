// The text report of `grpo-sandbox steps`: a header, one table per optimizer step (a line per
// rank's micro-batch), then the findings and notes as paragraphs. Draws what core computed.
import { FRAMEWORKS, type OptimizerStep, type StepsReport } from '../core/steps/index.ts';
import { say } from '../core/messages/index.ts';
import { verlMaxTokenLen, verlMaxTokenLenText } from '../core/frameworks/verl/rearrange.ts';

const ratioText = (w: number, intended: number) => (intended > 0 ? (w / intended).toFixed(2) : '—');

function wrap(text: string, width = 100, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

function stepTable(step: OptimizerStep): string {
  const title = step.applied
    ? `optimizer step ${step.index} (epoch ${step.epoch}, ${step.microSteps} micro-step(s), update × ${step.updateScale.toFixed(4)} of the token mean's)`
    : `never applied (epoch ${step.epoch}, ${step.microSteps} trailing micro-step(s): the optimizer never steps on them)`;
  const head = ['micro', 'rank', 'gen', 'pass', 'policy', 'normaliser', 'completions #id:tokens ×ratio'];
  const body = step.microBatches.map((m) => [
    String(m.microStep),
    String(m.rank),
    String(m.generation),
    String(m.pass),
    m.trainVersion > m.policyVersion ? `${m.policyVersion}→${m.trainVersion} off` : `${m.policyVersion}`,
    m.normaliser,
    m.rows
      .map((i) => {
        const r = step.rows[i]!;
        return `#${r.completion}:${r.tokens} ×${ratioText(r.weight, r.intendedWeight)}`;
      })
      .join('  '),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((row) => (c < head.length - 1 ? row[c]!.length : 0))));
  const fmt = (row: string[]) => row.map((cell, c) => (c < row.length - 1 ? cell.padEnd(widths[c]!) : cell)).join('  ');
  return [title, `  ${fmt(head)}`, ...body.map((row) => `  ${fmt(row)}`)].join('\n');
}

export function renderSteps(report: StepsReport, show: number): string {
  const c = report.config;
  const applied = report.steps.filter((s) => s.applied).length;
  const micro = report.steps.reduce((n, s) => n + s.microSteps, 0);
  const out: string[] = [];
  out.push(`steps: --sampler ${c.sampler} trained by ${report.framework.name}, loss ${report.loss}`);
  out.push(
    wrap(
      `W=${c.ranks} ranks, ` +
        // verl's Ulysses SP: each rank is a data-parallel group of S GPUs holding the same samples.
        ((c.ulyssesSequenceParallelSize ?? 1) > 1
          ? `each a group of ulysses_sequence_parallel_size ${c.ulyssesSequenceParallelSize} GPUs (${c.ranks * c.ulyssesSequenceParallelSize!} in all), `
          : '') +
        (c.useDynamicBsz
          ? `micro-batches cut by tokens (use_dynamic_bsz: at most ${verlMaxTokenLenText(verlMaxTokenLen(c))} tokens each, ` +
            'the ranks’ largest count), '
          : `${report.microBatch} completion(s) per rank per micro-step, `) +
        (c.useDynamicBsz
          ? ''
          : report.gradientAccumulationFrom === 'ppo-mini-batch'
            ? `gradient accumulation ${report.gradientAccumulation} (ppo_mini_batch_size // ppo_micro_batch_size_per_gpu), `
            : `gradient_accumulation_steps ${report.gradientAccumulation}, `) +
        (FRAMEWORKS[report.framework.name]!.schedule.readsStepsPerGeneration ? `steps_per_generation ${c.stepsPerGeneration}, ` : '') +
        `passes per generation (num_iterations / inner epochs / ppo_epochs) ${c.numIterations}: ${micro} micro-steps, ${applied} optimizer step(s).`,
    ),
  );
  out.push(
    wrap(
      '×ratio = the weight of the completion’s tokens in the applied update ÷ the global token mean’s (1 / the step’s tokens, all ranks); ' +
        'policy = optimizer steps before the completions were generated (→ before this micro-step when later: off-policy).',
    ),
  );
  out.push('');
  const shown = report.steps.slice(0, show);
  for (const step of shown) out.push(stepTable(step), '');
  if (report.steps.length > shown.length)
    out.push(`… ${report.steps.length - shown.length} more step(s) (--show N, or --json for all).`, '');
  out.push('Findings');
  for (const f of report.findings) out.push(wrap(`- ${say(f)}`, 100, '  '));
  out.push('', 'Notes');
  for (const n of report.notes) out.push(wrap(`- ${say(n)}`, 100, '  '));
  return `${out.join('\n')}\n`;
}
