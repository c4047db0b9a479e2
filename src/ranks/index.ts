// Public API of the simulated ranks: start a World on the main thread; rank programs receive a Rank.
export { World, WorldFailure, type WorldOptions, type ProgramRef, type RankOutcome } from './world.ts';
export { Rank, type RankProgram } from './rank.ts';
export type { RankMetrics, WaitMode, Payload } from './collectives.ts';
export { REDUCE_OPS, type ReduceOp } from '../core/reduce-op.ts';
export { Tensor, stack, cat, DeviceMismatchError, type DeviceName } from './tensor.ts';
export { CollectiveError, CollectiveMismatchError, CollectiveTimeoutError, RankFailedError, ShapeMismatchError } from './faults.ts';
export { MAX_WORLD } from './arena.ts';
export { liveRankWorkers, RANK_WORKER, type RankWorkerEntry } from './spawn.ts';
export type { DType, TypedArray } from './dtype.ts';
