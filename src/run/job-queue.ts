// A job's trials as its one pool takes them (docs/running.md#jobs): one cell's after another in
// turn, so that the pool stays full to the end, each asked of its cell's circuit breaker first
// (circuit-breaker.ts). While a cell's upstream looks down its trials go out one at a time, and none
// is taken ahead of a place before its upstream has answered, but the other cells' trials go out
// meanwhile; a cell whose breaker tripped gives no more.
import type { TrialInput } from '../trial/types.ts';
import type { ModelCircuitBreaker } from './circuit-breaker.ts';
import { Waiters } from './waiters.ts';

export interface QueuedCell {
  readonly open: { readonly toRun: Iterable<TrialInput> };
  readonly breaker: ModelCircuitBreaker;
  /** Its trials handed out so far. */
  started: number;
}

/** A cell's next trial, read ahead to know whether it has one: undefined not read yet, null none left. */
type Peeked = TrialInput | null | undefined;

export class JobQueue implements IterableIterator<TrialInput> {
  readonly #cells: readonly QueuedCell[];
  readonly #trials: Iterator<TrialInput>[];
  readonly #peeked: Peeked[];
  /** The cell whose turn it is. */
  #turn = 0;
  /** The cell `admit` let go, whose trial the lane takes at once. */
  #chosen: number | null = null;
  readonly #waiting = new Waiters();

  constructor(cells: readonly QueuedCell[]) {
    this.#cells = cells;
    this.#trials = cells.map((c) => c.open.toRun[Symbol.iterator]());
    this.#peeked = cells.map(() => undefined);
    for (const b of new Set(cells.map((c) => c.breaker))) b.listen(() => this.#waiting.wakeAll());
  }

  /**
   * The scheduler's admission (pool/scheduler.ts): null when a trial may go out now (a cell whose
   * breaker lets it, or none left), else a promise that settles when that may have changed.
   */
  admit(signal: AbortSignal, ahead: boolean): Promise<void> | null {
    const i = this.#pick(ahead);
    this.#chosen = i;
    if (i !== null || signal.aborted || !this.#cells.some((_, k) => this.#has(k))) return null;
    return this.#waiting.wait(signal);
  }

  next(): IteratorResult<TrialInput> {
    const i = this.#chosen ?? this.#pick(false) ?? this.#firstLeft();
    this.#chosen = null;
    const t = i === null ? null : this.#peeked[i];
    if (i === null || !t) return { done: true, value: undefined };
    this.#peeked[i] = undefined;
    this.#turn = (i + 1) % this.#cells.length;
    const cell = this.#cells[i];
    cell.started++;
    cell.breaker.taken();
    return { done: false, value: { ...t, cell: i } };
  }

  [Symbol.iterator](): IterableIterator<TrialInput> {
    return this;
  }

  /** The first cell from the one whose turn it is that has a trial its breaker lets go now. */
  #pick(ahead: boolean): number | null {
    const n = this.#cells.length;
    for (let k = 0; k < n; k++) {
      const i = (this.#turn + k) % n;
      if (this.#has(i) && !this.#cells[i].breaker.holds(ahead)) return i;
    }
    return null;
  }

  /** Without a breaker's word (the lane asked none): the first cell in turn with a trial left. */
  #firstLeft(): number | null {
    const n = this.#cells.length;
    for (let k = 0; k < n; k++) if (this.#has((this.#turn + k) % n)) return (this.#turn + k) % n;
    return null;
  }

  /** Whether cell `i` has a trial left: none once its breaker tripped. */
  #has(i: number): boolean {
    if (this.#cells[i].breaker.trip) return false;
    if (this.#peeked[i] === undefined) {
      const r = this.#trials[i].next();
      this.#peeked[i] = r.done ? null : r.value;
    }
    return this.#peeked[i] !== null;
  }
}
