// The CLI's commands. Each command lives in its own file and is loaded only when asked for,
// so `grpo-sandbox layout` never pays for WebGPU or workers.
import type { CliIo } from './io.ts';

export interface Command {
  /** One line for `grpo-sandbox --help`. */
  summary: string;
  /**
   * Runs the command with its own arguments; returns the exit status (0 ok, 1 simulated failure,
   * 2 user mistake). Writes through `io` (never process.stdout directly) and throws ConfigError
   * for a user mistake: main() prints it as one line on stderr.
   */
  run(args: string[], io: CliIo): Promise<number>;
}

export const commands: Record<string, () => Promise<Command>> = {
  layout: async () => (await import('./layout.ts')).default,
  ranks: async () => (await import('./ranks.ts')).default,
  loss: async () => (await import('./loss.ts')).default,
  advantages: async () => (await import('./advantages.ts')).default,
  train: async () => (await import('./train.ts')).default,
  schedule: async () => (await import('./schedule.ts')).default,
  dynamic: async () => (await import('./dynamic.ts')).default,
  diff: async () => (await import('./diff.ts')).default,
  steps: async () => (await import('./steps.ts')).default,
  async: async () => (await import('./async.ts')).default,
};
