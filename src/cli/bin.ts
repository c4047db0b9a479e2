// Process entry shared by Node (through bin/grpo-sandbox.js) and Deno (deno run -A src/cli/bin.ts).
import process from 'node:process';
import { processIo } from './io.ts';
import { main } from './main.ts';

const code = await main(process.argv.slice(2), processIo());
// Exit explicitly: a WebGPU device (Dawn) or a worker left behind must not keep the process
// alive. But first let stdout and stderr drain: into a pipe they are asynchronous, and an
// early exit would cut a long report short (`grpo-sandbox layout … | less`).
const drained = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
await Promise.all([drained(process.stdout), drained(process.stderr)]);
process.exit(code);
