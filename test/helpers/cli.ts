import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { memoryIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `grpo-sandbox ...args` in the test's own process, on the runtime that runs the test: the
 * CLI's entry `main(argv, io)` with a memory io, whose stdin is `input` (or empty, as a spawned
 * process's stdin is when nothing is piped). The same argument parsing, commands, output and exit
 * status as a process gives, and the same written files; what it leaves out is the process around
 * `main` (src/cli/bin.ts: the process's streams, draining them, `process.exit`), which the tests of
 * `runCliProcess`, `runCliNode` and `runCliDeno` cover. A command's own error (a bug, not a user
 * mistake) would end a process with status 1 and its stack on stderr: so it ends here too. Under
 * Deno this is Deno's CLI, under Node Node's: the Deno pass checks Deno's CLI with every CLI
 * assertion, without a `deno run` per case (test/README.md).
 */
export async function runCli(args: string[], input?: string): Promise<CliResult> {
  const io = memoryIo(input ?? '');
  let status: number;
  try {
    status = await main(args, io);
  } catch (err) {
    io.err(`${(err as Error)?.stack ?? String(err)}\n`);
    status = 1;
  }
  return { status, stdout: io.stdout, stderr: io.stderr };
}

/**
 * Runs the CLI as a process of the runtime that runs the test (`runCliNode` under Node,
 * `runCliDeno` under Deno), for what only a process shows: its entry, its streams, its exit.
 */
export function runCliProcess(args: string[], input?: string): CliResult {
  return 'Deno' in globalThis ? runCliDeno(args, input) : runCliNode(args, input);
}

/**
 * Runs the CLI under Node (`node bin/grpo-sandbox.js ...args`) whatever runs the test. Under
 * `npm test`, GRPO_CLI_BUNDLE names the CLI's cached bundle (bin/cached-bundle.js), which
 * bin/grpo-sandbox.js would also run, without looking for it in every run.
 */
export function runCliNode(args: string[], input?: string): CliResult {
  const entry = process.env.GRPO_CLI_BUNDLE ?? 'bin/grpo-sandbox.js';
  const res = spawnSync('node', [entry, ...args], { cwd: root, encoding: 'utf8', input, maxBuffer: 1 << 28 });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** Runs the same CLI under Deno (`deno run -A src/cli/bin.ts ...args`). */
export function runCliDeno(args: string[], input?: string): CliResult {
  const res = spawnSync('node_modules/.bin/deno', ['run', '-A', '--no-check', 'src/cli/bin.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    input,
    maxBuffer: 1 << 28,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}
