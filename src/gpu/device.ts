// One way to get a GPUDevice in every runtime the sandbox runs in:
//   browser and Deno: the built-in `navigator.gpu`;
//   Node: the `webgpu` package (Dawn). On a machine without a GPU, Dawn needs a Vulkan
//   driver that runs on the CPU; Debian's Chromium ships SwiftShader, so when
//   VK_ICD_FILENAMES is unset and SwiftShader's ICD file exists we point Dawn at it.
// Every failure is returned as a reason (never thrown), so callers can fall back to the CPU
// reference with a visible notice.

/** The limits the kernels in shaders/ rely on (WebGPU's defaults, which every adapter meets). */
export const REQUIRED_LIMITS = {
  maxStorageBuffersPerShaderStage: 8,
  maxComputeInvocationsPerWorkgroup: 64,
  maxComputeWorkgroupSizeX: 64,
  maxStorageBufferBindingSize: 1 << 27,
} as const;

/** SwiftShader's Vulkan driver as Debian's chromium package installs it. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

export type GpuDeviceResult = { ok: true; device: GPUDevice; adapterInfo: string } | { ok: false; reason: string };

interface NodeProcessLike {
  versions?: { node?: string };
  env: Record<string, string | undefined>;
}

/**
 * Sets up the process environment the Vulkan loader reads, before Dawn creates its instance:
 * points it at SwiftShader unless the user chose a driver (VK_ICD_FILENAMES / VK_DRIVER_FILES;
 * Node only, Deno brings its own wgpu), and sets XDG_RUNTIME_DIR, without which the drivers print
 * "XDG_RUNTIME_DIR is invalid" on stderr. A Node worker's process.env is a private copy the loader
 * never sees, so code that starts GPU workers calls this on the main thread first.
 */
export async function prepareVulkanEnvironment(): Promise<void> {
  const proc = (globalThis as { process?: NodeProcessLike }).process;
  if (!proc?.versions?.node) return;
  if (!('Deno' in globalThis) && proc.env.VK_ICD_FILENAMES === undefined && proc.env.VK_DRIVER_FILES === undefined) {
    const fsName = 'node:fs';
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs');
    if (fs.existsSync(SWIFTSHADER_ICD)) proc.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  }
  if (proc.env.XDG_RUNTIME_DIR === undefined) {
    const osName = 'node:os';
    proc.env.XDG_RUNTIME_DIR = ((await import(/* @vite-ignore */ osName)) as typeof import('node:os')).tmpdir();
  }
}

/** Every Dawn instance created in this thread, held so GC never frees one under a live device. */
const dawnInstances: GPU[] = [];

/** Finds a `GPU` object: navigator.gpu (browser, Deno) or Dawn's create() in Node. */
async function findGpu(): Promise<{ gpu: GPU; runtime: string } | { reason: string }> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  const isDeno = 'Deno' in globalThis;
  if (nav?.gpu && isDeno) {
    // Deno's wgpu loads Vulkan at the first requestAdapter: same stderr noise as below without it.
    const env = (globalThis as { Deno?: { env: { get(k: string): string | undefined; set(k: string, v: string): void } } }).Deno!.env;
    try {
      if (env.get('XDG_RUNTIME_DIR') === undefined) env.set('XDG_RUNTIME_DIR', '/tmp');
    } catch {
      /* no --allow-env: only noise */
    }
  }
  if (nav?.gpu) return { gpu: nav.gpu, runtime: isDeno ? 'deno' : 'browser' };
  const proc = (globalThis as { process?: NodeProcessLike }).process;
  if (isDeno || !proc?.versions?.node) {
    return {
      reason: isDeno
        ? 'Deno has no navigator.gpu here (run with a Deno that has WebGPU, e.g. 2.x with -A)'
        : 'this browser has no navigator.gpu (WebGPU is off or unsupported; Chromium needs a secure context, e.g. http://localhost)',
    };
  }
  await prepareVulkanEnvironment();
  try {
    // A variable specifier keeps bundlers (Vite) from pulling Dawn into a browser build.
    const pkg = 'webgpu';
    const dawn = (await import(/* @vite-ignore */ pkg)) as { create(flags: string[]): GPU; globals: Record<string, unknown> };
    // Code written for browsers (ours, tfjs) uses GPUBufferUsage & co as globals.
    for (const [name, value] of Object.entries(dawn.globals)) {
      if (!(name in globalThis)) (globalThis as Record<string, unknown>)[name] = value;
    }
    // Dawn's GPU object must outlive every adapter and device made from it: if the garbage
    // collector frees it while a device is in use, the process segfaults (seen here under
    // allocation pressure, also single-threaded). Keep each one referenced for good.
    const gpu = dawn.create([]);
    dawnInstances.push(gpu);
    return { gpu, runtime: 'node (Dawn)' };
  } catch (err) {
    return { reason: `cannot load the 'webgpu' package (Dawn for Node): ${(err as Error).message}` };
  }
}

/** Describes an adapter in one line, e.g. "google swiftshader — SwiftShader driver 5.0.0 [node (Dawn)]". */
function describe(info: GPUAdapterInfo | undefined, runtime: string): string {
  const parts = [info?.vendor, info?.architecture].filter((s) => s && s.length > 0).join(' ');
  const desc = info?.description ?? '';
  return `${parts || 'unknown adapter'}${desc ? ` — ${desc}` : ''} [${runtime}]`;
}

/**
 * Requests a WebGPU device with the limits in REQUIRED_LIMITS, in the browser, Deno or Node.
 * Resolves to {ok:false, reason} when there is no WebGPU, no adapter or too small limits.
 * The caller owns the device and must call device.destroy() when done (Dawn keeps Node alive).
 */
export async function requestGpuDevice(options: { powerPreference?: GPUPowerPreference } = {}): Promise<GpuDeviceResult> {
  const found = await findGpu();
  if ('reason' in found) return { ok: false, reason: found.reason };
  let adapter: GPUAdapter | null;
  try {
    adapter = await found.gpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  } catch (err) {
    return { ok: false, reason: `requestAdapter failed [${found.runtime}]: ${(err as Error).message}` };
  }
  if (!adapter) {
    const icd = (globalThis as { process?: NodeProcessLike }).process?.env.VK_ICD_FILENAMES;
    const hint = !found.runtime.startsWith('node')
      ? ''
      : icd && icd !== SWIFTSHADER_ICD
        ? ` (VK_ICD_FILENAMES=${icd} gives Dawn no usable Vulkan driver; unset it to use SwiftShader at ${SWIFTSHADER_ICD})`
        : ` (no Vulkan driver: install chromium for SwiftShader at ${SWIFTSHADER_ICD}, or set VK_ICD_FILENAMES to a driver's ICD file)`;
    return { ok: false, reason: `no WebGPU adapter available [${found.runtime}]${hint}` };
  }
  const requiredLimits: Record<string, number> = {};
  for (const [name, need] of Object.entries(REQUIRED_LIMITS)) {
    const have = (adapter.limits as unknown as Record<string, number>)[name] ?? 0;
    if (have < need) return { ok: false, reason: `adapter limit ${name} is ${have}, the kernels need at least ${need} [${found.runtime}]` };
    requiredLimits[name] = need;
  }
  const adapterInfo = describe(adapter.info, found.runtime);
  try {
    const device = await adapter.requestDevice({ requiredLimits });
    return { ok: true, device, adapterInfo };
  } catch (err) {
    return { ok: false, reason: `requestDevice failed on ${adapterInfo}: ${(err as Error).message}` };
  }
}
