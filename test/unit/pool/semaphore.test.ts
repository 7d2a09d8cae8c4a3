// The `--max-sandboxes` semaphore: waiters in order, and requests made ahead of their trial's place
// (trial/prestart.ts) served only after every other and within their own bound, so that a trial
// with a place never waits behind an environment started ahead of one without.
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../../src/pool/semaphore.ts';

const tick = () => new Promise((r) => setImmediate(r));

/** Acquires and records when it was granted. */
function take(sem: Semaphore, order: string[], name: string, ahead = false) {
  return sem.acquire(undefined, { ahead }).then((release) => (order.push(name), release));
}

describe('Semaphore', () => {
  it('never has more than its limit held, and serves waiters in order', async () => {
    const sem = new Semaphore(2);
    const order: string[] = [];
    const a = take(sem, order, 'a');
    const b = take(sem, order, 'b');
    const c = take(sem, order, 'c');
    const d = take(sem, order, 'd');
    await tick();
    expect(order).toEqual(['a', 'b']);
    expect(sem.held).toBe(2);
    (await a)();
    await tick();
    expect(order).toEqual(['a', 'b', 'c']);
    (await a)(); // idempotent
    await tick();
    expect(order).toEqual(['a', 'b', 'c']);
    (await b)();
    (await c)();
    (await d)();
    expect(sem.held).toBe(0);
  });

  it('grants nothing ahead without an ahead bound', async () => {
    const sem = new Semaphore(4);
    const order: string[] = [];
    void take(sem, order, 'ahead', true);
    await tick();
    expect(order).toEqual([]);
    expect(sem.held).toBe(0);
  });

  it('serves a request made ahead after every ordinary one, and at most `ahead` at once', async () => {
    const sem = new Semaphore(3, { ahead: 1 });
    const order: string[] = [];
    const x1 = take(sem, order, 'x1', true);
    const x2 = take(sem, order, 'x2', true);
    await tick();
    expect(order).toEqual(['x1']); // one ahead at most, even with room
    const a = take(sem, order, 'a');
    const b = take(sem, order, 'b');
    const c = take(sem, order, 'c');
    await tick();
    expect(order).toEqual(['x1', 'a', 'b']); // full: c waits, and goes before x2
    (await a)();
    await tick();
    expect(order).toEqual(['x1', 'a', 'b', 'c']);
    (await b)();
    await tick();
    expect(order).toEqual(['x1', 'a', 'b', 'c']); // room, but x1 still holds the one slot ahead
    (await x1).promote?.(); // its trial took it: an ordinary slot now, and x2 may go ahead
    await tick();
    expect(order).toEqual(['x1', 'a', 'b', 'c', 'x2']);
    (await x1)();
    (await c)();
    (await x2)();
    expect(sem.held).toBe(0);
  });

  it('an aborted request leaves the line without taking a slot', async () => {
    const sem = new Semaphore(1, { ahead: 1 });
    const order: string[] = [];
    const a = take(sem, order, 'a');
    const abort = new AbortController();
    const waiting = sem.acquire(abort.signal, { ahead: true });
    abort.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    (await a)();
    expect(sem.held).toBe(0);
  });
});
