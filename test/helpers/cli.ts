import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `grpo-sandbox ...args` as a user would, optionally with stdin, on the runtime that runs the
 * test: `node bin/grpo-sandbox.js` under Node, `deno run -A src/cli/bin.ts` under Deno. So the
 * Deno pass of `npm test` checks Deno's CLI with the same assertions (parity) instead of
 * repeating the Node pass's Node processes.
 */
export function runCli(args: string[], input?: string): CliResult {
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
