// The ops as one interface with two implementations: the CPU reference (src/ops/cpu, the
// definition) and WebGPU (src/gpu/ops.ts, the shaders). Same arguments, same results; ops that
// work in place on the CPU (adam, oneHot) write their results back into the caller's arrays on
// the GPU too. One test suite (test/ops/) runs against both.
import * as cpu from './cpu/index.ts';

type Cpu = typeof cpu;
export type OpName = keyof Cpu;

/** Every op, async (the GPU reads results back), with the CPU function's arguments and result. */
export type OpsBackend = { readonly name: string } & {
  [K in OpName]: (...args: Parameters<Cpu[K]>) => Promise<ReturnType<Cpu[K]>>;
};

/** The CPU reference as a backend. */
export const cpuBackend: OpsBackend = (() => {
  const backend: Record<string, unknown> = { name: 'cpu' };
  for (const [name, fn] of Object.entries(cpu)) backend[name] = async (...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(...args);
  return backend as OpsBackend;
})();
