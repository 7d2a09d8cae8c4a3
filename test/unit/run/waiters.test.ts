import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Waiters } from '../../../src/run/waiters.ts';

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('Waiters', () => {
  it('wakes every lane parked so far, once; a lane parked after waits for the next wake', async () => {
    const w = new Waiters();
    const signal = new AbortController().signal;
    const a = w.wait(signal);
    const b = w.wait(signal);
    expect(await settled(a)).toBe(false);
    w.wakeAll();
    expect([await settled(a), await settled(b)]).toEqual([true, true]);
    const c = w.wait(signal);
    expect(await settled(c)).toBe(false);
    w.wakeAll();
    expect(await settled(c)).toBe(true);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('lets a parked lane go when the run is interrupted, and one that asks after at once', async () => {
    const w = new Waiters();
    const ctl = new AbortController();
    const parked = w.wait(ctl.signal);
    ctl.abort();
    expect(await settled(parked)).toBe(true);
    expect(await settled(w.wait(ctl.signal))).toBe(true);
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(0);
  });
});
