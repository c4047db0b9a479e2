// Where `grpo-sandbox schedule --policy` gets its controller policy: the uniform one, or a JSON
// file of per-head probability tables (src/core/schedule/policy.ts describes the format).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ConfigError } from '../core/errors.ts';
import {
  HEADS,
  INSERTION_POSITIONS,
  STAGE_WIDTH,
  controllerLayout,
  headShape,
  stageInputs,
  type ControllerDims,
  type ControllerPrompts,
} from '../core/env/controller.ts';
import { parseJsonText } from './json-input.ts';
import { quote } from './flags.ts';
import { parseHeadTables, uniformPolicy, type ControllerPolicy, type HeadTables } from '../core/schedule/index.ts';
import * as ops from '../ops/cpu/index.ts';

/** Reads a JSON file; a missing file or a syntax error is one ConfigError line naming `--policy`. */
function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `--policy ${quote(path)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give 'uniform' or a JSON file of tables`,
    );
  }
  return parseJsonText(text, `--policy ${quote(path)}`);
}

/** `uniform`, or the path of a JSON file of per-head tables. */
export function loadPolicy(spec: string): ControllerPolicy {
  if (spec === 'uniform') return uniformPolicy();
  const tables = parseHeadTables(readJson(spec), `--policy ${quote(spec)}`);
  return { name: basename(spec), description: `the policy tables in ${basename(spec)}`, tables: [tables] };
}

/**
 * A controller's action distribution per input, as tables: stage 1 once per input, stage 2 once
 * per input and insertion position (its one-hot is stage 2's input), knob 3 masked per position.
 * The forward pass is the CPU reference's (src/ops/cpu), the one the trainer samples from.
 */
export function policyFromParams(params: Float32Array, dims: ControllerDims, prompts: ControllerPrompts): HeadTables[] {
  const { tensors: t, length } = controllerLayout(dims);
  if (params.length !== length) {
    throw new ConfigError(
      `the parameters have ${params.length} numbers, but a controller with dModel ${dims.dModel}, hidden ${dims.hidden} has ${length}`,
    );
  }
  const view = (name: keyof typeof t) => params.subarray(t[name].offset, t[name].offset + t[name].length);
  const n = prompts.count;
  const P = INSERTION_POSITIONS.length;
  const inputs = stageInputs(dims);
  // Stage 1: one row per input.
  const h1 = ops.dense(prompts.stage1Input, view('w1'), view('b1'), { rows: n, inDim: inputs[1], outDim: dims.hidden, activation: 'tanh' });
  const logits1 = ops.dense(h1.y, view('w1h'), view('b1h'), {
    rows: n,
    inDim: dims.hidden,
    outDim: STAGE_WIDTH[1],
    activation: 'identity',
  }).z;
  const tier = ops.maskedSoftmax(logits1, null, headShape('tier', n)).probs;
  const insertion = ops.maskedSoftmax(logits1, null, headShape('insertion', n)).probs;
  // Stage 2: one row per (input, insertion position), the position as a one-hot beside the latency token.
  const rows = n * P;
  const x2 = new Float32Array(rows * inputs[2]);
  const position = new Uint32Array(rows);
  for (let r = 0; r < rows; r++) {
    const i = Math.floor(r / P);
    x2.set(prompts.stage2Input.subarray(i * inputs[2], (i + 1) * inputs[2]), r * inputs[2]);
    position[r] = r % P;
  }
  ops.oneHot(position, { rows, stride: inputs[2], offset: dims.dModel, width: HEADS.insertion.width }, x2);
  const h2 = ops.dense(x2, view('w2'), view('b2'), { rows, inDim: inputs[2], outDim: dims.hidden, activation: 'tanh' });
  const logits2 = ops.dense(h2.y, view('w2h'), view('b2h'), { rows, inDim: dims.hidden, outDim: STAGE_WIDTH[2], activation: 'identity' }).z;
  const topK = ops.maskedSoftmax(logits2, null, headShape('topK', rows)).probs;
  const knob3 = ops.maskedSoftmax(logits2, ops.knob3Mask(position), headShape('knob3', rows)).probs;
  const row = (probs: Float32Array, r: number, width: number) => Array.from(probs.subarray(r * width, (r + 1) * width));
  return Array.from({ length: n }, (_, i) => ({
    tier: row(tier, i, HEADS.tier.width),
    insertion: row(insertion, i, HEADS.insertion.width),
    topK: Array.from({ length: P }, (_, p) => row(topK, i * P + p, HEADS.topK.width)),
    knob3: Array.from({ length: P }, (_, p) => row(knob3, i * P + p, HEADS.knob3.width)),
  }));
}
