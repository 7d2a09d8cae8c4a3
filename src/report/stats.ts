// Pure statistics used by the metrics: unbiased pass@k / pass^k estimators, the Wilson interval,
// percentiles. No I/O, no result shapes: each formula can be checked by hand.

/** z for a two-sided 95% interval. */
export const Z95 = 1.959964;

/**
 * Unbiased pass@k for one task with n trials of which c passed (Chen et al. 2021):
 * 1 − C(n−c, k) / C(n, k), the chance that at least one of k trials drawn without replacement passes.
 * Computed as a product so large n cannot overflow. Requires 1 ≤ k ≤ n.
 */
export function passAtK(n: number, c: number, k: number): number {
  checkArgs(n, c, k);
  if (n - c < k) return 1;
  let allFail = 1; // C(n−c, k) / C(n, k) = Π_{i<k} (n−c−i)/(n−i)
  for (let i = 0; i < k; i++) allFail *= (n - c - i) / (n - i);
  return 1 - allFail;
}

/**
 * Unbiased pass^k for one task (tau-bench): C(c, k) / C(n, k), the chance that all k trials drawn
 * without replacement pass. Requires 1 ≤ k ≤ n.
 */
export function passHatK(n: number, c: number, k: number): number {
  checkArgs(n, c, k);
  if (c < k) return 0;
  let allPass = 1; // Π_{i<k} (c−i)/(n−i)
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}

function checkArgs(n: number, c: number, k: number): void {
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k)) || k < 1 || k > n || c < 0 || c > n)
    throw new RangeError(`need integers 1 <= k <= n and 0 <= c <= n, got n=${n} c=${c} k=${k}`);
}

/** Wilson score interval for `successes` of `n`; null when n = 0 (no evidence, no interval). */
export function wilson(successes: number, n: number, z = Z95): [number, number] | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // At p = 0 or 1 the bound is exactly 0 or 1 in exact arithmetic; do not report float noise.
  const low = successes <= 0 ? 0 : Math.max(0, centre - half);
  const high = successes >= n ? 1 : Math.min(1, centre + half);
  return [low, high];
}

/** Percentile by linear interpolation between closest ranks (numpy's default); null when empty. */
export function percentile(sorted: ArrayLike<number>, q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** a / b, or null when b = 0: a rate over nothing is no evidence, never 0. */
export function ratio(a: number, b: number): number | null {
  return b > 0 ? a / b : null;
}

export function mean(xs: ArrayLike<number>): number | null {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i];
  return xs.length > 0 ? sum / xs.length : null;
}
