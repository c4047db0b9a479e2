// Pipelines and dispatches for the kernels in shaders/. Conventions every kernel follows:
//   @binding(0) is `var<uniform> p: Params` (a struct of 4-byte scalars), bindings 1… are storage
//   buffers in the order the caller lists them; `override WG` is the workgroup size.
// The uniform's layout is read from the WGSL struct itself, so callers pass params by name.

import { INSERTION_POSITIONS, MIN_ACTIVE_BLOCKS, TOP_K, TOTAL_BLOCKS } from '../core/env/controller.ts';
import { KNOB3_OPTIONS } from '../core/env/reward-table.ts';
import { loadShader } from './shaders.ts';

/** Every kernel with an entry point (helpers such as philox.wgsl are only included). */
export const KERNELS = [
  'dense',
  'activationBackward',
  'denseBackwardInput',
  'denseBackwardWeight',
  'maskedSoftmax',
  'categoricalSample',
  'logProbBackward',
  'grpoLoss',
  'pairwiseLoss',
  'groupAdvantage',
  'gradNorm',
  'adam',
  'reduceRows',
  'oneHot',
  'knob3Mask',
  'controllerReward',
  'selectCandidates',
  'entropySum',
  'sampledReward',
  'schemeAdvantage',
  'klSum',
] as const;
export type KernelName = (typeof KERNELS)[number];

/** Overrides a kernel always gets: sizes taken from their one definition instead of written into the WGSL. */
const FIXED_OVERRIDES: Partial<Record<KernelName, Record<string, number>>> = {
  // src/core/env/controller.ts: KNOB3_WIDTH = TOTAL_BLOCKS columns, one per count of further blocks.
  knob3Mask: { BLOCKS: TOTAL_BLOCKS, MIN_ACTIVE: MIN_ACTIVE_BLOCKS },
  // src/core/env/reward-table.ts: validConfigIndex's sizes.
  sampledReward: { INSERTIONS: INSERTION_POSITIONS.length, TOP_KS: TOP_K.length, KNOB3_OPTIONS, MIN_ACTIVE: MIN_ACTIVE_BLOCKS },
};

type ScalarType = 'u32' | 'i32' | 'f32';
interface ParamField {
  name: string;
  type: ScalarType;
}

/** Fields of `struct Params { … }` in a WGSL source, in order. */
export function parseParams(source: string): ParamField[] {
  const m = /struct\s+Params\s*\{([^}]*)\}/.exec(source);
  if (!m) throw new Error('kernel has no `struct Params`');
  return m[1]!
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => {
      const [name, type] = f.split(':').map((s) => s.trim()) as [string, string];
      if (type !== 'u32' && type !== 'i32' && type !== 'f32')
        throw new Error(`Params field ${name} has type ${type}; only u32, i32, f32 are supported`);
      return { name, type };
    });
}

/** One dispatch, ready to encode again and again (a training step re-encodes the same ones). */
export interface PreparedDispatch {
  kernel: KernelName;
  pipeline: GPUComputePipeline;
  bindGroup: GPUBindGroup;
  /** Workgroups in x and y. */
  grid: [number, number];
  /** Rewrites some params (queued; takes effect in the next submit). */
  set(params: Record<string, number>): void;
  /** Frees the dispatch's uniform buffer (one-shot dispatches; a step's live as long as its trainer). */
  release(): void;
}

export interface DispatchSpec {
  params: Record<string, number>;
  /** Storage buffers for bindings 1, 2, … (a GPUBufferBinding selects a range). */
  buffers: (GPUBuffer | GPUBufferBinding)[];
  overrides?: Record<string, number>;
  /** Element-wise kernels: one invocation per item. */
  invocations?: number;
  /** Workgroup kernels: this many workgroups (1 for the single-workgroup reductions). */
  workgroups?: number;
}

/** A grid of at most 65535 workgroups per dimension covering `groups` workgroups. */
export function grid(groups: number): [number, number] {
  const x = Math.max(1, Math.min(groups, 65535));
  return [x, Math.max(1, Math.ceil(groups / x))];
}

