// Order statistics of measurements (benchmarks, fuzzing logs): one definition for every script.

/** The q-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics; NaN if empty. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** The median: the middle value, or the mean of the two middle values. */
export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
}
