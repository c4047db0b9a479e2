import { ConfigError } from '../core/errors.ts';
import { commands } from './commands.ts';
import { escapeControls, quote } from './flags.ts';
import { type CliIo, processIo } from './io.ts';

async function usage(): Promise<string> {
  const lines = ['usage: grpo-sandbox <command> [flags]', '', 'commands:'];
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  for (const [name, load] of Object.entries(commands)) lines.push(`  ${name.padEnd(width)}  ${(await load()).summary}`);
  lines.push('', 'Run `grpo-sandbox <command> --help` for the flags of one command.');
  return lines.join('\n');
}

/**
 * Runs the CLI; returns the exit status (0 ok, 1 failure, 2 bad input). `io` defaults to the
 * process's own streams; tests and the fuzz driver pass a memory io to run many calls in one process.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(`${await usage()}\n`);
    return 0;
  }
  if (name === undefined) {
    // A mistake (no command), so the usage goes to stderr and stdout stays empty.
    io.err(`${await usage()}\n`);
    return 2;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    io.err(`grpo-sandbox: unknown command ${quote(name)}; commands: ${Object.keys(commands).join(', ')}\n`);
    return 2;
  }
  try {
    const command = await load();
    return await command.run(rest, io);
  } catch (err) {
    // User mistakes get one clear line and status 2; anything else is a bug and keeps its stack.
    if (err instanceof ConfigError) {
      // One visible line whatever the message quotes: newlines become spaces, other controls (a bare
      // CR, ESC, DEL) are escaped, so no user text can move the cursor or colour the terminal.
      io.err(`grpo-sandbox ${name}: ${escapeControls(err.message.replace(/\r?\n/g, ' '))}\n`);
      return 2;
    }
    throw err;
  }
}
