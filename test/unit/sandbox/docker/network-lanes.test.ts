// Network calls to one engine go a few at a time (docs/sandboxes.md#networks-per-trial): the others
// wait in the process, not inside the daemon where their deadline runs; another engine has lanes of
// its own; a caller that gives up while waiting leaves the queue.
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { inNetworkLane, NETWORK_LANES } from '../../../../src/sandbox/docker/network-lanes.ts';

const engine = () => ({}) as Docker;
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('network lanes', () => {
  it(`runs at most ${NETWORK_LANES} calls per engine at once, the rest in turn, whatever each call does`, async () => {
    const a = engine();
    const b = engine();
    let inFlight = 0;
    let most = 0;
    const call = (i: number) => async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await tick();
      inFlight--;
      if (i % 3 === 0) throw new Error(`call ${i} failed`);
      return i;
    };
    const done = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => inNetworkLane(a, call(i))));
    expect(most).toBe(NETWORK_LANES);
    expect(done.filter((d) => d.status === 'fulfilled').map((d) => d.value)).toEqual([1, 2, 4, 5, 7, 8, 10, 11]);
    // A slow call on one engine does not hold another's.
    let release = () => {};
    const slow = Array.from({ length: NETWORK_LANES }, () =>
      inNetworkLane(a, () => new Promise<void>((r) => (release = r))),
    );
    expect(await inNetworkLane(b, async () => 'other engine')).toBe('other engine');
    release();
    void Promise.all(slow);
  });

  it('a caller aborted while waiting leaves the queue; the lane goes to the next', async () => {
    const a = engine();
    const hold: Array<() => void> = [];
    const held = Array.from({ length: NETWORK_LANES }, () =>
      inNetworkLane(a, () => new Promise<void>((r) => hold.push(r))),
    );
    const abort = new AbortController();
    const gaveUp = inNetworkLane(a, async () => 'never', abort.signal);
    const next = inNetworkLane(a, async () => 'next');
    abort.abort(new Error('trial interrupted'));
    await expect(gaveUp).rejects.toThrow('trial interrupted');
    for (const r of hold) r();
    await Promise.all(held);
    expect(await next).toBe('next');
  });
});
