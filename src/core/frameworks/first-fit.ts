// First fit in O(log bins) a sample: the first bin (in creation order) whose load plus the sample's token count
// is within the capacity, found in a segment tree of the bins' smallest load instead of a scan of every bin
// (`bins.findIndex((b) => b + l <= cap)`, the packers' own code shape, O(samples × bins)). It finds the same bin:
// load + size <= capacity is monotone in the load, so a subtree whose smallest load fails holds no bin that fits.
// Used by the homes' first-fit packers (NeMo RL, OpenRLHF, prime-rl, slime, AReaL).

export class FirstFitBins {
  /** loads[b]: the tokens bin b holds. */
  readonly loads: number[] = [];
  /** tree[1] the smallest load of all; tree[n + b] bin b's load (Infinity past the last bin); n a power of two. */
  private tree: Float64Array;
  private n: number;

  constructor(
    readonly capacity: number,
    expectedBins = 16,
  ) {
    this.n = 1;
    while (this.n < expectedBins) this.n *= 2;
    this.tree = new Float64Array(2 * this.n).fill(Number.POSITIVE_INFINITY);
  }

  get length(): number {
    return this.loads.length;
  }

  /** The first bin b with loads[b] + size <= capacity, or -1. */
  find(size: number): number {
    const tree = this.tree;
    if (!(tree[1]! + size <= this.capacity)) return -1;
    let node = 1;
    while (node < this.n) {
      node *= 2;
      if (!(tree[node]! + size <= this.capacity)) node += 1;
    }
    return node - this.n;
  }

  /** Adds `size` tokens to bin b. */
  add(b: number, size: number): void {
    this.loads[b]! += size;
    this.set(b, this.loads[b]!);
  }

  /** Opens a new bin holding `size` tokens; returns its index. */
  open(size: number): number {
    const b = this.loads.length;
    if (b === this.n) this.grow();
    this.loads.push(size);
    this.set(b, size);
    return b;
  }

  /** First fit of one sample: the bin it goes to (a new one when none fits). */
  place(size: number): number {
    const b = this.find(size);
    if (b < 0) return this.open(size);
    this.add(b, size);
    return b;
  }

  private set(b: number, load: number): void {
    const tree = this.tree;
    let node = this.n + b;
    tree[node] = load;
    for (node >>= 1; node >= 1; node >>= 1) tree[node] = Math.min(tree[2 * node]!, tree[2 * node + 1]!);
  }

  private grow(): void {
    const n = this.n * 2;
    const tree = new Float64Array(2 * n).fill(Number.POSITIVE_INFINITY);
    for (let b = 0; b < this.loads.length; b++) tree[n + b] = this.loads[b]!;
    for (let node = n - 1; node >= 1; node--) tree[node] = Math.min(tree[2 * node]!, tree[2 * node + 1]!);
    this.tree = tree;
    this.n = n;
  }
}
