import { describe, expect, it } from 'vitest';
import { firstJsonObject, getPath, jsonField } from '../../../src/checks/json-field.ts';
import { cfg, input, validate } from './helpers.ts';

const check = (extra: Record<string, unknown> = {}) => cfg('json_field', { name: 'intent', field: 'intent', ...extra });
const run = (response: string, expected: unknown, extra: Record<string, unknown> = {}) =>
  jsonField.run(input(check(extra), response, expected));

describe('firstJsonObject', () => {
  it('finds the object in fences, in prose, with nested braces and braces inside strings', () => {
    expect(firstJsonObject('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(firstJsonObject('Sure! Here it is: {"a": {"b": [1, {"c": 2}]}} — hope it helps {"a": 9}')).toEqual({
      a: { b: [1, { c: 2 }] },
    });
    expect(firstJsonObject('{"text": "a } brace and a \\" quote {"}')).toEqual({ text: 'a } brace and a " quote {' });
  });

  it('skips spans that are not JSON, never returning an object nested in a broken one', () => {
    expect(firstJsonObject('use {name} then {"a": 2}')).toEqual({ a: 2 });
    expect(firstJsonObject('{"a": {"b": 1},}')).toBeUndefined();
    expect(firstJsonObject('{ unclosed and then {"ok": true}')).toEqual({ ok: true });
    expect(firstJsonObject('[1, 2] no object')).toBeUndefined();
    expect(firstJsonObject('')).toBeUndefined();
  });
});

describe('getPath', () => {
  it('walks dotted paths through objects and arrays', () => {
    const o = { a: { b: [{ c: 'x' }, { c: 'y' }] } };
    expect(getPath(o, 'a.b.1.c')).toEqual({ found: true, value: 'y' });
    expect(getPath(o, 'a.b.2.c').found).toBe(false);
    expect(getPath(o, 'a.x').found).toBe(false);
    expect(getPath({ n: null }, 'n')).toEqual({ found: true, value: null });
  });
});

describe('json_field', () => {
  it('passes when the field equals the expectation, case-insensitively by default', async () => {
    const v = await run('```json\n{"intent": "Refund", "app_name": "Stripe"}\n```', 'refund');
    expect(v).toMatchObject({ passed: true, score: 1, reason: 'intent is "Refund"' });
    expect((await run('{"intent": "Refund"}', 'refund', { case_sensitive: true })).passed).toBe(false);
  });

  it('fails naming both values', async () => {
    expect(await run('{"intent": "billing"}', 'refund')).toMatchObject({
      passed: false,
      score: 0,
      reason: 'intent is "billing", expected "refund"',
    });
  });

  it('accepts any value of a list, and deep-compares objects and numbers', async () => {
    expect((await run('{"intent": "cancel"}', ['refund', 'cancel'])).passed).toBe(true);
    expect((await run('{"intent": "x"}', ['refund', 'cancel'])).reason).toBe(
      'intent is "x", expected one of "refund", "cancel"',
    );
    expect(
      (await jsonField.run(input(check({ field: 'a.b' }), '{"a": {"b": {"k": [1, 2]}}}', { k: [1, 2] }))).passed,
    ).toBe(true);
    expect((await jsonField.run(input(check({ field: 'n' }), '{"n": 5}', '5'))).passed).toBe(false); // no coercion
    expect((await jsonField.run(input(check({ field: 'l' }), '{"l": [1, 2]}', [[1, 2]]))).passed).toBe(true);
  });

  it('fails (not ungradable) without a JSON object or without the field', async () => {
    expect(await run('I think it is a refund', 'refund')).toMatchObject({
      passed: false,
      reason: 'no JSON object in the response; expected intent "refund"',
    });
    expect(await run('{"app": "x"}', 'refund')).toMatchObject({
      passed: false,
      reason: 'intent is missing, expected "refund"',
    });
  });

  it('refuses a check without a usable field at load', () => {
    expect(() => validate(jsonField, cfg('json_field', { name: 'j' }))).toThrow(/field must be a dotted path/);
    expect(() => validate(jsonField, cfg('json_field', { name: 'j', field: 'a..b' }))).toThrow(/field/);
  });
});

describe('json_field with scope = "transcript"', () => {
  it('takes the first object of the whole transcript, not of the last reply', async () => {
    const { gradeTrial } = await import('../../../src/checks/grade.ts');
    const { sample } = await import('./helpers.ts');
    const checks = [
      cfg('json_field', { name: 'last', field: 'intent' }),
      cfg('json_field', { name: 'all', field: 'intent', scope: 'transcript' }),
    ];
    const replies = ['{"intent": "refund"}', 'Anything else? {"intent": "other"}'];
    const { verdicts } = await gradeTrial({
      checks,
      sample: sample({ expected: 'refund' }),
      replies,
      events: [],
      finalState: {},
      blocked: false,
      artifacts: {},
    });
    expect(verdicts.map((v) => v.passed)).toEqual([false, true]);
  });
});
