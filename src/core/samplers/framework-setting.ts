// `--framework NAME` read with the layout: one name for the layout and the steps report (the framework
// versions of src/core/steps/frameworks.ts). A name whose reading of TRL's batch settings differs
// (src/core/frameworks/trl/wrappers.ts: TRL 0.18.2, Unsloth, ms-swift) pins the trl layout to it; the
// others leave the layout as it is and name the loss normaliser only. A framework that trains only TRL's
// layout chooses the trl sampler when no sampler is given.
import type { LayoutConfig, SamplerName } from '../layout/types.ts';
import { configError, fact } from '../messages/index.ts';
import { samplerNames } from './index.ts';
import { FRAMEWORK_NAMES, FRAMEWORKS } from '../steps/frameworks.ts';
import { FLOW_GRPO_FAST } from '../frameworks/flow-grpo/fast.ts';
import { TRL_FRAMEWORKS, type TrlFramework } from '../frameworks/trl/wrappers.ts';

export interface FrameworkReading {
  name: string;
  /** The sampler it chooses (no --sampler given). */
  sampler?: SamplerName;
  /** Its reading of TRL's batch settings, where it differs from TRL 1.x's. */
  trl?: TrlFramework;
  /** flow_grpo's train_sd3_fast.py: the loader settings and seed the script fixes. */
  fixed?: Partial<LayoutConfig>;
}

/** The framework `text` names, checked against the sampler; undefined when none is given. */
export function readFramework(text: string | undefined, config: LayoutConfig, samplerGiven: boolean): FrameworkReading | undefined {
  if (text === undefined) return undefined;
  const spec = Object.hasOwn(FRAMEWORKS, text) ? FRAMEWORKS[text]! : undefined;
  if (!spec) throw configError([fact('steps.unknown-framework', { got: text.slice(0, 40), frameworks: [...FRAMEWORK_NAMES] })]);
  const trl = Object.hasOwn(TRL_FRAMEWORKS, text) ? TRL_FRAMEWORKS[text] : undefined;
  // A framework that trains one sampler's layout (TRL's versions and wrappers) chooses it when no sampler is given.
  const trains = samplerNames.filter((s) => spec.accepts(s));
  const only = trains.length === 1 ? trains[0] : undefined;
  const sampler = !samplerGiven && !spec.accepts(config.sampler) ? only : undefined;
  const runs = sampler ?? config.sampler;
  if (!spec.accepts(runs)) {
    const fits = FRAMEWORK_NAMES.filter((n) => FRAMEWORKS[n]!.accepts(runs));
    throw configError([fact('steps.framework-sampler', { framework: text, sampler: runs, fits })], only ? [{ sampler: only }] : []);
  }
  return { name: text, sampler, trl, fixed: text === FLOW_GRPO_FAST.name ? FLOW_GRPO_FAST.fixed : undefined };
}
