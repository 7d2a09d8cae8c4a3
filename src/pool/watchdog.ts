// The main side's watch over one remote trial's agent phase: an agent that blocks its worker's event
// loop (`while (true) {}`) stops the trial's own timer, its messages and its answer to a cancel alike,
// so only the main side can still act (EventLoopWatchdog).
interface WatchdogOptions {
  /** From the start of the agent phase to its end at the latest: the trial's timeout. */
  afterMs: number;
  /** How long the worker has to answer a ping: the pool's grace period. */
  answerMs: number;
  ping(): void;
  blocked(): void;
}

/**
 * From one grace period before the trial's timeout, pings the worker (again a fifth of a grace period
 * after each answer); a worker that has left a ping unanswered for the grace period once the timeout
 * has passed is blocked: `blocked` is called, once. A worker that answers is left alone: its own
 * timer ends the trial.
 */
export class EventLoopWatchdog {
  #timer?: NodeJS.Timeout;
  #waiting = false;
  /** When the timeout passes (performance.now()). */
  #deadline = 0;

  constructor(private readonly o: WatchdogOptions) {}

  /** The agent phase starts (now, or at `sinceMs` by Date.now()): the trial's clock, as the worker's own timer's. */
  start(sinceMs = Date.now()): void {
    this.stop();
    this.#deadline = performance.now() + this.o.afterMs - (Date.now() - sinceMs);
    this.#timer = setTimeout(() => this.#ping(), Math.max(0, this.#deadline - this.o.answerMs - performance.now()));
  }

  /** Started, and not stopped since. */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** The worker answered the last ping. */
  answered(): void {
    if (!this.#waiting) return; // a pong we no longer wait for (stopped or restarted since)
    this.#waiting = false;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#ping(), this.o.answerMs / 5);
  }

  /** The agent phase ended, or the trial is over. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting = false;
  }

  #ping(): void {
    this.#waiting = true;
    // Unanswered for the grace period, and never before the timeout: an agent may compute for a while.
    const wait = Math.max(this.o.answerMs, this.#deadline - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#waiting = false;
      this.o.blocked();
    }, wait);
    this.o.ping();
  }
}
