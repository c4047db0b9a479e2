// Included by maskedSoftmax.wgsl and categoricalSample.wgsl: the masked softmax of one head of a
// logits row. Expects globals `p` (with stride, offset, width), `logits` and `mask` (rows × width).
// Options are visited in index order, as in src/ops/cpu/maskedSoftmax.ts.
struct HeadStats { max: f32, sum: f32, any: bool }

fn isValid(r: u32, j: u32) -> bool {
  return mask[r * p.width + j] != 0.0;
}

fn logitAt(r: u32, j: u32) -> f32 {
  return logits[r * p.stride + p.offset + j];
}

fn headStats(r: u32) -> HeadStats {
  var s = HeadStats(0.0, 0.0, false);
  for (var j = 0u; j < p.width; j++) {
    if (isValid(r, j)) {
      s.max = select(logitAt(r, j), max(s.max, logitAt(r, j)), s.any);
      s.any = true;
    }
  }
  for (var j = 0u; j < p.width; j++) {
    if (isValid(r, j)) { s.sum += exp(logitAt(r, j) - s.max); }
  }
  return s;
}
