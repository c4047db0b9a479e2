// Tick labels for the training charts: as many digits as the tick spacing needs, so neighbouring
// ticks never read the same (uPlot's default printed "0, 0" for a loss of ±2e-9), and exponents
// for spacings below 10^-3 or above 10^6; and the y range of a chart with a natural span. Pure, so a unit test checks it.

/** Labels for ticks at `splits`, `incr` apart. */
export function tickLabels(splits: readonly number[], incr: number): string[] {
  if (!(incr > 0) || !Number.isFinite(incr)) return splits.map((v) => String(v));
  const exponent = Math.floor(Math.log10(incr));
  if (exponent < -3 || exponent > 6) {
    // Significant digits enough to tell the largest tick from its neighbour.
    const largest = Math.max(...splits.map((v) => Math.abs(v)), incr);
    const digits = Math.min(15, Math.max(0, Math.floor(Math.log10(largest)) - exponent + 1));
    return splits.map((v) => (Math.abs(v) < incr / 2 ? '0' : v.toExponential(Math.max(0, digits - 1)).replace(/\.?0+e/, 'e')));
  }
  const mantissa = incr / 10 ** exponent;
  // 0.05 apart: two decimals; 0.25 apart: two (the mantissa has a second digit).
  const decimals = Math.max(0, -exponent + (Math.abs(mantissa - Math.round(mantissa)) < 1e-9 ? 0 : 1));
  return splits.map((v) => (Math.abs(v) < incr / 2 ? '0' : v.toFixed(decimals)));
}

/**
 * Tick spacings for an axis of whole steps: uPlot's default spacings include 0.5, so early in a run
 * the step axis read "1, 1.5, 2, 2.5, 3", half steps that do not exist.
 */
export const WHOLE_STEP_INCRS: readonly number[] = [1, 2, 5]
  .flatMap((m) => [1, 10, 100, 1e3, 1e4, 1e5, 1e6].map((p) => m * p))
  .sort((a, b) => a - b);

/**
 * A y range that spans at least `[lo, hi]` and widens for data outside it: a fraction's axis reads 0–1
 * on a flat or empty curve, where uPlot's own range for no data or a constant 0 read 0–100.
 */
export function spanRange([lo, hi]: readonly [number, number]) {
  return (_u: unknown, min: number | null, max: number | null): [number, number] => [
    min !== null && Number.isFinite(min) ? Math.min(lo, min) : lo,
    max !== null && Number.isFinite(max) ? Math.max(hi, max) : hi,
  ];
}
