// A pool's close, for each of its workers: ask it to drain (environments started ahead and not
// taken removed, every removal in its background awaited: trial/removals.ts) and wait for its
// answer, its exit, or DRAIN_MS — whichever comes first. Past that the worker is ended all the
// same, and the run's sweep by label removes what it left.
import type { EventEmitter } from 'node:events';

/** Every provider call has its own deadline (the provider's client): this only bounds a worker that does not answer. */
const DRAIN_MS = 60_000;

export function drainWorker(worker: EventEmitter, ask: (done: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('exit', done);
      resolve();
    };
    const timer = setTimeout(done, DRAIN_MS);
    worker.once('exit', done);
    ask(done);
  });
}
