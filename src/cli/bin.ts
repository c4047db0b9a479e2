// Process entry shared by Node (through bin/grpo-sandbox.js) and Deno (deno run -A src/cli/bin.ts).
import process from 'node:process';
import { main } from './main.ts';

const code = await main(process.argv.slice(2));
// Exit explicitly: a WebGPU device (Dawn) or a worker left behind must not keep the process alive.
process.exit(code);
