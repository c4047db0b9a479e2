// What `grpo-sandbox async` prints without --json: one run's steps, drops and length bias, or the side-by-side table.
import type { RuleDef } from '../core/async/rule.ts';
import type { AsyncResult, AsyncWorkload, StepPacking, TrainedStep } from '../core/async/types.ts';

/** Steps printed in full; --json has all of them. */
export const SHOWN_STEPS = 40;

const fixed = (x: number, d = 2) => x.toFixed(d);
const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;

export function workloadLine(w: AsyncWorkload): string {
  const lengths = w.lengths.kind === 'given' ? `given (${w.lengths.lengths.length} prompts)` : `${w.lengths.name} (seed ${w.seed})`;
  const step = w.stepTime !== null ? `${w.stepTime} s per step` : `its tokens ÷ ${w.trainTokensPerSecond} tokens/s per step`;
  return (
    `workload: ${w.genWorkers} gen-workers × ${w.concurrency} concurrent completions at ${w.tokensPerSecond} tokens/s each; ` +
    `${w.trainBatchSize} prompts × k ${w.k} per step, ${step}; lengths ${lengths}; ${w.steps} steps`
  );
}

function settingsText(r: AsyncResult): string {
  const entries = Object.entries(r.settings);
  return entries.length === 0 ? 'no staleness setting' : entries.map(([k, v]) => `${k}=${v}`).join(', ');
}

/** "P3 v0" per group; "v0→2" for completions generated across updates (oldest → newest version). */
function groupsText(step: TrainedStep): string {
  const groups = new Map<number, { prompt: number; lo: number; hi: number; lag: number }>();
  for (const s of step.samples) {
    const vs = s.versions ?? [s.version!];
    const g = groups.get(s.group) ?? { prompt: s.prompt, lo: vs[0]!, hi: vs[0]!, lag: s.lag };
    g.lo = Math.min(g.lo, vs[0]!);
    g.hi = Math.max(g.hi, vs[vs.length - 1]!);
    groups.set(s.group, g);
  }
  return [...groups.values()].map((g) => `P${g.prompt} v${g.lo}${g.hi > g.lo ? `→${g.hi}` : ''} lag ${g.lag}`).join(', ');
}

/** "rows 412|398, 300|290": each micro-batch's rows in tokens, rank 0 first; then the samples the packer dropped. */
function packingText(p: StepPacking): string {
  const rows = p.rows.length === 0 ? 'none' : p.rows.map((ranks) => ranks.join('|')).join(', ');
  const dropped = p.dropped.map((d) => `P${d.prompt}#${d.index} ${d.length} tokens`).join(', ');
  return `rows (tokens per rank): ${rows}${dropped === '' ? '' : `; dropped ${dropped} (${p.dropped[0]!.why})`}`;
}

export function renderRun(r: AsyncResult, def: RuleDef, w: AsyncWorkload): string {
  const lines = [
    `${r.framework} (${def.pinned}): ${settingsText(r)}`,
    `lag = ${r.lagDefinition}`,
    workloadLine(w),
    '',
    'step  version     start       end  trainer idle  generator idle  batch by version',
  ];
  for (const s of r.steps.slice(0, SHOWN_STEPS)) {
    const byVersion = Object.entries(s.byVersion)
      .map(([v, n]) => `v${v}:${n}`)
      .join(' ');
    lines.push(
      `${String(s.step).padStart(4)}  ${String(s.version).padStart(7)}  ${fixed(s.start).padStart(8)}  ${fixed(s.end).padStart(8)}  ` +
        `${fixed(s.trainerIdle).padStart(12)}  ${fixed(s.generatorIdle).padStart(14)}  ${byVersion}`,
    );
    lines.push(`      ${groupsText(s)}`);
    if (s.packing) lines.push(`      ${packingText(s.packing)}`);
  }
  if (r.steps.length > SHOWN_STEPS) lines.push(`… ${r.steps.length - SHOWN_STEPS} more steps (--json has every step and sample)`);
  const sum = r.summary;
  lines.push('');
  lines.push(
    `lag: mean ${fixed(sum.meanLag)}, max ${sum.maxLag}; throughput ${fixed(sum.throughput, 3)} trained completions/s over ${fixed(sum.makespan)} s; ` +
      `trainer idle ${fixed(sum.trainerIdle)} s, generators idle ${fixed(sum.generatorIdle)} slot-s`,
  );
  const why = new Map<string, number>();
  for (const d of r.dropped) why.set(d.why, (why.get(d.why) ?? 0) + 1);
  const packed = r.steps.flatMap((s) => s.packing?.dropped ?? []);
  lines.push(
    (r.dropped.length === 0
      ? 'dropped: none'
      : `dropped: ${r.dropped.length} groups (${[...why].map(([k, n]) => `${k} ${n}`).join(', ')}); first: ${r.dropped[0]!.detail} ` +
        `(P${r.dropped[0]!.prompt} at v${r.dropped[0]!.atVersion}); none requeued`) +
      (packed.length === 0 ? '' : `; and ${packed.length} samples longer than token_budget, dropped by the trainer's packer`),
  );
  const b = sum.lengthBias;
  lines.push(`length bias: trained mean ${fixed(b.trainedMean, 1)} tokens vs generated ${fixed(b.generatedMean, 1)} (${pct(b.bias)})`);
  for (const [label, d] of Object.entries(b.byDifficulty)) {
    lines.push(
      `  ${label}: ${d.trained} trained of ${d.generated} generated completions; mean ${fixed(d.trainedMean, 1)} vs ${fixed(d.generatedMean, 1)}`,
    );
  }
  lines.push(`checked: ${def.checkedBy}`);
  return `${lines.join('\n')}\n`;
}

/** The bound and the policy: the settings `--max-staleness` and `--sampler-policy` set, by the last part of their key. */
function boundText(r: AsyncResult, def: RuleDef): string {
  const keys = def.keys.filter((k) => k.flag === 'max-staleness' || k.flag === 'sampler-policy');
  if (keys.length === 0) return 'no version control';
  return keys.map((k) => `${k.key.split('.').pop()!.replace(/^--/, '')}=${r.settings[k.key]}`).join(', ');
}

export function renderCompare(runs: { result: AsyncResult; def: RuleDef }[], w: AsyncWorkload): string {
  const rows = runs.map(({ result: r, def }) => {
    const hard = r.summary.lengthBias.byDifficulty.hard;
    const hardShare = hard ? `${hard.trained}/${hard.generated}` : '—';
    return [
      r.framework,
      boundText(r, def),
      fixed(r.summary.meanLag),
      String(r.summary.maxLag),
      String(r.summary.dropped),
      fixed(r.summary.throughput, 3),
      fixed(r.summary.trainerIdle, 1),
      pct(r.summary.lengthBias.bias),
      hardShare,
    ];
  });
  const head = ['framework', 'setting', 'mean lag', 'max lag', 'dropped', 'completions/s', 'trainer idle s', 'length bias', 'hard trained'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [workloadLine(w), '', line(head), ...rows.map(line), ''];
  out.push('lag is each framework’s own definition:');
  for (const { result: r } of runs) out.push(`  ${r.framework}: ${r.lagDefinition}`);
  out.push(
    'length bias: mean length of trained completions vs all finished ones; hard trained: completions of hard prompts trained / generated',
  );
  return `${out.join('\n')}\n`;
}
