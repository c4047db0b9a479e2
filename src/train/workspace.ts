// A rank's arrays for one training step, kept and reused from step to step: the rollout's inputs,
// activations, logits and samples, the rewards, the gathered batch, the loss's gradient and the
// gradients with the metric sums the all-reduce sends. A step asks for each array by name and
// length; the same name and length give the same array back (its contents are the last step's:
// whoever asks writes every entry, or clears it), so a step of a steady size allocates none.
// A fresh workspace (the default of the functions that take one) gives fresh arrays: what a
// caller that keeps a step's results past the next step (dynamic sampling, micro-steps) passes.

type ArrayType = Float32ArrayConstructor | Float64ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor;

export class Workspace {
  private readonly arrays = new Map<string, Float32Array | Float64Array | Int32Array | Uint32Array>();

  /** The array `name` of `length` elements of `type`: the one kept under that name when it fits, else a new one (kept). */
  private take<C extends ArrayType>(type: C, name: string, length: number): InstanceType<C> {
    const have = this.arrays.get(name);
    if (have && have.length === length && have.constructor === type) return have as InstanceType<C>;
    const made = new type(length) as InstanceType<C>;
    this.arrays.set(name, made);
    return made;
  }

  f32(name: string, length: number): Float32Array {
    return this.take(Float32Array, name, length);
  }

  /**
   * The first `length` floats of the array `name`, which grows to fit and never shrinks: for arrays whose size changes
   * from step to step (the distinct input rows of distinct-rows.ts). A new array only when `length` exceeds the largest yet.
   */
  f32Grown(name: string, length: number): Float32Array {
    const have = this.arrays.get(name);
    if (have instanceof Float32Array && have.length >= length) return have.subarray(0, length);
    const made = new Float32Array(length);
    this.arrays.set(name, made);
    return made;
  }

  f64(name: string, length: number): Float64Array {
    return this.take(Float64Array, name, length);
  }

  i32(name: string, length: number): Int32Array {
    return this.take(Int32Array, name, length);
  }

  u32(name: string, length: number): Uint32Array {
    return this.take(Uint32Array, name, length);
  }
}
