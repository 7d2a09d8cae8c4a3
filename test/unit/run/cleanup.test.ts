import { describe, expect, it } from 'vitest';
import { Cleanup, withCleanup } from '../../../src/run/cleanup.ts';

describe('Cleanup', () => {
  it('releases last acquired first, once, and collects failures instead of throwing them', async () => {
    const c = new Cleanup();
    const order: string[] = [];
    c.defer('a', () => order.push('a'));
    c.defer('b', () => {
      throw new Error('b broke');
    });
    c.defer('c', async () => order.push('c'));
    const failed = await c.dispose();
    expect(order).toEqual(['c', 'a']);
    expect(failed.map((f) => [f.what, (f.error as Error).message])).toEqual([['b', 'b broke']]);
    expect(c.size).toBe(0);
    expect(await c.dispose()).toEqual([]);
  });

  it('a release may be run early; it is then off the stack', async () => {
    const c = new Cleanup();
    let n = 0;
    const early = c.defer('pool', () => n++);
    await early();
    await early();
    await c.dispose();
    expect(n).toBe(1);
  });

  it('a release past its deadline is reported and the rest go on', async () => {
    const c = new Cleanup();
    const order: string[] = [];
    c.defer('first', () => order.push('first'));
    c.defer('stuck', () => new Promise(() => {}), 20);
    const failed = await c.dispose();
    expect(order).toEqual(['first']);
    expect(String(failed[0].error)).toMatch(/stuck: not released after/);
  });

  it('withCleanup releases on a throw and keeps the original error', async () => {
    const warned: string[] = [];
    let released = false;
    await expect(
      withCleanup(
        async (c) => {
          c.defer('x', () => (released = true));
          c.defer('y', () => Promise.reject(new Error('y broke')));
          throw new Error('the step failed');
        },
        (l) => warned.push(l),
      ),
    ).rejects.toThrow('the step failed');
    expect(released).toBe(true);
    expect(warned).toEqual(['cleanup: y: y broke']);
  });
});
