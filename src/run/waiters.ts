// Lanes parked until something they wait on may have changed (the circuit breaker's hold, a job's
// queue): each wakes once, when woken or when its signal aborts, and then asks again.
export class Waiters {
  #waiting: Array<() => void> = [];

  /** Settles at the next `wakeAll`, or at once when `signal` aborts (no listener is left behind). */
  wait(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => (signal.removeEventListener('abort', done), resolve());
      signal.addEventListener('abort', done, { once: true });
      this.#waiting.push(done);
    });
  }

  wakeAll(): void {
    for (const wake of this.#waiting.splice(0)) wake();
  }
}
