// Public API of the simulated ranks: start a World on the main thread; rank programs receive a Rank.
export { World, WorldFailure, type WorldOptions, type ProgramRef, type RankOutcome } from './world.ts';
export { Rank, type RankProgram } from './rank.ts';
export { REDUCE_OPS, type ReduceOp, type RankMetrics, type WaitMode, type Payload } from './collectives.ts';
export { Tensor, stack, cat, DeviceMismatchError, type DeviceName } from './tensor.ts';
export { CollectiveError, CollectiveMismatchError, CollectiveTimeoutError, RankFailedError, ShapeMismatchError } from './faults.ts';
export { MAX_WORLD } from './arena.ts';
export { liveRankWorkers } from './spawn.ts';
export type { DType, TypedArray } from './dtype.ts';
