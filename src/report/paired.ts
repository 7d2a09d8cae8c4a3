// The difference of two runs' pass rates, paired over the tasks both graded (docs/reports.md#metrics matches
// tasks by input hash). Each task contributes its own pass fraction in each run, so a task run
// K times weighs as much as one run once; the interval is Student's t over the per-task
// differences, which is what "paired" buys: the spread of task difficulty cancels out.

/** Two-sided 95% critical values of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function t975(df: number): number {
  if (df < 1) return Number.NaN;
  if (df <= 30) return T975[Math.floor(df) - 1];
  return df <= 60 ? 2.0 : df <= 120 ? 1.98 : 1.96;
}

export interface PairedDiff {
  /** Tasks graded (a gradable trial) in both runs. */
  n: number;
  /** Mean over those tasks of (pass fraction in the run − pass fraction in the baseline). */
  diff: number | null;
  /** 95% interval of `diff`; null with fewer than two paired tasks. */
  ci95: [number, number] | null;
  /** Pass fraction of each side over the paired tasks only. */
  baseline_rate: number | null;
  current_rate: number | null;
}

/** pairs: [baseline pass fraction, current pass fraction] for each task graded in both. */
export function pairedDifference(pairs: ReadonlyArray<readonly [number, number]>): PairedDiff {
  const n = pairs.length;
  if (n === 0) return { n, diff: null, ci95: null, baseline_rate: null, current_rate: null };
  const d = pairs.map(([a, b]) => b - a);
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const baseline = pairs.reduce((s, [a]) => s + a, 0) / n;
  const current = pairs.reduce((s, [, b]) => s + b, 0) / n;
  let ci95: [number, number] | null = null;
  if (n >= 2) {
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
    const half = t975(n - 1) * (sd / Math.sqrt(n));
    ci95 = [Math.max(-1, mean - half), Math.min(1, mean + half)];
  }
  return { n, diff: mean, ci95, baseline_rate: baseline, current_rate: current };
}
