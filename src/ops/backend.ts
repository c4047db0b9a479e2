// The ops as one interface with three implementations: the CPU reference (src/ops/cpu, the
// definition), the fast CPU backend (src/ops/fast: the same functions, hot ones rewritten, dense
// ones in WebAssembly SIMD) and
// WebGPU (src/gpu/ops.ts, the shaders). Same arguments, same results; ops that work in place on
// the CPU (adam, oneHot) write their results back into the caller's arrays on the GPU too. One
// test suite (test/ops/) runs against all three.
import * as cpu from './cpu/index.ts';
import * as fast from './fast/index.ts';

type Cpu = typeof cpu;
export type OpName = keyof Cpu;

/** A synchronous CPU ops namespace: the reference (`ops/cpu`) or the fast backend (`ops/fast`). */
export type CpuOps = Cpu;

/** The CPU namespaces by name (what a trainer's `ops` option picks from). */
export const CPU_OPS = { cpu, fast } as const satisfies Record<string, CpuOps>;
export type CpuOpsName = keyof typeof CPU_OPS;

// ops/fast must export exactly the reference's names: no op missing, none extra.
type SameNames<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const sameNames: SameNames<typeof fast, Cpu> = true;
void sameNames;

/** Every op, async (the GPU reads results back), with the CPU function's arguments and result. */
export type OpsBackend = { readonly name: string } & {
  [K in OpName]: (...args: Parameters<Cpu[K]>) => Promise<ReturnType<Cpu[K]>>;
};

/** A synchronous CPU namespace as an (async) backend. */
function syncBackend(name: CpuOpsName): OpsBackend {
  const backend: Record<string, unknown> = { name };
  for (const [op, fn] of Object.entries(CPU_OPS[name]))
    backend[op] = async (...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(...args);
  return backend as OpsBackend;
}

/** The CPU reference as a backend. */
export const cpuBackend: OpsBackend = syncBackend('cpu');

/** The fast CPU backend (src/ops/fast) as a backend. */
export const fastBackend: OpsBackend = syncBackend('fast');
