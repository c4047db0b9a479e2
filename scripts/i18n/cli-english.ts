// The English the CLI prints for the messages the page also shows translated (layout notes,
// ConfigErrors, schedule and dynamic captions), run in one process through main() with a memory io.
// `npm run snapshots` records it in readable text, one file per command (and per preset for the
// layouts) in test/fixtures/cli-english/; test/cli/english-unchanged.test.ts checks that the CLI
// still prints exactly that, and shows the lines that changed. A reviewer reads the change in git's diff.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';
import { memoryIo } from '../../src/cli/io.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

const PRESETS = ['seed-000', 'seed-001', 'seed-002', 'seed-003', 'seed-004'];
const SAMPLERS = ['flow-grpo', 'flow-grpo-lcm', 'trl', 'contiguous', 'dance-grpo', 'group-distributed', 'verl'];

/** Variations that reach the samplers' other notes (dropped prompts, reuse, straddling groups, loaders). */
const VARIATIONS: string[][] = [
  [],
  ['--dataset-size', '37'],
  ['--num-iterations', '2', '--steps-per-generation', '2', '--gradient-accumulation-steps', '2'],
  ['--k', '2'],
  ['--num-workers', '0', '--accelerate-prepare', '0'],
  ['--accelerate-prepare', '1'],
  ['--balance-batch', 'false'],
  ['--dataloader-num-workers', '0'],
];

/** Settings the core refuses, each naming its rule. */
const BAD_LAYOUTS: string[][] = [
  ['--k', '3'],
  ['--k', '5', '--sampler', 'trl'],
  ['--k', '1', '--sampler', 'trl'],
  ['--k', '3', '--sampler', 'group-distributed'],
  ['--k', '3', '--sampler', 'contiguous'],
  ['--k', '3', '--sampler', 'dance-grpo'],
  ['--k', '3', '--sampler', 'verl'],
  ['--k', '3', '--sampler', 'flow-grpo-lcm'],
  ['--dataset-size', '2'],
  ['--dataset-size', '2', '--sampler', 'trl'],
  ['--dataset-size', '2', '--sampler', 'dance-grpo'],
  ['--dataset-size', '2', '--sampler', 'verl'],
  ['--dataset-size', '2', '--sampler', 'group-distributed'],
  ['--dataset-size', '2', '--sampler', 'contiguous'],
  ['--dataset-size', '2', '--sampler', 'flow-grpo-lcm'],
  ['--batches-per-epoch', '100'],
  ['--batches-per-epoch', '100', '--sampler', 'group-distributed'],
  ['--batches-per-epoch', '5', '--sampler', 'flow-grpo-lcm'],
  ['--batches-per-epoch', '3', '--sampler', 'trl'],
  ['--num-workers', '2', '--sampler', 'trl'],
  ['--ranks', '3'],
  ['--ranks', '3', '--sampler', 'trl'],
  ['--ranks', '5', '--sampler', 'verl'],
  ['--batch', '3', '--sampler', 'dance-grpo'],
  ['--ranks', '0'],
  ['--ranks', '1.5'],
  ['--batch', 'x'],
  ['--seed', '1e30'],
  ['--epochs', '100000', '--batch', '64', '--ranks', '64'],
  ['--epochs', '1000', '--dataset-size', '100000'],
  ['--ranks', '2000', '--batch', '2000'],
  ['--sampler', 'nope'],
  ['--preset', 'nope'],
  ['--train-batch-size', '3', '--sampler', 'verl'],
  ['--generation-batch-size', '7', '--sampler', 'trl'],
  ['--balance-batch', 'maybe', '--sampler', 'verl'],
];

