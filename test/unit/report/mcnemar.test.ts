// McNemar's exact test and Holm's correction (src/report/mcnemar.ts), checked by hand; and a job's exit code.
import { describe, expect, it } from 'vitest';
import { jobExitCode } from '../../../src/exit-codes.ts';
import { holm, mcnemarExact } from '../../../src/report/mcnemar.ts';

describe('mcnemarExact', () => {
  it('is 2 × P(X ≤ min(b, c)) for X ~ Binomial(b + c, 1/2), at most 1', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(8, 0)).toBeCloseTo(2 / 256, 12); // 0.0078125
    expect(mcnemarExact(1, 4)).toBeCloseTo((2 * (1 + 5)) / 32, 12); // 0.375
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(2000, 2100)).toBeGreaterThan(0.1); // large n neither overflows nor NaNs
  });
});

describe('holm', () => {
  it('multiplies the i-th smallest p by (m − i), monotone, capped at 1, in the input order', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });
});

describe('jobExitCode', () => {
  it('is the worst cell’s; with gate-any, 0 when one cell is 0', () => {
    expect(jobExitCode([0, 1, 0], false)).toBe(1);
    expect(jobExitCode([0, 3, 1], false)).toBe(3);
    expect(jobExitCode([0, 130], false)).toBe(130);
    expect(jobExitCode([1, 0, 3], true)).toBe(0);
    expect(jobExitCode([1, 3], true)).toBe(3);
  });
});
