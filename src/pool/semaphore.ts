// An async counting semaphore: at most `limit` holders at once, waiters served in order. The
// `--max-sandboxes` bound of a run: used in-process by `single`, and by the main side of the
// remote pools, which grants its slots to workers by message.
//
// A request made `ahead` (an environment started before its trial has a place in its worker:
// trial/prestart.ts) is served only when no other waits, and at most `ahead` of them hold a slot at
// once: with `ahead` = limit − the trials that can have a place at once, those trials always find a
// slot, so a trial that waits for its place never holds one that a trial with a place waits for.
// Once its trial takes it, an ahead slot is `promote`d: an ordinary one.
import { availableParallelism } from 'node:os';
import { abortReason } from '../errors.ts';

/**
 * docs/cli.md: `--max-sandboxes` defaults to 2 × CPU cores, or 2 × the trials in flight when more, so
 * that by default each trial in flight may have the next one's sandbox started ahead.
 */
export const defaultMaxSandboxes = (inFlight = 0) => Math.max(2 * availableParallelism(), 2 * inFlight);

/** Gives the slot back (idempotent); `promote` (ahead slots): it counts as an ordinary one from now on. */
type Release = (() => void) & { promote?: () => void };

interface Waiter {
  ahead: boolean;
  grant(release: Release): void;
}

export class Semaphore {
  #held = 0;
  /** Of those, held by requests made ahead and not promoted. */
  #heldAhead = 0;
  readonly #waiters: Waiter[] = [];
  /** Requests made ahead: served after every other. */
  readonly #ahead: Waiter[] = [];
  /** Slots requests made ahead may hold at once (0: none is served). */
  readonly aheadLimit: number;

  constructor(
    readonly limit: number,
    opts: { ahead?: number } = {},
  ) {
    if (!(limit >= 1)) throw new RangeError(`a semaphore needs a limit of at least 1, got ${limit}`);
    this.aheadLimit = Math.max(0, Math.min(limit, opts.ahead ?? 0));
  }

  /** Slots held right now. */
  get held(): number {
    return this.#held;
  }

  /**
   * Resolves with this slot's release (idempotent) once a slot is free; rejects with the signal's
   * reason if it aborts first, without taking a slot.
   */
  acquire(signal?: AbortSignal, opts?: { ahead?: boolean }): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const ahead = !!opts?.ahead;
    const queue = ahead ? this.#ahead : this.#waiters;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        // Listened for only when there is a signal.
        if (signal) reject(abortReason(signal));
      };
      const waiter: Waiter = {
        ahead,
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pump();
    });
  }

  /** Serves waiters while there is room: ordinary ones first, in order, then those made ahead within their bound. */
  #pump(): void {
    while (this.#held < this.limit) {
      const next = this.#waiters.shift() ?? (this.#heldAhead < this.aheadLimit ? this.#ahead.shift() : undefined);
      if (!next) return;
      this.#held++;
      if (next.ahead) this.#heldAhead++;
      next.grant(this.#releaser(next.ahead));
    }
  }

  #releaser(ahead: boolean): Release {
    let done = false;
    let counted = ahead;
    const release: Release = () => {
      if (done) return;
      done = true;
      this.#held--;
      if (counted) this.#heldAhead--;
      this.#pump();
    };
    if (ahead)
      release.promote = () => {
        if (done || !counted) return;
        counted = false;
        this.#heldAhead--;
        this.#pump();
      };
    return release;
  }
}
