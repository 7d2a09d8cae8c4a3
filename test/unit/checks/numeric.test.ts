import { describe, expect, it } from 'vitest';
import { lastNumber, numeric } from '../../../src/checks/numeric.ts';
import { cfg, input, validate } from './helpers.ts';

describe('lastNumber', () => {
  it.each([
    ['The answer is 42.', 42],
    ['-3.5', -3.5],
    ['it dropped to -3.5 degrees', -3.5],
    ['total: 1,234', 1234],
    ['1,234,567.89 dollars', 1234567.89],
    ['about 1e3', 1000],
    ['2.5E-4 m', 0.00025],
    ['first 3 then 7!', 7],
    ['range 5-3', 3],
    ['.5 of it', 0.5],
    ['x = +12', 12],
    ['minus \u22124', -4],
    ['1, 2, 3', 3],
    ['50%', 50],
    ['version 1.2.3', 1.2],
    ['3.14e', 3.14],
  ])('%j -> %d', (text, want) => {
    expect(lastNumber(text)).toBeCloseTo(want, 12);
  });

  it('is null without a number', () => {
    expect(lastNumber('no digits here')).toBeNull();
    expect(lastNumber('')).toBeNull();
  });
});

describe('numeric check', () => {
  it('passes within the default tolerance 1e-6', async () => {
    expect((await numeric.run(input(cfg('numeric'), 'so 0.30000000000000004', 0.3))).passed).toBe(true);
    expect((await numeric.run(input(cfg('numeric'), 'so 0.300002', 0.3))).passed).toBe(false);
  });

  it('fails with `expected X, got Y`', async () => {
    const v = await numeric.run(input(cfg('numeric'), 'I think 41.', 42));
    expect(v).toMatchObject({ passed: false, score: 0, reason: 'expected 42, got 41' });
  });

  it('uses the tolerance of the check (absolute, inclusive)', async () => {
    const check = cfg('numeric', { tolerance: 0.5 });
    expect((await numeric.run(input(check, '42.5', 42))).passed).toBe(true);
    expect((await numeric.run(input(check, '42.51', 42))).passed).toBe(false);
  });

  it('accepts a numeric string expectation with separators', async () => {
    expect((await numeric.run(input(cfg('numeric'), 'It is 1234.', '1,234'))).passed).toBe(true);
  });

  it('fails with a reason when the response has no number', async () => {
    const v = await numeric.run(input(cfg('numeric'), 'no idea', 42));
    expect(v).toMatchObject({ passed: false, score: 0, reason: 'no number in the response' });
  });

  it('is ungradable when the expectation is not a number', async () => {
    expect((await numeric.run(input(cfg('numeric'), '42', 'forty-two'))).passed).toBeNull();
  });

  it('refuses a negative tolerance at load', () => {
    expect(() => validate(numeric, cfg('numeric', { tolerance: -1 }))).toThrow(/tolerance/);
    expect(() => validate(numeric, cfg('numeric', { tolerance: 0 }))).not.toThrow();
  });
});
