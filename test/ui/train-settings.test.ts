// The training dashboard's pure parts: its settings are the CLI's (same flags, same checks, same
// words), its link reproduces the configuration, its exports hold every step, and the texts for
// a missing cross-origin isolation and for the CPU fallback say what they should.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { DEFAULT_TRAIN, fusedStepGap, fusedStepUnsupported, TRAIN_PRESETS, type TrainConfig } from '../../src/train/config.ts';
import { fact, say } from '../../src/core/messages/index.ts';
import { trainingLayout } from '../../src/train/run.ts';
import { loadCatalogue, setLang } from '../../src/ui/i18n/index.ts';
import { isAsyncRow, TRAIN_SETTINGS } from '../../src/train/settings.ts';
import { clausesText, type SaidFact } from '../../src/ui/core-text.ts';
import { runSearch, trainRequest } from '../../src/ui/train/train-request.ts';

type TrainFlag = string;
const TRAIN_FLAGS = TRAIN_SETTINGS.map((s) => ({ flag: s.key }));
const configFromFlags = (get: (flag: string) => string | null) =>
  trainRequest(Object.fromEntries(['preset', ...TRAIN_FLAGS.map((f) => f.flag)].map((f) => [f, get(f) ?? undefined])));
import { CSV_COLUMNS, metricsCsv, metricsJsonl } from '../../src/ui/train/metrics-export.ts';
import { deviceNotice, isolationProblem } from '../../src/ui/train/messages.ts';
import { UPLOT_CSS_TEXT } from '../../src/ui/train/uplot-style.ts';
import type { StepRecord } from '../../src/train/run.ts';

// Chinese is a chunk the page loads before it switches; the tests load it once.
await loadCatalogue('zh-CN');

const fromFlags = (flags: Partial<Record<TrainFlag, string>>) => trainRequest(flags);

async function cliError(args: string[]): Promise<string> {
  const io = memoryIo();
  const status = await main(['train', ...args], io);
  assert.equal(status, 2, io.stderr);
  return io.stderr.replace(/^grpo-sandbox train: /, '').trimEnd();
}

/**
 * The train command's flags about files and output, which a page has no use for, and --threads and --helpers: where the
 * ranks run, not what they compute (the same results for any N; the page's world takes min(ranks, cores) threads and
 * train's default helpers).
 */
const FILE_FLAGS = ['out', 'resume', 'overwrite', 'json', 'threads', 'helpers'];