export const CASES: string[][] = [
  ...PRESETS.flatMap((preset) =>
    SAMPLERS.flatMap((sampler) => VARIATIONS.map((v) => ['layout', '--preset', preset, '--sampler', sampler, ...v])),
  ),
  ...SAMPLERS.map((sampler) => ['layout', '--sampler', sampler, '--json']),
  ...BAD_LAYOUTS.map((args) => ['layout', ...args]),
  ['schedule'],
  ['schedule', '--alpha', '0.3', '--max-batch', '3', '--ranks', '6'],
  ['schedule', '--ranks', '3', '--gather-cost', '0.5'],
  ['schedule', '--latency', 'controller', '--alpha', '0.2', '--seed', '3'],
  ['schedule', '--latency', 'controller', '--ranks', '1', '--batch', '2', '--k', '8'],
  ['schedule', '--alpha', '2'],
  ['schedule', '--batch', '1000', '--k', '1000'],
  ['schedule', '--gather-cost', '-1'],
  ['schedule', '--ranks', '0'],
  ['schedule', '--schemes', 'nope'],
  ['dynamic'],
  ['dynamic', '--preset', 'seed-002'],
  ['dynamic', '--preset', 'seed-004'],
  ['dynamic', '--preset', 'none', '--policy', 'pad', '--p', '0.5'],
  ['dynamic', '--preset', 'none', '--policy', 'rebalance'],
  ['dynamic', '--preset', 'none', '--policy', 'stream', '--range', '0,1'],
  ['dynamic', '--per-rank', '5', '--k', '4'],
  ['dynamic', '--ranks', '0'],
  ['dynamic', '--p', '2'],
  ['dynamic', '--policy', 'nope'],
  ['steps'],
  ['steps', '--framework', 'verl'],
];

/** What a case printed: its exit status, stdout and stderr. */
export interface Printed {
  args: string[];
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs one case (`dynamic` writes to the process's own stdout, so it runs as a process; the rest in this one). */
export async function capture(args: string[]): Promise<Printed> {
  if (args[0] === 'dynamic') {
    const res = spawnSync('node', ['bin/grpo-sandbox.js', ...args], { cwd: root, encoding: 'utf8' });
    return { args, status: res.status ?? -1, stdout: res.stdout, stderr: res.stderr };
  }
  const io = memoryIo();
  const status = await main(args, io);
  return { args, status, stdout: io.stdout, stderr: io.stderr };
}

/** The snapshot file a case is kept in: one per command, and per preset for the layouts. */
export function snapshotFile(args: readonly string[]): string {
  const preset = args[1] === '--preset' ? `-${args[2]}` : args[0] === 'layout' ? (args.includes('--json') ? '-json' : '-other') : '';
  return `${args[0]}${preset}.txt`;
}

/** One case as the snapshot holds it: a header line with the command, its status, stdout and stderr. */
export function snapshotText(p: Printed): string {
  const block = (name: string, text: string) =>
    text === '' ? '' : `--- ${name}\n${text}${text.endsWith('\n') ? '' : '\n(no newline at the end)\n'}`;
  return `=== grpo-sandbox ${p.args.join(' ')}\nstatus ${p.status}\n${block('stdout', p.stdout)}${block('stderr', p.stderr)}`;
}

/** Every snapshot file's text, by name, in CASES order. */
export function snapshots(printed: readonly Printed[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const p of printed) files.set(snapshotFile(p.args), (files.get(snapshotFile(p.args)) ?? '') + snapshotText(p));
  return files;
}

export const SNAPSHOT_DIR = fileURLToPath(new URL('../../test/fixtures/cli-english/', import.meta.url));

if (import.meta.url === `file://${process.argv[1]}`) {
  const out: Printed[] = [];
  for (const args of CASES) out.push(await capture(args));
  rmSync(SNAPSHOT_DIR, { recursive: true, force: true });
  mkdirSync(SNAPSHOT_DIR, { recursive: true });
  for (const [name, text] of snapshots(out)) writeFileSync(`${SNAPSHOT_DIR}${name}`, text);
  console.log(`recorded ${out.length} cases in ${SNAPSHOT_DIR}`);
}
