// The probe's generic entry point for the framework homes, run for real: Python imports
// probe/grpo_sandbox_probe.py and calls log_step(path, step, rank, prompt_ids, framework=, version=) for each
// (step, data-parallel rank) of a home's layout, as a framework's loop would (one process logging every rank,
// as a driver that dispatches does), then `grpo-sandbox diff` reads that file: identical for the home's own
// layout, the right first divergence for a perturbed one. Node only (it spawns Python).
// Python: $GRPO_PYTHON, else ./.venv/bin/python (the standard library is enough); skipped without one, failing under CI=true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const python = process.env.GRPO_PYTHON ?? join(root, '.venv', 'bin', 'python');
const havePython = existsSync(python);
if (!havePython && process.env.CI === 'true') throw new Error(`probe tests need Python: ${python} is missing (see .ci/run)`);
const skip = havePython ? false : `no Python at ${python} (set GRPO_PYTHON or create .venv, see README)`;

const dir = tempDir('grpo-probe-homes-');

/** Calls the probe's log_step for every (step, rank) of `steps`, writing `log`; settings as the run would pass them. */
function logWithProbe(log: string, framework: string, version: string, steps: number[][][], settings: Record<string, unknown>): void {
  const input = join(dir, `${framework}-input.json`);
  writeFileSync(input, JSON.stringify({ log, framework, version, steps, settings }));
  const script = [
    'import json, sys',
    "sys.path.insert(0, 'probe')",
    'from grpo_sandbox_probe import log_step',
    'a = json.load(open(sys.argv[1]))',
    "for step, ranks in enumerate(a['steps']):",
    '    for rank, ids in enumerate(ranks):',
    "        log_step(a['log'], step, rank, ids, framework=a['framework'], version=a['version'], settings=a['settings'])",
  ].join('\n');
  const res = spawnSync(python, ['-c', script, input], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(res.status, 0, `${res.stdout}\n${res.stderr}`);
}

const CASES: [string, string, string[], Record<string, unknown>][] = [
  [
    'nemo-rl',
    '7ea279a',
    ['--train-batch-size', '4', '--k', '2', '--ranks', '2', '--dataset-size', '16', '--epochs', '2', '--sequence-packing', 'false'],
    { 'grpo.num_prompts_per_step': 4, 'grpo.num_generations_per_prompt': 2 },
  ],
  [
    'slime',
    '624b824',
    ['--train-batch-size', '4', '--k', '2', '--ranks', '2', '--dataset-size', '16', '--epochs', '2', '--shuffle', 'true'],
    { 'rollout-batch-size': 4, 'rollout-shuffle': true },
  ],
  ['areal', '4aef98d', ['--train-batch-size', '4', '--k', '2', '--ranks', '2', '--dataset-size', '16', '--epochs', '2'], { k: 2 }],
];

for (const [home, commit, flags, settings] of CASES) {
  test(`${home}: log_step's log of the home's layout is identical; a sample moved to the other rank at step 2 diverges there`, {
    skip,
  }, async () => {
    const layout = await runCli(['layout', '--sampler', home, ...flags, '--json']);
    assert.equal(layout.status, 0, layout.stderr);
    const steps = (JSON.parse(layout.stdout).steps as { ranks: number[][] }[]).map((s) => s.ranks);
    const log = join(dir, `${home}.jsonl`);
    logWithProbe(log, home, commit, steps, settings);
    // One header per rank (written on its first call), one record per (step, rank).
    const lines = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.filter((l) => 'probe' in l).length, 2);
    assert.equal(lines.length, 2 + steps.length * 2);
    const res = await runCli(['diff', '--log', log, '--sampler', home, ...flags]);
    assert.equal(res.status, 0, res.stderr + res.stdout);
    assert.match(
      res.stdout,
      new RegExp(
        `^identical: every logged step matches the sandbox's layout \\(${steps.length} step\\(s\\) × 2 rank\\(s\\), --sampler ${home}, `,
      ),
    );
    assert.equal(res.stdout.split('\n').length, 2, res.stdout);

    // Step 2: rank 1's last sample and rank 0's first swapped (where they are different prompts).
    const step = steps[2]!.map((r) => [...r]);
    const j = step[1]!.findLastIndex((id) => id !== step[0]![0]);
    [step[0]![0], step[1]![j]] = [step[1]![j]!, step[0]![0]!];
    const perturbed = join(dir, `${home}-perturbed.jsonl`);
    logWithProbe(
      perturbed,
      home,
      commit,
      steps.map((r, s) => (s === 2 ? step : r)),
      settings,
    );
    const json = JSON.parse((await runCli(['diff', '--log', perturbed, '--sampler', home, ...flags, '--json'])).stdout);
    assert.equal(json.identical, false);
    assert.equal(json.matchingSteps, steps.length - 1);
    assert.deepEqual(json.first, { step: 2, epoch: 0, stepInEpoch: 2, rank: 0, expected: steps[2]![0], found: step[0] });
    assert.match(json.diagnosis, /^every step has the expected prompts, placed differently across ranks or slots: a different dispatch/);
    assert.deepEqual(json.notes, []);
  });
}
