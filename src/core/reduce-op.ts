// The reductions, named once: the ranks' allReduce (src/ranks/collectives.ts) and the reduceRows
// kernel (src/ops/cpu/reduceRows.ts, shaders/reduceRows.wgsl, its code in src/ops/codes.ts) take them.

/** The reductions, in the order of their codes (allReduce's header argument, reduceRows' OP). */
export const REDUCE_OPS = ['sum', 'mean', 'max'] as const;
export type ReduceOp = (typeof REDUCE_OPS)[number];
