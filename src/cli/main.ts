import process from 'node:process';
import { ConfigError } from '../core/errors.ts';
import { commands } from './commands.ts';

async function usage(): Promise<string> {
  const lines = ['usage: grpo-sandbox <command> [flags]', '', 'commands:'];
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  for (const [name, load] of Object.entries(commands)) lines.push(`  ${name.padEnd(width)}  ${(await load()).summary}`);
  lines.push('', 'Run `grpo-sandbox <command> --help` for the flags of one command.');
  return lines.join('\n');
}

/** Runs the CLI; returns the exit status (0 ok, 1 failure, 2 bad input). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${await usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`grpo-sandbox: unknown command '${name}'; commands: ${Object.keys(commands).join(', ')}\n`);
    return 2;
  }
  try {
    const command = await load();
    return await command.run(rest);
  } catch (err) {
    // User mistakes get one clear line and status 2; anything else is a bug and keeps its stack.
    if (err instanceof ConfigError) {
      process.stderr.write(`grpo-sandbox ${name}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
