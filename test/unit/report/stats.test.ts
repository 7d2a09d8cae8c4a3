import { describe, expect, it } from 'vitest';
import { passAtK, passHatK, percentile, ratio, wilson, Z95 } from '../../../src/report/stats.ts';
import { defined } from '../../support/defined.ts';

/** Every k-subset of {0..n-1}. */
function* subsets(n: number, k: number, start = 0, acc: number[] = []): Generator<number[]> {
  if (acc.length === k) {
    yield acc;
    return;
  }
  for (let i = start; i < n; i++) yield* subsets(n, k, i + 1, [...acc, i]);
}

describe('pass@k and pass^k', () => {
  it('match brute-force enumeration over every subset of trials (n <= 6)', () => {
    for (let n = 1; n <= 6; n++) {
      for (let c = 0; c <= n; c++) {
        const passes = (i: number) => i < c; // the first c trials passed
        for (let k = 1; k <= n; k++) {
          let total = 0,
            any = 0,
            all = 0;
          for (const s of subsets(n, k)) {
            total++;
            if (s.some(passes)) any++;
            if (s.every(passes)) all++;
          }
          expect(passAtK(n, c, k)).toBeCloseTo(any / total, 12);
          expect(passHatK(n, c, k)).toBeCloseTo(all / total, 12);
        }
      }
    }
  });

  it('hand-computed values', () => {
    expect(passAtK(3, 1, 1)).toBeCloseTo(1 / 3, 12);
    expect(passAtK(3, 1, 2)).toBeCloseTo(2 / 3, 12); // 1 - C(2,2)/C(3,2) = 1 - 1/3
    expect(passHatK(3, 2, 2)).toBeCloseTo(1 / 3, 12); // C(2,2)/C(3,2)
    expect(passHatK(4, 3, 2)).toBeCloseTo(0.5, 12); // C(3,2)/C(4,2) = 3/6
    expect(passAtK(1, 0, 1)).toBe(0);
    expect(passHatK(1, 1, 1)).toBe(1);
  });

  it('do not overflow for large n', () => {
    expect(passAtK(1000, 1, 1)).toBeCloseTo(0.001, 12);
    expect(passHatK(1000, 1000, 500)).toBe(1);
  });

  it('refuse k outside 1..n', () => {
    expect(() => passAtK(2, 1, 3)).toThrow(RangeError);
    expect(() => passHatK(2, 1, 0)).toThrow(RangeError);
    expect(() => passHatK(2, 3, 1)).toThrow(RangeError);
  });
});

describe('wilson', () => {
  it('known intervals', () => {
    const [lo, hi] = defined(wilson(8, 10));
    expect(lo).toBeCloseTo(0.4902, 4);
    expect(hi).toBeCloseTo(0.9433, 4);
    const [lo2, hi2] = defined(wilson(50, 100));
    expect(lo2).toBeCloseTo(0.4038, 4);
    expect(hi2).toBeCloseTo(0.5962, 4);
  });

  it('at p = 0 and p = 1: [0, z²/(n+z²)] and its mirror', () => {
    const z2 = Z95 * Z95;
    expect(defined(wilson(0, 3))[0]).toBe(0);
    expect(defined(wilson(0, 3))[1]).toBeCloseTo(z2 / (3 + z2), 12);
    expect(defined(wilson(3, 3))[0]).toBeCloseTo(3 / (3 + z2), 12);
    expect(defined(wilson(3, 3))[1]).toBe(1);
  });

  it('is null without trials', () => {
    expect(wilson(0, 0)).toBeNull();
  });
});

describe('percentile / ratio', () => {
  it('interpolates linearly between ranks', () => {
    const xs = [1, 2, 3, 4, 10];
    expect(percentile(xs, 0.5)).toBe(3);
    expect(percentile(xs, 0.95)).toBeCloseTo(8.8, 12); // pos 3.8: 4 + 0.8 * 6
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });

  it('ratio over nothing is null', () => {
    expect(ratio(0, 0)).toBeNull();
    expect(ratio(1, 4)).toBe(0.25);
  });
});
