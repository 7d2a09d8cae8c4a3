// An async counting semaphore: at most `limit` holders at once, waiters served in order. The
// `--max-sandboxes` bound of a run: used in-process by `single`, and by the main side of the
// remote pools, which grants its slots to workers by message.
import { availableParallelism } from 'node:os';
import { abortReason } from '../errors.ts';

/** docs/cli.md: `--max-sandboxes` defaults to 2 × CPU cores. */
export const defaultMaxSandboxes = () => 2 * availableParallelism();

interface Waiter {
  grant(release: () => void): void;
}

export class Semaphore {
  #held = 0;
  readonly #waiters: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`a semaphore needs a limit of at least 1, got ${limit}`);
  }

  /** Slots held right now. */
  get held(): number {
    return this.#held;
  }

  /**
   * Resolves with this slot's release (idempotent) once a slot is free; rejects with the signal's
   * reason if it aborts first, without taking a slot.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.#held < this.limit) {
      this.#held++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        // Listened for only when there is a signal.
        if (signal) reject(abortReason(signal));
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      this.#waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // Hand the slot straight to the next waiter: the count never dips, so no one can overtake.
      const next = this.#waiters.shift();
      if (next) next.grant(this.#releaser());
      else this.#held--;
    };
  }
}
