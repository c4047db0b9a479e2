// `grpo-sandbox loss`: a calculator for the GRPO losses and their gradients (TRL's semantics,
// plus the seed-003 pairwise loss), on the CPU reference or on WebGPU.
import { ConfigError } from '../core/errors.ts';
import { cpuBackend, type OpsBackend } from '../ops/backend.ts';
import { computeLoss } from '../ops/loss.ts';
import { parseLossBatch } from './loss-batch.ts';
import type { Command } from './commands.ts';
import { choiceFlag, parseFlags } from './flags.ts';
import type { CliIo } from './io.ts';
import { readJsonInput } from './json-input.ts';
import { checkLossResult } from './loss-check.ts';

/** Tokens (B × T) one call accepts: 8·10^6 print as ~160 MB of JSON and take 32 MB per WebGPU buffer. */
export const MAX_LOSS_TOKENS = 8_000_000;

const spec = { input: { type: 'string' }, backend: { type: 'string' } } as const;

const help = `usage: grpo-sandbox loss [--input FILE] [--backend cpu|webgpu]

Reads one JSON object (from FILE, or stdin) and prints {"loss": number, "gradLogp": B × T}:
  logp, oldLogp        B × T per-token log-probabilities (current policy, sampling policy)
  refLogp              B × T, reference model (needed when beta > 0)
  mask                 B × T of 0/1 (default: all 1)
  advantages           B numbers (grpo, bnpo, dr_grpo, dapo)
  rewards              B numbers (pairwise: −log σ(log π_i − log π_j) for reward_i > reward_j within a group)
  settings             {lossType: grpo|bnpo|dr_grpo|dapo|pairwise (dapo), epsilonLow (0.2),
                        epsilonHigh (= epsilonLow), beta (0), maxCompletionLength (256),
                        groupSize (B; pairwise only)}   defaults are TRL GRPOConfig's
dapo divides by the active tokens of this batch (TRL: of the accumulated global batch).

  --backend cpu|webgpu   where to compute (default cpu; webgpu falls back to cpu with a notice)
`;

/** The backend asked for; WebGPU without an adapter falls back to the CPU with a notice on stderr. */
async function openBackend(name: string, io: CliIo): Promise<{ backend: OpsBackend; close(): void }> {
  if (name === 'cpu') return { backend: cpuBackend, close: () => {} };
  const { requestGpuDevice } = await import('../gpu/device.ts');
  const gpu = await requestGpuDevice();
  if (!gpu.ok) {
    io.err(`grpo-sandbox loss: WebGPU unavailable (${gpu.reason}); computing on the CPU reference instead\n`);
    return { backend: cpuBackend, close: () => {} };
  }
  const { createGpuBackend } = await import('../gpu/ops.ts');
  const backend = await createGpuBackend(gpu.device);
  return {
    backend,
    close: () => {
      backend.destroy();
      gpu.device.destroy();
    },
  };
}

const loss: Command = {
  summary: 'GRPO / DAPO / Dr. GRPO / pairwise loss and d loss / d logp for a JSON batch (CPU or WebGPU)',
  async run(args, io) {
    const flags = parseFlags(args, spec);
    if (flags.help) {
      io.out(help);
      return 0;
    }
    const backendName = choiceFlag(flags.backend, 'backend', ['cpu', 'webgpu'] as const) ?? 'cpu';
    const json = await readJsonInput(io, flags.input, 'loss');
    const batch = parseLossBatch(json);
    // Refused before any backend sees it: the printed gradient (~20 bytes a token) must fit in one
    // JavaScript string, and WebGPU's storage bindings (128 MiB by default) must hold each input.
    const cells = batch.shape.rows * batch.shape.tokens;
    if (cells > MAX_LOSS_TOKENS)
      throw new ConfigError(
        `the batch has B × T = ${batch.shape.rows} × ${batch.shape.tokens} = ${cells} tokens, above the limit of ${MAX_LOSS_TOKENS} ` +
          '(the gradient is printed per token, and each input must fit one WebGPU buffer); split it into smaller batches',
      );
    const { backend, close } = await openBackend(backendName, io);
    try {
      const r = await computeLoss(backend, batch);
      checkLossResult(batch, r);
      const { rows, tokens } = batch.shape;
      const gradLogp = Array.from({ length: rows }, (_, b) => Array.from(r.gradLogp.subarray(b * tokens, (b + 1) * tokens)));
      io.out(`${JSON.stringify({ loss: r.loss, gradLogp })}\n`);
    } finally {
      close();
    }
    return 0;
  },
};
export default loss;
