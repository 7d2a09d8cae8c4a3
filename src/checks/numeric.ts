// `numeric`: the last number in the response is within `tolerance` (absolute, default 1e-6) of the
// expectation (docs/checks.md). Answers end with the number after the working, hence "last".
import type { CheckImpl } from './types.ts';
import type { Verdict } from '../types.ts';
import { optionalNumber, ungradable } from './text.ts';

const DEFAULT_TOLERANCE = 1e-6;

// A sign only when it does not follow a digit ("5-3" is a range, not -3); thousands groups
// (1,234,567), decimals (.5, 3.25), exponents (1e3, 2.5E-4). The lookbehind keeps "1.2.3" from
// yielding ".3" and "abc-1" still reads -1. U+2212 is the typographic minus.
const NUMBER = /(?<![\d.])([-+\u2212]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE]([-+]?\d+))?/g;

function toNumber(sign: string, digits: string, exp: string | undefined): number {
  const n = Number(digits.replace(/,/g, '') + (exp !== undefined ? `e${exp}` : ''));
  return sign === '-' || sign === '\u2212' ? -n : n;
}

/** The last number written in `text`, or null when there is none. */
export function lastNumber(text: string): number | null {
  let last: number | null = null;
  for (const m of text.matchAll(NUMBER)) last = toNumber(m[1], m[2], m[3]);
  return last;
}

/** The expectation as a number: a number, or a string holding exactly one number. */
function expectedNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const s = value.trim();
    const m = /^([-+\u2212]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE]([-+]?\d+))?$/.exec(s);
    return m ? toNumber(m[1], m[2], m[3]) : null;
  }
  return null;
}

/** Numbers in reasons: short, without float noise (0.1 + 0.2 shows as 0.3). */
const fmt = (n: number) => String(Number(n.toPrecision(12)));

export const numeric: CheckImpl = {
  needsInput: true,
  validate(check) {
    optionalNumber(check, 'tolerance');
  },
  run({ check, expectation, response }): Verdict {
    const want = expectedNumber(expectation);
    if (want === null) return ungradable(`expectation is not a number: ${JSON.stringify(expectation)}`);
    const tolerance = optionalNumber(check, 'tolerance') ?? DEFAULT_TOLERANCE;
    const got = lastNumber(response);
    if (got === null) return { score: 0, passed: false, reason: 'no number in the response' };
    const diff = Math.abs(got - want);
    const details = { expected: want, got, tolerance };
    if (diff <= tolerance) return { score: 1, passed: true, reason: `got ${fmt(got)}`, details };
    return { score: 0, passed: false, reason: `expected ${fmt(want)}, got ${fmt(got)}`, details };
  },
};
