// What a framework home whose layout is a sampler of the explorer (flow_grpo, TRL, verl, DanceGRPO,
// Flow-Factory, and TRL's wrappers Unsloth and ms-swift) hands each area: one object in its index.ts,
// every field required, so the compiler names what a new home lacks. sampler-homes.ts lists them.
import type { Emitter } from '../bridge/emit-types.ts';
import type { VersionRule } from '../bridge/version-types.ts';
import type { SamplerDefault, SchemeDef } from '../grpo/scheme-types.ts';
import type { SamplerSpec } from '../samplers/spec.ts';
import type { FrameworkSpec } from '../steps/types.ts';
import type { TrlFramework } from './trl/wrappers.ts';
import type { SpecWeightColumn } from './one-step.ts';
import type { Absent } from './types.ts';

export interface SamplerFrameworkHome {
  /** Its folder under src/core/frameworks/ (the generic contiguous sampler's entry: 'contiguous'). */
  name: string;
  /** Its samplers (`layout --sampler NAME`, each name in SamplerName), in the explorer's order; none for a wrapper of TRL. */
  samplers: readonly SamplerSpec[];
  /** Its framework versions the steps model (`steps --framework NAME`, each name in FrameworkName). */
  steps: readonly FrameworkSpec[];
  /** Its advantage schemes (`advantages --scheme NAME`). */
  schemes: readonly SchemeDef[];
  /** What the framework does after each of its samplers (the explorer's regroup and scale), one per sampler. */
  samplerDefaults: readonly SamplerDefault[];
  /** Its `layout --emit` target, or why it has none. */
  emitter: Emitter | Absent;
  /** Its reading of the version a probe log names (`diff`), or why it has none. */
  versionRule: VersionRule | Absent;
  /** Its columns of the weights figure (`advantages --compare --weights`), one per step version it shows; none: not shown. */
  weightColumns: readonly SpecWeightColumn[];
  /** Its readings of TRL's batch settings (`--framework NAME` on the trl sampler); none where it reads TRL's as TRL 1.x does. */
  trlReadings: readonly TrlFramework[];
}
