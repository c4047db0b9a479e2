// Helpers for a packer's token budget (PackerDef.budget): a setting as a number, a key's own name, a budget that
// is one key's value. Each framework's budget lives in its home's packer; this file names none.
// Then the work budget of a home's `layout` and `steps` (core/budget.ts): the steps and samples its settings plan,
// counted before building (FrameworkHome.plannedLayout), times per-sample costs measured on this machine.
import { type Estimate, STARTUP } from '../budget.ts';
import type { BudgetRule, FrameworkHome, FrameworkKey, FrameworkSettings, PlannedLayout, TokenBudget } from './types.ts';

export type { BudgetRule, TokenBudget } from './types.ts';

/** A setting's value when it is a finite number, else null. */
export const num = (settings: FrameworkSettings, flag: string): number | null => {
  const v = settings[flag];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/** The framework's own name of the key a flag sets. */
export const keyName = (keys: readonly FrameworkKey[], flag: string): string => keys.find((k) => k.flag === flag)?.key ?? flag;

/** A budget that is one key's value, when it is a positive number. */
export function keyBudget(keys: readonly FrameworkKey[], settings: FrameworkSettings, flag: string, rule: BudgetRule): TokenBudget | null {
  const tokens = num(settings, flag);
  return tokens !== null && tokens > 0 ? { tokens, from: keyName(keys, flag), rule } : null;
}

/** The budget these settings pack each micro-batch of a step (its token counts `seqlens`) under, or null. */
export function packingBudget(home: FrameworkHome, settings: FrameworkSettings, seqlens: readonly number[]): TokenBudget | null {
  return 'absent' in home.packing ? null : home.packing.budget(settings, seqlens);
}

/** A whole-number setting >= 1, else null (unset, null, or not a count). */
export const countSetting = (settings: FrameworkSettings, flag: string): number | null => {
  const v = num(settings, flag);
  return v !== null && Number.isSafeInteger(v) && v >= 1 ? v : null;
};

/**
 * epochs × ⌈prompts / train-batch-size⌉ steps of train-batch-size prompts × k samples (a step a prompt where the batch
 * is not a count of prompts). `prompts` defaults to dataset-size; epochs unset counts one.
 */
export function genericPlannedLayout(settings: FrameworkSettings, prompts = countSetting(settings, 'dataset-size') ?? 0): PlannedLayout {
  const k = countSetting(settings, 'k') ?? 1;
  const epochs = countSetting(settings, 'epochs') ?? 1;
  const perStep = countSetting(settings, 'train-batch-size');
  if (perStep === null) return { steps: epochs * prompts, samples: epochs * prompts * k };
  const steps = epochs * Math.ceil(prompts / perStep);
  return { steps, samples: steps * perStep * k };
}

/** At most `cap` steps (a key that stops the run early, when set), each of the same samples. */
export function cappedSteps(plan: PlannedLayout, cap: number | null): PlannedLayout {
  if (cap === null || cap >= plan.steps || plan.steps === 0) return plan;
  return { ...plan, steps: cap, samples: (plan.samples / plan.steps) * cap };
}

/** The steps and samples a home's layout will build with these settings, at most (FrameworkHome.plannedLayout). */
export function plannedLayout(home: FrameworkHome, settings: FrameworkSettings): PlannedLayout {
  const resolved = home.resolve ? home.resolve(settings) : settings;
  const generic = genericPlannedLayout(resolved);
  const plan = home.plannedLayout ? home.plannedLayout(resolved, generic) : generic;
  // Every loader orders the whole dataset (a permutation of it, an index) for each epoch it begins, even when a step
  // cap stops the run after a few steps; within the epochs set unless the home's steps run past them.
  const dataset = countSetting(resolved, 'dataset-size') ?? 0;
  const prompts = plan.samples / (countSetting(resolved, 'k') ?? 1);
  let begun = Math.max(1, Math.ceil(prompts / Math.max(dataset, 1)));
  if (plan.steps <= generic.steps) begun = Math.min(begun, countSetting(resolved, 'epochs') ?? 1);
  return { ...plan, datasetItems: dataset * begun };
}

/**
 * Per-sample costs of a home's layout and steps, measured by bench/framework-budget-one.ts on the 2-core x86-64 VM
 * (Intel Xeon, Node 20, load 5–8), CPU time of the measured run in one warm process and its peak RSS, at 102,400
 * samples over 64 ranks on every home: one step packed by its token-budget packer (the costliest: OpenRLHF's layout
 * 1.4–1.5 s, 210 MB; open-instruct's steps --json 1.3 s, 310 MB with 30 MB of output) and 800 steps of 128
 * without packing (0.02–0.5 s, 100–140 MB). Per sample of the layout ≤ 15 µs and ≤ 1.2 KB above the runtime;
 * per row of `steps` (a sample in one trainer pass) ≤ 9 µs and 1.1 KB. Rounded up here (measured before the last
 * Karmarkar–Karp change, which took OpenRLHF's packing from 0.8 to 0.55 s: an upper bound).
 */
const FRAMEWORK_COST = {
  layoutSample: { bytes: 1536, ms: 0.016 },
  // The loaders' order of the dataset, per prompt and epoch begun: 10^7 prompts with a step cap of 2 took 0.1–1.6 s
  // of CPU and 60–350 MB on the homes; NeMo RL's at 10^8, 27 s and 2.9 GB.
  datasetItem: { bytes: 32, ms: 0.0003 },
  stepsRow: { bytes: 1536, ms: 0.01 },
} as const;

/** The flags that shrink a planned layout. */
export const plannedLower = (plan: PlannedLayout): string => plan.lower ?? '--dataset-size, --epochs or --k';

/** The count in words: "800 steps × 128 samples = 102400 samples". */
export function plannedText(plan: PlannedLayout): string {
  const perStep = plan.steps ? Math.ceil(plan.samples / plan.steps) : 0;
  const items = plan.datasetItems ?? 0;
  return `${plan.steps} steps × ${perStep} samples = ${plan.samples} samples${items > plan.samples ? ` from ${items} dataset prompts ordered` : ''}`;
}

/** `layout --sampler NAME` for a home: building the planned steps (and packing them) and printing them. */
export function frameworkLayoutEstimate(plan: PlannedLayout): Estimate {
  const { layoutSample, datasetItem } = FRAMEWORK_COST;
  const items = plan.datasetItems ?? 0;
  return {
    bytes: STARTUP.bytes + plan.samples * layoutSample.bytes + items * datasetItem.bytes,
    ms: STARTUP.ms + plan.samples * layoutSample.ms + items * datasetItem.ms,
  };
}

/** The rows `steps --framework NAME --steps shown` builds: the first `shown` training steps' samples, once a pass. */
export function frameworkStepsRows(plan: PlannedLayout, shown: number): number {
  if (plan.steps === 0) return 0;
  return Math.min(shown, plan.steps) * (plan.samples / plan.steps) * (plan.passes ?? 1);
}

/** `steps --framework NAME`: the whole layout (steps builds it to find the shown steps), then the shown steps' rows. */
export function frameworkStepsEstimate(plan: PlannedLayout, shown: number): Estimate {
  const layout = frameworkLayoutEstimate(plan);
  const rows = frameworkStepsRows(plan, shown);
  return { bytes: layout.bytes + rows * FRAMEWORK_COST.stepsRow.bytes, ms: layout.ms + rows * FRAMEWORK_COST.stepsRow.ms };
}
