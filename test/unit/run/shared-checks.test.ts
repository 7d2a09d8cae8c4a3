// What a job's cells check once between them (src/run/shared-checks.ts): the first cell's answer is
// every cell's with the same key, a refusal included; another key is checked again.
import { describe, expect, it } from 'vitest';
import { onceAmong, SharedChecks } from '../../../src/run/shared-checks.ts';

describe('SharedChecks', () => {
  it('runs a check once per key and gives every cell the same answer', async () => {
    const shared = new SharedChecks();
    let runs = 0;
    const check = () => Promise.resolve(++runs);
    const answers = await Promise.all([shared.once('a', check), shared.once('a', check), shared.once('b', check)]);
    expect(answers).toEqual([1, 1, 2]);
    expect(runs).toBe(2);
  });

  it('a refusal is every cell’s: the second asks nothing and is refused too', async () => {
    const shared = new SharedChecks();
    let runs = 0;
    const refuse = () => Promise.reject(new Error(`refused ${++runs}`));
    await expect(shared.once('k', refuse)).rejects.toThrow('refused 1');
    await expect(shared.once('k', refuse)).rejects.toThrow('refused 1');
    expect(runs).toBe(1);
  });

  it('a plain run (no SharedChecks) checks every time', () => {
    let runs = 0;
    onceAmong(undefined, 'k', () => ++runs);
    onceAmong(undefined, 'k', () => ++runs);
    expect(runs).toBe(2);
  });
});
