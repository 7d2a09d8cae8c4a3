// Paired tests of two cells of a job on the same tasks (docs/running.md#jobs), beside paired.ts's
// interval: McNemar's exact test for pass/fail, the exact sign test for scores, and Holm's
// correction for the number of tests.

/** Exact two-sided McNemar p-value: b tasks pass only in A, c only in B; under H0 each is 50/50. */
export function mcnemarExact(b: number, c: number): number {
  return binomialHalfTwoSided(b, c);
}

/**
 * Exact two-sided sign test of paired scores: `plus` tasks score higher in one cell, `minus` in the
 * other, ties dropped; under H0 a non-tied task is as likely either way. It needs no assumption on
 * the scores' distribution (a paired t would, and scores in 0..1 piled at the ends are not normal).
 */
export function signTest(plus: number, minus: number): number {
  return binomialHalfTwoSided(plus, minus);
}

/** 2 × P(X ≤ min(b, c)) for X ~ Binomial(b + c, 1/2), at most 1. */
function binomialHalfTwoSided(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so that large n cannot overflow.
  let logC = 0; // log C(n, 0)
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

/** Holm's step-down adjustment of p-values (family-wise error), in the input's order. */
export function holm(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(ps.length);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, p * (ps.length - rank)));
    out[i] = running;
  });
  return out;
}
