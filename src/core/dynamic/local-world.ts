// An in-process stand-in for the rank world, used by the sparsity sweep: W copies of the same
// protocol run as concurrent async functions in one thread and meet in `gather`. The real
// workers (src/ranks) run the very same protocol in `grpo-sandbox dynamic`; the sweep needs
// thousands of steps, which one thread does faster than worker round trips.

/** Runs `program(rank, gather)` for every rank concurrently; resolves to each rank's result. */
export async function runLocal<T>(
  size: number,
  program: (rank: number, gather: <V>(value: V) => Promise<V[]>) => Promise<T>,
): Promise<T[]> {
  let round: { values: unknown[]; arrived: number; resolve: (v: unknown[]) => void; done: Promise<unknown[]> } | null = null;
  const open = () => {
    let resolve!: (v: unknown[]) => void;
    const done = new Promise<unknown[]>((r) => {
      resolve = r;
    });
    return { values: new Array<unknown>(size), arrived: 0, resolve, done };
  };
  const gatherFor =
    (rank: number) =>
    async <V>(value: V): Promise<V[]> => {
      round ??= open();
      const r = round;
      r.values[rank] = value;
      if (++r.arrived === size) {
        round = null;
        r.resolve(r.values);
      }
      return (await r.done) as V[];
    };
  return Promise.all(Array.from({ length: size }, (_, rank) => program(rank, gatherFor(rank))));
}
