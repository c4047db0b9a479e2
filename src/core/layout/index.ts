// The layout core: types, gathers, regrouping, copies and statistics.
export type * from './types.ts';
export { gathers, gatherOfStep } from './gather.ts';
export { regroup, regroupMethods } from './regroup.ts';
export { copiesOf, promptsOfStep } from './copies.ts';
export { explainLayout } from './explain.ts';
export { layoutStats, type LayoutStats, type RepeatedPrompt } from './stats.ts';
export { gatherFacts, type GatherFacts, type StepFacts } from './gather-facts.ts';
