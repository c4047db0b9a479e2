// What a rank program receives: its rank number, its device, and the collectives.
import { Communicator } from './collectives.ts';
import type { TypedArray } from './dtype.ts';
import { Tensor } from './tensor.ts';

/** One rank of a world, as seen from inside its worker. */
export class Rank extends Communicator {
  /** This rank's own WebGPU device when the world was started with `gpu: true`, else null. */
  gpu: GPUDevice | null = null;
  /** One line describing the GPU adapter, or null. */
  gpuInfo: string | null = null;

  /** A tensor on this rank's device (`sim:<rank>`); shape defaults to [data.length]. */
  tensor(data: TypedArray, shape: readonly number[] = [data.length]): Tensor {
    return new Tensor(data, shape, this.device);
  }
}

/**
 * A rank program: an exported function every rank of a world runs with the same `args`.
 * Its result travels back to the main thread by message, so keep it small (metrics, not tensors).
 */
export type RankProgram<A = unknown, R = unknown> = (rank: Rank, args: A) => R | Promise<R>;