/** The kernels of shaders/ compiled for one device. */
export class Kernels {
  readonly device: GPUDevice;
  /** Workgroup size: a power of two ≤ 128 allowed by the device (128 on every adapter we met). */
  readonly workgroupSize: number;
  private readonly modules = new Map<KernelName, { module: GPUShaderModule; fields: ParamField[] }>();
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  private readonly owned: GPUBuffer[] = [];

  private constructor(device: GPUDevice) {
    this.device = device;
    const limit = Math.min(128, device.limits.maxComputeInvocationsPerWorkgroup, device.limits.maxComputeWorkgroupSizeX);
    this.workgroupSize = 2 ** Math.floor(Math.log2(limit));
  }

  /** Loads and compiles every kernel; throws with the compiler's messages if one does not compile. */
  static async load(device: GPUDevice): Promise<Kernels> {
    const k = new Kernels(device);
    for (const name of KERNELS) {
      const code = await loadShader(name);
      // Compile errors surface through an error scope, which every runtime implements
      // (getCompilationInfo() did not settle reliably under Dawn for Node here).
      device.pushErrorScope('validation');
      const module = device.createShaderModule({ label: name, code });
      const error = await device.popErrorScope();
      if (error) throw new Error(`shaders/${name}.wgsl does not compile: ${error.message}`);
      k.modules.set(name, { module, fields: parseParams(code) });
    }
    return k;
  }

  private pipeline(name: KernelName, overrides: Record<string, number>): GPUComputePipeline {
    const constants = { WG: this.workgroupSize, ...FIXED_OVERRIDES[name], ...overrides };
    const key = `${name}:${JSON.stringify(constants)}`;
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      pipeline = this.device.createComputePipeline({
        label: key,
        layout: 'auto',
        compute: { module: this.modules.get(name)!.module, entryPoint: 'main', constants },
      });
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  /** Builds the pipeline, uniform buffer and bind group of one dispatch. */
  prepare(name: KernelName, spec: DispatchSpec): PreparedDispatch {
    const { fields } = this.modules.get(name)!;
    const pipeline = this.pipeline(name, spec.overrides ?? {});
    const uniform = this.device.createBuffer({
      label: `${name} params`,
      size: Math.max(16, Math.ceil((fields.length * 4) / 16) * 16),
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.owned.push(uniform);
    const values = new ArrayBuffer(uniform.size);
    const u32 = new Uint32Array(values),
      i32 = new Int32Array(values),
      f32 = new Float32Array(values);
    const device = this.device;
    const set = (params: Record<string, number>) => {
      for (const [key, value] of Object.entries(params)) {
        const at = fields.findIndex((f) => f.name === key);
        if (at < 0) throw new Error(`${name}: no param '${key}' (has ${fields.map((f) => f.name).join(', ')})`);
        const type = fields[at]!.type;
        if (type === 'f32') f32[at] = value;
        else if (type === 'i32') i32[at] = value;
        else u32[at] = value;
      }
      device.queue.writeBuffer(uniform, 0, values);
    };
    const missing = fields.filter((f) => !(f.name in spec.params)).map((f) => f.name);
    if (missing.length > 0) throw new Error(`${name}: params missing: ${missing.join(', ')}`);
    set(spec.params);
    const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: uniform } }];
    spec.buffers.forEach((b, i) => entries.push({ binding: i + 1, resource: 'buffer' in b ? b : { buffer: b } }));
    const bindGroup = this.device.createBindGroup({ label: name, layout: pipeline.getBindGroupLayout(0), entries });
    const groups = spec.workgroups ?? Math.ceil((spec.invocations ?? 0) / this.workgroupSize);
    const release = () => {
      const at = this.owned.indexOf(uniform);
      if (at >= 0) this.owned.splice(at, 1);
      uniform.destroy();
    };
    return { kernel: name, pipeline, bindGroup, grid: grid(groups), set, release };
  }

  /** Records one prepared dispatch into a compute pass. */
  encode(pass: GPUComputePassEncoder, d: PreparedDispatch): void {
    pass.setPipeline(d.pipeline);
    pass.setBindGroup(0, d.bindGroup);
    pass.dispatchWorkgroups(d.grid[0], d.grid[1]);
  }

  /** Frees the uniform buffers of every prepared dispatch (the device stays). */
  destroy(): void {
    for (const b of this.owned.splice(0)) b.destroy();
  }
}
