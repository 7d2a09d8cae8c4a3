import { describe, expect, it } from 'vitest';
import { exact } from '../../../src/checks/exact.ts';
import { contains } from '../../../src/checks/contains.ts';
import { regex } from '../../../src/checks/regex.ts';
import { cfg, input, validate } from './helpers.ts';

describe('exact', () => {
  it('passes on the trimmed response, case-insensitively by default', async () => {
    const v = await exact.run(input(cfg('exact'), '  Paris \n', 'paris'));
    expect(v).toMatchObject({ passed: true, score: 1 });
  });

  it('fails with a short reason naming both values', async () => {
    const v = await exact.run(input(cfg('exact'), '41', 42));
    expect(v).toMatchObject({ passed: false, score: 0, reason: 'expected "42", got "41"' });
  });

  it('respects case_sensitive = true', async () => {
    const v = await exact.run(input(cfg('exact', { case_sensitive: true }), 'paris', 'Paris'));
    expect(v.passed).toBe(false);
  });

  it('does not accept a response that merely contains the expectation', async () => {
    const v = await exact.run(input(cfg('exact'), 'the answer is 42', '42'));
    expect(v.passed).toBe(false);
  });

  it('accepts any item of a list expectation', async () => {
    expect((await exact.run(input(cfg('exact'), 'NYC', ['New York', 'nyc']))).passed).toBe(true);
    expect((await exact.run(input(cfg('exact'), 'LA', ['New York', 'nyc']))).passed).toBe(false);
  });

  it('is ungradable without an expectation and refuses a bad case_sensitive at load', async () => {
    expect((await exact.run(input(cfg('exact'), 'x', undefined))).passed).toBeNull();
    expect(() => validate(exact, cfg('exact', { case_sensitive: 'yes' }))).toThrow(/case_sensitive/);
  });

  it('needs a per-sample input', () => {
    expect(exact.needsInput).toBe(true);
  });
});

describe('contains', () => {
  it('passes when the single string is contained, ignoring case', async () => {
    const v = await contains.run(input(cfg('contains'), 'The capital is PARIS.', 'paris'));
    expect(v).toMatchObject({ passed: true, score: 1, reason: 'contains "paris"' });
  });

  it('scores the fraction of a list found and names what is missing', async () => {
    const v = await contains.run(input(cfg('contains'), 'apples and pears', ['apple', 'pear', 'plum', 'fig']));
    expect(v.passed).toBe(false);
    expect(v.score).toBe(0.5);
    expect(v.reason).toBe('missing "plum", "fig" (2 of 4 found)');
  });

  it('passes a list only when every item is there', async () => {
    const v = await contains.run(input(cfg('contains'), 'a b c', ['a', 'b', 'c']));
    expect(v).toMatchObject({ passed: true, score: 1, reason: 'contains all 3' });
  });

  it('single missing item reads `missing "foo"`', async () => {
    const v = await contains.run(input(cfg('contains'), 'bar', 'foo'));
    expect(v).toMatchObject({ passed: false, score: 0, reason: 'missing "foo"' });
  });

  it('respects case_sensitive = true', async () => {
    const v = await contains.run(input(cfg('contains', { case_sensitive: true }), 'PARIS', 'paris'));
    expect(v.passed).toBe(false);
  });

  it('matches numbers given as numbers', async () => {
    expect((await contains.run(input(cfg('contains'), 'there are 42 lines', 42))).passed).toBe(true);
  });

  it('is ungradable with an empty list or no expectation', async () => {
    expect((await contains.run(input(cfg('contains'), 'x', []))).passed).toBeNull();
    expect((await contains.run(input(cfg('contains'), 'x', undefined))).passed).toBeNull();
  });
});

describe('regex', () => {
  it('passes when the pattern matches and reports the match', async () => {
    const v = await regex.run(input(cfg('regex', { pattern: '\\d{3}-\\d{4}' }), 'call 555-1234 now'));
    expect(v).toMatchObject({ passed: true, score: 1, reason: 'matched "555-1234"' });
  });

  it('fails naming the pattern', async () => {
    const v = await regex.run(input(cfg('regex', { pattern: '^yes$' }), 'no'));
    expect(v).toMatchObject({ passed: false, score: 0, reason: 'no match for /^yes$/' });
  });

  it('honours flags', async () => {
    const check = cfg('regex', { pattern: '^done$', flags: 'im' });
    expect((await regex.run(input(check, 'working\nDONE\n'))).passed).toBe(true);
    expect((await regex.run(input(cfg('regex', { pattern: '^done$' }), 'working\nDONE\n'))).passed).toBe(false);
  });

  it('is stateless across runs even with the g flag', async () => {
    const check = cfg('regex', { pattern: 'a', flags: 'g' });
    expect((await regex.run(input(check, 'a'))).passed).toBe(true);
    expect((await regex.run(input(check, 'a'))).passed).toBe(true);
  });

  it('refuses at load a pattern that does not compile, a missing pattern or bad flags', () => {
    expect(() => validate(regex, cfg('regex', { pattern: '(' }))).toThrow(/does not compile/);
    expect(() => validate(regex, cfg('regex'))).toThrow(/pattern/);
    expect(() => validate(regex, cfg('regex', { pattern: 'a', flags: 'q' }))).toThrow(/does not compile/);
    expect(() => validate(regex, cfg('regex', { pattern: 'a', flags: 'i' }))).not.toThrow();
  });

  it('needs no per-sample input', () => {
    expect(regex.needsInput).toBe(false);
  });
});
