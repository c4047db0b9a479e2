// checkpoint.json: parameters and Adam state bit for bit (float32 bytes in base64), the step
// count, and the random-number positions. Every draw of the run is Philox keyed by (seed, step,
// global sample position) and the sampler's layout is a pure function of (config, step), so the
// step count IS the position of every generator: resuming at step s replays nothing. Dynamic
// sampling reads extra layout batches (resamples): nextLayoutStep then runs ahead of the step.
import { ConfigError } from '../core/errors.ts';
import type { ReplicaState } from './program.ts';

export const CHECKPOINT_FORMAT = 'grpo-sandbox-checkpoint/1';

export interface CheckpointFile {
  format: typeof CHECKPOINT_FORMAT;
  step: number;
  rng: { philoxSeed: number; nextSampleStep: number; nextLayoutStep: number };
  paramCount: number;
  params: string;
  adamM: string;
  adamV: string;
}

const BASE64 = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', (c) => c.charCodeAt(0));
const PAD = 61; // '='

/**
 * The float32 bytes of `a` in base64 (what btoa gives for them), written as ASCII bytes and decoded
 * once: the same text as building a binary string for btoa, which took 4.1–4.4 s for the three
 * arrays of a dModel-2048 checkpoint (19 MB) where this takes 0.16–0.37 s. Plain code, so Node, Deno
 * and browsers share it.
 */
function toBase64(a: Float32Array): string {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = BASE64[v >> 18]!;
    out[o++] = BASE64[(v >> 12) & 63]!;
    out[o++] = BASE64[(v >> 6) & 63]!;
    out[o++] = BASE64[v & 63]!;
  }
  if (i < n) {
    const v = (bytes[i]! << 16) | (i + 1 < n ? bytes[i + 1]! << 8 : 0);
    out[o++] = BASE64[v >> 18]!;
    out[o++] = BASE64[(v >> 12) & 63]!;
    out[o++] = i + 1 < n ? BASE64[(v >> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  return new TextDecoder('ascii').decode(out);
}

function fromBase64(text: unknown, count: number, field: string, where: string): Float32Array {
  if (typeof text !== 'string') throw new ConfigError(`${where}: '${field}' is missing; the checkpoint is damaged, start a new run`);
  let s: string;
  try {
    s = atob(text);
  } catch {
    throw new ConfigError(`${where}: '${field}' is not base64; the checkpoint is damaged, start a new run`);
  }
  if (s.length !== count * 4)
    throw new ConfigError(`${where}: '${field}' holds ${s.length / 4} floats, the model has ${count}; it belongs to another configuration`);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return new Float32Array(bytes.buffer);
}

export function encodeCheckpoint(s: ReplicaState, seed: number): CheckpointFile {
  return {
    format: CHECKPOINT_FORMAT,
    step: s.step,
    rng: { philoxSeed: seed, nextSampleStep: s.step, nextLayoutStep: s.layoutStep ?? s.step },
    paramCount: s.params.length,
    params: toBase64(s.params),
    adamM: toBase64(s.m),
    adamV: toBase64(s.v),
  };
}

/** Reads a checkpoint for a model of `paramCount` parameters; `where` names the file in errors. */
export function decodeCheckpoint(json: unknown, paramCount: number, where: string): ReplicaState {
  const c = json as Partial<CheckpointFile> | null;
  if (!c || typeof c !== 'object' || c.format !== CHECKPOINT_FORMAT)
    throw new ConfigError(`${where} is not a grpo-sandbox checkpoint (format '${CHECKPOINT_FORMAT}' expected)`);
  if (!Number.isSafeInteger(c.step) || c.step! < 0) throw new ConfigError(`${where}: 'step' must be a whole number ≥ 0`);
  // Dynamic sampling's resamples move the layout ahead of the step count.
  const layoutStep = c.rng?.nextLayoutStep;
  return {
    step: c.step!,
    ...(Number.isSafeInteger(layoutStep) && layoutStep! >= c.step! ? { layoutStep } : {}),
    params: fromBase64(c.params, paramCount, 'params', where),
    m: fromBase64(c.adamM, paramCount, 'adamM', where),
    v: fromBase64(c.adamV, paramCount, 'adamV', where),
  };
}
