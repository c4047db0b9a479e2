// Included by every element-wise kernel: the flat invocation index of a 1-D or 2-D dispatch.
// Dispatches larger than 65535 workgroups spill into y (src/gpu/kernels.ts picks the grid).
fn flatIndex(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * WG;
}
