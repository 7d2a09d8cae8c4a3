// The event-loop watchdog with real timers: it calls a silent worker blocked at the trial's timeout
// (never before), leaves a worker that answers alone, and says nothing once stopped.
import { describe, expect, it } from 'vitest';
import { EventLoopWatchdog } from '../../../src/pool/watchdog.ts';
import { defined } from '../../support/defined.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A watchdog over a fake worker that answers each ping (after `answerAfterMs`) while `alive`. */
function watch(o: { afterMs: number; answerMs: number; answerAfterMs?: number }) {
  const w = { pings: [] as number[], blockedAt: [] as number[], alive: true, t0: performance.now() };
  const dog: EventLoopWatchdog = new EventLoopWatchdog({
    afterMs: o.afterMs,
    answerMs: o.answerMs,
    ping: () => {
      w.pings.push(performance.now() - w.t0);
      if (w.alive) setTimeout(() => w.alive && dog.answered(), o.answerAfterMs ?? 5);
    },
    blocked: () => w.blockedAt.push(performance.now() - w.t0),
  });
  dog.start();
  return { w, dog };
}

describe('EventLoopWatchdog', () => {
  it('a worker that never answers is blocked at the timeout, not before, and only once', async () => {
    const { w } = watch({ afterMs: 400, answerMs: 150 });
    w.alive = false;
    await sleep(1000);
    expect(w.pings).toHaveLength(1);
    expect(w.pings[0]).toBeGreaterThanOrEqual(240); // a grace period before the timeout
    expect(w.blockedAt).toHaveLength(1);
    expect(w.blockedAt[0]).toBeGreaterThanOrEqual(395);
    expect(w.blockedAt[0]).toBeLessThan(800); // timer slack on a busy machine
  });

  it('a worker that keeps answering is never blocked, and keeps being asked while the phase lasts', async () => {
    const { w, dog } = watch({ afterMs: 100, answerMs: 100, answerAfterMs: 60 });
    await sleep(600);
    dog.stop();
    expect(w.blockedAt).toEqual([]);
    expect(w.pings.length).toBeGreaterThanOrEqual(4);
    const n = w.pings.length;
    await sleep(300);
    expect(w.pings).toHaveLength(n); // stopped: no more pings
  });

  it('a worker that falls silent past the timeout is blocked a grace period after its unanswered ping', async () => {
    const { w } = watch({ afterMs: 100, answerMs: 200 });
    await sleep(300);
    w.alive = false; // the agent blocks the loop well after its timeout (a hung close(), say)
    const silentAt = performance.now() - w.t0;
    await sleep(800);
    expect(w.blockedAt).toHaveLength(1);
    const lastPing = defined(w.pings.at(-1));
    expect(lastPing).toBeGreaterThanOrEqual(silentAt - 10); // the ping its answer was lost for, or a later one
    expect(w.blockedAt[0] - lastPing).toBeGreaterThanOrEqual(195);
    expect(w.blockedAt[0] - silentAt).toBeLessThan(200 + 40 + 250); // a grace period and a fifth, plus timer slack
  });

  it('stopped before the timeout (the agent phase ended), it never calls a silent worker blocked', async () => {
    const { w, dog } = watch({ afterMs: 300, answerMs: 200 });
    w.alive = false;
    await sleep(150); // the first ping is out and unanswered
    dog.stop();
    await sleep(400);
    expect(w.pings).toHaveLength(1);
    expect(w.blockedAt).toEqual([]);
  });
});
