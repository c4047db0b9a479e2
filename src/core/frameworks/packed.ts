// Each training step's micro-batches per rank, where the framework packs (its PackerDef, switched on
// by the settings) and the step carries the token counts its packer reads. One definition for
// `grpo-sandbox layout --sampler NAME` and the browser's <grpo-framework>.
import type { FrameworkHome, FrameworkLayout, FrameworkSettings, FrameworkStep, PackedStep, PackerDef } from './types.ts';

/** The home's packer when these settings micro-batch by it (its switch on, or it has none), else null. */
export function activePacker(home: FrameworkHome, settings: FrameworkSettings): PackerDef | null {
  const packing = home.packing;
  if ('absent' in packing || !(packing.enabled?.(settings) ?? true)) return null;
  return packing;
}

/** One step's micro-batches (null where the framework does not pack with these settings or the step has no token counts). */
export function packedStep(home: FrameworkHome, step: FrameworkStep, settings: FrameworkSettings): PackedStep | null {
  const packer = activePacker(home, settings);
  return packer && step.seqlens ? packer.pack(step.seqlens, settings) : null;
}

/** steps[i]'s micro-batches (null where the framework does not pack with these settings or the step has no token counts). */
export function packedSteps(home: FrameworkHome, layout: FrameworkLayout, settings: FrameworkSettings): (PackedStep | null)[] {
  return layout.steps.map((s) => packedStep(home, s, settings));
}
