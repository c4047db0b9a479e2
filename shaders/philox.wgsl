// Philox4x32-10, the counter-based RNG of src/core/rng/philox.ts (same known-answer vectors).
// WGSL has no 64-bit integers, so the high half of each 32×32 product is built from 16-bit halves.
fn mulhi32(a: u32, b: u32) -> u32 {
  let aLo = a & 0xffffu; let aHi = a >> 16u;
  let bLo = b & 0xffffu; let bHi = b >> 16u;
  let lolo = aLo * bLo;
  let mid1 = aHi * bLo + (lolo >> 16u);
  let mid2 = aLo * bHi + (mid1 & 0xffffu);
  return aHi * bHi + (mid1 >> 16u) + (mid2 >> 16u);
}

fn philox4x32(counter: vec4u, key: vec2u) -> vec4u {
  var c = counter;
  var k = key;
  for (var round = 0u; round < 10u; round++) {
    if (round > 0u) { k = k + vec2u(0x9e3779b9u, 0xbb67ae85u); }
    let hi0 = mulhi32(0xd2511f53u, c.x); let lo0 = 0xd2511f53u * c.x;
    let hi1 = mulhi32(0xcd9e8d57u, c.z); let lo1 = 0xcd9e8d57u * c.z;
    c = vec4u(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
  }
  return c;
}

// 24 random bits as a float in [0, 1): exact in float32, so the CPU twin draws the same value.
fn unitFloat(bits: u32) -> f32 {
  return f32(bits >> 8u) / 16777216.0;
}
