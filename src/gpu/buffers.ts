// Small helpers for storage buffers and readbacks.

/** Bytes for n 4-byte values, rounded up to 16 (WebGPU rejects empty bindings; 16 suits uniforms too). */
export function paddedBytes(values: number): number {
  return Math.max(16, Math.ceil((values * 4) / 16) * 16);
}

const STORAGE = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** A storage buffer holding `data` (copy source and destination too). */
export function uploadBuffer(device: GPUDevice, data: Float32Array | Uint32Array, label?: string): GPUBuffer {
  const buffer = device.createBuffer({ label, size: paddedBytes(data.length), usage: STORAGE() });
  device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
  return buffer;
}

/** A zero-filled storage buffer of `values` 4-byte values. */
export function storageBuffer(device: GPUDevice, values: number, label?: string): GPUBuffer {
  return device.createBuffer({ label, size: paddedBytes(values), usage: STORAGE() });
}

/** Copies `bytes` from each buffer into fresh staging buffers in one submit, maps them and returns copies of the data. */
export async function readBuffers(
  device: GPUDevice,
  sources: { buffer: GPUBuffer; bytes: number; offset?: number }[],
  encoder = device.createCommandEncoder(),
): Promise<ArrayBuffer[]> {
  const staging = sources.map((s) => {
    const b = device.createBuffer({ size: paddedBytes(s.bytes / 4), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    encoder.copyBufferToBuffer(s.buffer, s.offset ?? 0, b, 0, Math.ceil(s.bytes / 4) * 4);
    return b;
  });
  device.queue.submit([encoder.finish()]);
  await Promise.all(staging.map((b) => b.mapAsync(GPUMapMode.READ)));
  const out = staging.map((b, i) => b.getMappedRange().slice(0, sources[i]!.bytes));
  for (const b of staging) {
    b.unmap();
    b.destroy();
  }
  return out;
}
