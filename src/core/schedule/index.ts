// The seed-001 schedule simulator: how the expanded batch of batch × k configurations runs on
// the ranks under each execution scheme (pure: no DOM, no GPU, no workers).
export * from './types.ts';
export { simulateSchedules, launchTime, groupsSpanRanks } from './simulate.ts';
export { planScheme, type Plan } from './schemes.ts';
export { buildWorkload, validateScheduleConfig, prefillLatencyMs, structureOf } from './workload.ts';
export { uniformPolicy, parseHeadTables, sampleActions, type ControllerPolicy, type HeadTables } from './policy.ts';
export {
  headline,
  caption,
  conclusion,
  formatTime,
  formatNumber,
  times,
  headlineFacts,
  headlineText,
  captionFacts,
  captionText,
  conclusionFacts,
  conclusionText,
  type HeadlineFacts,
  type CaptionFacts,
  type ConclusionFacts,
} from './explain.ts';
export { schedulePresets, schedulePresetNames } from './presets.ts';
