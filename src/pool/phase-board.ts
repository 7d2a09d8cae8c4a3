// Where the trials of a thread pool say that their agent phase has started or ended: memory shared by
// the main side and every thread, one slot per trial in flight, read by the watchdog (watchdog.ts)
// only near a trial's timeout, so that the phase wakes no thread. Processes keep messages instead.
//
// A slot holds the trial's id and its state: 0 before the phase, -1 after it, else the time it
// started in ticks of 10 ms since the board's epoch (2^31 ticks: 248 days). The id is written last
// and read first, so that a stale writer (a thread being killed) cannot pass for the slot's trial.
const TICK_MS = 10;
const BEFORE = 0;
const AFTER = -1;

export type AgentPhase = { at: 'before' } | { at: 'agent'; sinceMs: number } | { at: 'after' };

export interface PhaseBoardInit {
  buffer: SharedArrayBuffer;
  epochMs: number;
}

export class PhaseBoard {
  readonly #cells: Int32Array;

  private constructor(readonly init: PhaseBoardInit) {
    this.#cells = new Int32Array(init.buffer);
  }

  /** The main side's board, `slots` trials in flight at most. */
  static create(slots: number): PhaseBoard {
    return new PhaseBoard({
      buffer: new SharedArrayBuffer(slots * 2 * Int32Array.BYTES_PER_ELEMENT),
      epochMs: Date.now(),
    });
  }

  /** The same memory on a thread, from the `init` it was given. */
  static attach(init: PhaseBoardInit): PhaseBoard {
    return new PhaseBoard(init);
  }

  get slots(): number {
    return this.#cells.length / 2;
  }

  /** Main side: the slot is the trial's from now on, before its phase. */
  assign(slot: number, id: number): void {
    Atomics.store(this.#cells, slot * 2 + 1, BEFORE);
    Atomics.store(this.#cells, slot * 2, id);
  }

  /** Thread side: the trial's agent phase starts (now) or ends. */
  mark(slot: number, id: number, phase: 'start' | 'end'): void {
    const state = phase === 'end' ? AFTER : Math.max(1, Math.round((Date.now() - this.init.epochMs) / TICK_MS));
    Atomics.store(this.#cells, slot * 2 + 1, state);
    Atomics.store(this.#cells, slot * 2, id);
  }

  /** Main side: where trial `id` is; a slot taken over by another trial reads as `before`. */
  read(slot: number, id: number): AgentPhase {
    if (Atomics.load(this.#cells, slot * 2) !== id) return { at: 'before' };
    const state = Atomics.load(this.#cells, slot * 2 + 1);
    if (state === BEFORE) return { at: 'before' };
    if (state === AFTER) return { at: 'after' };
    return { at: 'agent', sinceMs: this.init.epochMs + state * TICK_MS };
  }
}
