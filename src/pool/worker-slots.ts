// The `--max-sandboxes` slots one worker holds (a thread or a process), by request. A trial's
// environment may outlive its result (removed in the background: trial/removals.ts), and one may be
// started before its trial has a place (trial/prestart.ts), so a granted slot is the worker's until
// the worker gives it back ('release'), or until the worker dies: then all of them at once.
import type { HostFailure, SandboxSlot } from '../sandbox/index.ts';

/** A slot as the worker's ledger keeps it: `promote`, for one granted ahead that its trial took (semaphore.ts). */
export type HeldSlot = SandboxSlot & { promote?: () => void };

export class WorkerSlots {
  readonly #held = new Map<number, HeldSlot>();
  /** Its worker is gone: a slot granted from here on goes straight back. */
  #closed = false;

  /** Slots held now. */
  get size(): number {
    return this.#held.size;
  }

  hold(reqId: number, slot: HeldSlot): void {
    if (this.#closed) slot.release();
    else this.#held.set(reqId, slot);
  }

  /** The environment started ahead with the slot of `reqId` was taken by its trial: an ordinary slot from now on. */
  promote(reqId: number): void {
    this.#held.get(reqId)?.promote?.();
  }

  /** Gives back the slot of `reqId` (nothing when it is not held: never granted, or given back already). */
  release(reqId: number, failed?: HostFailure): void {
    const slot = this.#held.get(reqId);
    this.#held.delete(reqId);
    slot?.release(failed);
  }

  /** The worker is gone: every slot it held goes back to the run, and any granted later too. */
  releaseAll(): void {
    this.#closed = true;
    const slots = [...this.#held.values()];
    this.#held.clear();
    for (const slot of slots) slot.release();
  }
}
