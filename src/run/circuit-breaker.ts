// The run's circuit breaker (docs/agents.md#circuit-breaker), N = `[run] circuit_breaker` (0: off). It
// trips when the model side is down, not the agent: scheduling stops (trials in flight finish) and
// the run exits 3 naming it. Two rules:
// - the endpoint: N trials in a row ended MODEL_ERROR. Once one has, no trial starts while another
//   is in flight: those tell whether the endpoint is back, then one is tried at a time, so that a
//   dead endpoint costs N trials (or the pool's width), not the whole run;
// - the same model error: the first N trials to finish all ended AGENT_ERROR kind 'llm' (the model
//   failed the call itself: a timeout, a 400…) with the same message: the run's model is set up wrong.
import type { AgentTraits } from '../agents/load.ts';
import type { TrialSummary } from '../trial/types.ts';
import { Waiters } from './waiters.ts';

/** `[run] circuit_breaker`, off for the empty baseline: `validate --run` wants its verdict on every sample. */
export const breakerSize = (traits: AgentTraits, n: number): number => (traits.baseline === 'empty' ? 0 : n);

export interface BreakerTrip {
  error: string;
  trials_not_started: number;
}

export class ModelCircuitBreaker {
  private seen = 0;
  private first: string | null = null;
  private same = true;
  private planned = 0;
  private started = 0;
  private ended = 0;
  /** MODEL_ERROR trials in a row, the last one to end included. */
  private streak = 0;
  /** A trial's model call was answered: the endpoint was up before any trial ended. */
  private answeredOnce = false;
  private readonly waiting = new Waiters();
  private listeners: Array<() => void> = [];
  trip: BreakerTrip | null = null;
  /** What tripped it, for the console. */
  why = '';

  /** n = 0: never trips. */
  constructor(private readonly n: number) {}

  /** The trials, cut short once the breaker trips. */
  *gate<T>(trials: Iterable<T> & { readonly length: number }): Iterable<T> {
    this.planned = trials.length; // an array, or a TrialPlan that makes its trials as they are taken
    for (const t of trials) {
      if (this.trip) break;
      this.started++;
      yield t;
    }
  }

  /** A trial of this upstream went out otherwise than through `gate` (a job's queue: job-queue.ts). */
  taken(): void {
    this.started++;
  }

  /**
   * Whether the next trial must wait. While the endpoint looks down, a trial starts only when none is
   * in flight. `ahead`: a trial taken ahead of a place (a worker's next, its sandbox started early),
   * which starts only once a model call has been answered or a result has come back and the endpoint
   * does not look down, so that a dead endpoint costs the trials that run at once and not also the
   * ones queued behind them.
   */
  holds(ahead = false): boolean {
    if (this.n === 0 || this.trip) return false;
    if (ahead && !((this.answeredOnce || this.ended > 0) && this.streak === 0)) return true;
    return this.streak > 0 && this.started !== this.ended;
  }

  /** null when the next trial may start now; else a promise that settles when that may have changed (ask again). */
  admit(signal: AbortSignal, ahead = false): Promise<void> | null {
    if (signal.aborted || !this.holds(ahead)) return null;
    return this.waiting.wait(signal);
  }

  /** Calls `fn` whenever what `holds` says may have changed (a job's queue waits on several breakers). */
  listen(fn: () => void): void {
    this.listeners.push(fn);
  }

  private changed(): void {
    this.waiting.wakeAll();
    for (const fn of this.listeners) fn();
  }

  /** Whether a trial's first answered model call would still tell this breaker anything (then: `answered`). */
  get wantsAnswer(): boolean {
    return this.n > 0 && !this.answeredOnce && this.ended === 0;
  }

  /** A trial's model call was answered: the trials queued ahead may start before the first result. */
  answered(): void {
    if (this.answeredOnce) return;
    this.answeredOnce = true;
    this.changed();
  }

  observe(result: TrialSummary): void {
    this.ended++;
    if (this.n > 0 && !this.trip) {
      this.streak = result.status === 'MODEL_ERROR' ? this.streak + 1 : 0;
      if (this.streak >= this.n) {
        this.trip = { error: result.error?.message ?? 'the model endpoint failed', trials_not_started: 0 };
        this.why = `${this.n} trials in a row failed because the model endpoint did`;
      } else this.sameError(result);
    }
    this.changed();
  }

  /** The rule of the first N trials: all the same model error. */
  private sameError(result: TrialSummary): void {
    if (this.seen >= this.n) return;
    this.seen++;
    // Numbers differ between otherwise identical errors (ports, attempt counts, ms).
    const key = result.error?.kind === 'llm' ? result.error.message.replace(/\d+/g, 'N') : null;
    if (key === null || (this.first !== null && key !== this.first)) this.same = false;
    this.first ??= key;
    if (this.seen === this.n && this.same && key !== null && result.error) {
      this.trip = { error: result.error.message, trials_not_started: 0 };
      this.why = `the first ${this.n} trials all failed with the same model error`;
    }
  }

  /** After scheduling: how many trials never started. */
  finish(): BreakerTrip | null {
    if (this.trip) this.trip.trials_not_started = this.planned - this.started;
    return this.trip;
  }
}