test("the dashboard's settings are the train command's flags (all but --out, --resume, --overwrite, --json, --threads and --helpers)", async () => {
  const io = memoryIo();
  assert.equal(await main(['train', '--help'], io), 0);
  const cliFlags = [...io.stdout.matchAll(/^\s+--([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((f) => !FILE_FLAGS.includes(f));
  assert.deepEqual(['preset', ...TRAIN_FLAGS.map((f) => f.flag)], cliFlags);
  assert.match(io.stdout, /--preset/);
});

test('no flags: the CLI demo; a preset then flags override it, as the CLI does', () => {
  assert.deepEqual(fromFlags({}), DEFAULT_TRAIN);
  const c = fromFlags({ preset: 'seed-003', steps: '7', seed: '5' });
  assert.deepEqual(c, { ...DEFAULT_TRAIN, ...TRAIN_PRESETS['seed-003']!.config, steps: 7, seed: 5 });
  // --epsilon-high defaults to --epsilon-low, as in the CLI.
  assert.equal(fromFlags({ 'epsilon-low': '0.1' }).epsilonHigh, 0.1);
  assert.equal(fromFlags({ 'dynamic-sampling': 'off' }).dynamicSampling, null);
  assert.equal(fromFlags({ 'dynamic-sampling': 'pad', sampler: 'trl' }).dynamicSampling, 'pad');
});

test('a bad setting is refused with the words the CLI prints (without the dashes on the page)', async () => {
  const cases: [Partial<Record<TrainFlag, string>>, string[]][] = [
    [{ k: '1' }, ['--k', '1']],
    [{ ranks: '0' }, ['--ranks', '0']],
    [{ lr: '2' }, ['--lr', '2']],
    [{ batch: 'x' }, ['--batch', 'x']],
    [{ advantage: 'dance', batch: '6', k: '4' }, ['--advantage', 'dance', '--batch', '6', '--k', '4']],
    [{ sampler: 'trl', batch: '3', k: '4', ranks: '1' }, ['--sampler', 'trl', '--batch', '3', '--k', '4', '--ranks', '1']],
    [{ loss: 'pairwise', 'dynamic-sampling': 'pad' }, ['--loss', 'pairwise', '--dynamic-sampling', 'pad']],
    [{ ranks: '64', batch: '65536' }, ['--ranks', '64', '--batch', '65536']],
  ];
  for (const [flags, args] of cases) {
    let message = '';
    let clauses: readonly SaidFact[] | null = null;
    try {
      fromFlags(flags);
    } catch (err) {
      message = (err as Error).message;
      clauses = (err as { clauses: readonly SaidFact[] | null }).clauses;
    }
    assert.notEqual(message, '', `${args.join(' ')} is refused`);
    const cli = await cliError(args);
    // One parse function: the same words.
    assert.equal(message, cli, args.join(' '));
    // Said as facts: the form names each setting by its key, without the CLI's dashes.
    assert.ok(clauses, `${args.join(' ')} is said as facts`);
    assert.doesNotMatch(clausesText(clauses, true), /--/);
  }
});

test('the link carries every setting and the seed, and reads back as the same configuration', () => {
  const c = fromFlags({ ranks: '4', batch: '16', k: '4', sampler: 'trl', steps: '40', seed: '9', lr: '0.02', beta: '0.01' });
  const search = runSearch(c);
  const p = new URLSearchParams(search);
  assert.equal(p.get('view'), 'train');
  // Every setting but dynamic sampling's own (off here, where the CLI refuses them) and --async's bound and simulation (async is off).
  for (const f of TRAIN_FLAGS)
    assert.equal(p.has(f.flag), !['max-resample-times', 'filter-metric', 'max-staleness'].includes(f.flag) && !isAsyncRow(f.flag), f.flag);
  assert.deepEqual(
    configFromFlags((f) => p.get(f)),
    c,
  );
  const seed003 = fromFlags({ preset: 'seed-003', steps: '3' });
  const back = new URLSearchParams(runSearch(seed003, 'seed-003'));
  assert.deepEqual(
    configFromFlags((f) => back.get(f)),
    seed003,
    "the preset's model size travels as preset=",
  );
});

const record = (step: number, kl: number | null): StepRecord => ({
  step,
  rewardMean: 0.5 + step / 100,
  rewardStd: 0.1,
  optimumFraction: 0.8 + step / 1000,
  loss: -0.0123456789012345 * step,
  kl,
  entropy: { tier: 1.1, insertion: 1.2, topK: 1 / 3, knob3: 0.7 },
  zeroStdFraction: 0.25,
  clipFraction: 0,
  gradNorm: 0.5,
  advantageStd: 0.9,
  stepMs: 12.5,
  layoutStep: step - 1,
});

test('JSONL and CSV exports: one line or row per step, numbers that read back exactly', () => {
  const records = [record(1, null), record(2, 0.0003), record(3, 1e-9)];
  const lines = metricsJsonl(records).trimEnd().split('\n');
  assert.deepEqual(
    lines.map((l) => JSON.parse(l)),
    records,
  );
  const rows = metricsCsv(records).trimEnd().split('\n');
  assert.equal(rows.length, 4);
  const header = rows[0]!.split(',');
  assert.deepEqual(
    header,
    CSV_COLUMNS.map(([n]) => n),
  );
  rows.slice(1).forEach((row, i) => {
    const cells = row.split(',');
    assert.equal(cells.length, header.length);
    assert.equal(Number(cells[header.indexOf('loss')]), records[i]!.loss);
    assert.equal(Number(cells[header.indexOf('entropyTopK')]), 1 / 3);
  });
  assert.equal(rows[1]!.split(',')[header.indexOf('kl')], '', 'no KL without a reference: an empty cell');
});

test('missing cross-origin isolation: the message names what is missing', () => {
  assert.equal(isolationProblem({ isSecureContext: true, crossOriginIsolated: true }), null);
  const none = isolationProblem({ isSecureContext: true, crossOriginIsolated: false, coop: null, coep: null })!;
  assert.match(none, /without a Cross-Origin-Opener-Policy header \(needs same-origin\)/);
  assert.match(none, /without a Cross-Origin-Embedder-Policy header \(needs require-corp or credentialless\)/);
  assert.match(none, /SharedArrayBuffer/);
  const onlyCoep = isolationProblem({ isSecureContext: true, crossOriginIsolated: false, coop: 'same-origin', coep: 'unsafe-none' })!;
  assert.doesNotMatch(onlyCoep, /Opener/);
  assert.match(onlyCoep, /with Cross-Origin-Embedder-Policy: unsafe-none/);
  const insecure = isolationProblem({ isSecureContext: false, crossOriginIsolated: false, coop: 'same-origin', coep: 'require-corp' })!;
  assert.match(insecure, /not a secure context/);
  const framed = isolationProblem({ isSecureContext: true, crossOriginIsolated: false, coop: 'same-origin', coep: 'require-corp' })!;
  assert.match(framed, /embedding page or frame/);
  const unread = isolationProblem({ isSecureContext: true, crossOriginIsolated: false })!;
  assert.match(unread, /could not be read; it needs Cross-Origin-Opener-Policy: same-origin/);
});

test('the CPU fallback notice: shown for backend auto when train() reports no WebGPU, never for backend cpu', () => {
  const fallback = fact('run.webgpu-unavailable', { reason: 'no WebGPU adapter' });
  assert.equal(deviceNotice('auto', [fallback]), 'WebGPU unavailable (no WebGPU adapter): training on the CPU instead.');
  assert.equal(deviceNotice('auto', []), null);
  assert.equal(deviceNotice('cpu', [fallback]), null);
  // The CLI prints the line it always printed.
  assert.equal(say(fallback), 'WebGPU unavailable (no WebGPU adapter); training on the CPU instead');
});

test('the fused-step notice: the setting the fused WebGPU step does not run, in the English the CLI printed and in Chinese', () => {
  // Recorded from fusedStepUnsupported before its reasons became facts.
  const recorded: [Partial<TrainConfig>, string][] = [
    [{ dynamicSampling: 'fallback' }, '--dynamic-sampling (its resampling loop runs on the CPU)'],
    [{ gradientAccumulationSteps: 2 }, 'micro-steps (--gradient-accumulation-steps, --num-iterations, --steps-per-generation)'],
    [{ loss: 'pairwise', ranks: 2 }, '--loss pairwise on more than one rank (its groups are gathered across ranks inside the loss)'],
    [
      { loss: 'pairwise', ranks: 1, sampler: 'flow-grpo' },
      "--loss pairwise with --sampler flow-grpo, whose step 0 does not give each prompt's 8 samples side by side " +
        '(the fused pairwise loss ranks contiguous groups)',
    ],
    [{ loss: 'pairwise', ranks: 1, sampler: 'trl' }, ''],
    // β > 0 runs fused since the reference pass and the KL term are dispatches of the fused step.
    [{ beta: 0.1 }, ''],
  ];
  for (const [over, english] of recorded) {
    const c = { ...DEFAULT_TRAIN, backend: 'webgpu' as const, ...over };
    assert.equal(fusedStepUnsupported(c, trainingLayout(c)) ?? '', english, JSON.stringify(over));
    const gap = fusedStepGap(c, trainingLayout(c));
    if (!gap) continue;
    const notice = fact('run.fused-unsupported', { gap });
    assert.equal(
      say(notice),
      `the fused WebGPU step does not run ${english}: each rank runs every op as its own GPU submission and readback (slower)`,
    );
    assert.doesNotMatch(deviceNotice('webgpu', [notice])!, /--/, 'the form names settings by their keys');
    setLang('zh-CN');
    try {
      assert.match(deviceNotice('webgpu', [notice])!, /^融合的 WebGPU step 不运行/);
    } finally {
      setLang('en');
    }
  }
});

test("the shadow root's uPlot stylesheet is the installed uplot/dist/uPlot.min.css", () => {
  const path = createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css');
  assert.equal(UPLOT_CSS_TEXT, readFileSync(path, 'utf8').trim());
});

test('the form says what a derived setting stands for: steps-per-generation and the framework version, in en and zh-CN', async () => {
  const { derivedNote } = await import('../../src/ui/train/messages.ts');
  setLang('en');
  // The demo (flow-grpo, one micro-step per optimizer step) showed `0` and `trl-1.13.0` with no word.
  assert.equal(
    derivedNote('steps-per-generation', DEFAULT_TRAIN),
    'read by the trl sampler only: flow-grpo generates one micro-batch per optimizer step',
  );
  assert.match(derivedNote('framework', DEFAULT_TRAIN)!, /no effect here$/);
  const trl = { ...DEFAULT_TRAIN, sampler: 'trl', gradientAccumulationSteps: 4 } as TrainConfig;
  assert.equal(derivedNote('steps-per-generation', trl), '0 = gradient accumulation (4), as TRL does');
  assert.equal(derivedNote('steps-per-generation', { ...trl, stepsPerGeneration: 8 }), null, 'a given value is what it says');
  assert.equal(derivedNote('framework', trl), 'its loss normaliser weights each of the 4 micro-steps of an optimizer step');
  assert.equal(
    derivedNote('framework', { ...trl, stepsPerGeneration: 8, numIterations: 2 }),
    'its loss normaliser weights each of the 16 micro-steps of an optimizer step',
  );
  assert.equal(derivedNote('ranks', trl), null);
  setLang('zh-CN');
  assert.equal(derivedNote('steps-per-generation', trl), '0 = 梯度累积步数（4），与 TRL 相同');
  setLang('en');
});
