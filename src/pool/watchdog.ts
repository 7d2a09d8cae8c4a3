// The main side's watch over one remote trial's agent phase. The trial's own timeout is a timer in
// its worker, and an agent that blocks the worker's event loop (`while (true) {}`) stops that timer,
// the worker's messages and its answer to a cancel alike; only the main side can still act. So once
// the trial has run for its timeout, the main side pings the worker: a worker that answers is alive
// (its own timer ends the trial, and it is asked again a grace period later while the agent phase
// lasts); one that does not answer within the grace period is blocked, and `blocked` is called once.
export interface WatchdogOptions {
  /** From the start of the agent phase to the first ping: the trial's timeout. */
  afterMs: number;
  /** How long the worker has to answer a ping; also the pause between answered pings. */
  answerMs: number;
  ping(): void;
  blocked(): void;
}

export class EventLoopWatchdog {
  #timer?: NodeJS.Timeout;
  #waiting = false;

  constructor(private readonly o: WatchdogOptions) {}

  /** The agent phase starts: its clock, as the worker's own timer's. */
  start(): void {
    this.stop();
    this.#timer = setTimeout(() => this.#ping(), this.o.afterMs);
  }

  /** The worker answered the last ping. */
  answered(): void {
    if (!this.#waiting) return; // a pong we no longer wait for (stopped or restarted since)
    this.#waiting = false;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#ping(), this.o.answerMs);
  }

  /** The agent phase ended, or the trial is over. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting = false;
  }

  #ping(): void {
    this.#waiting = true;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#waiting = false;
      this.o.blocked();
    }, this.o.answerMs);
    this.o.ping();
  }
}
