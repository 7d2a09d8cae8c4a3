// The run's circuit breaker (docs/agents.md#circuit-breaker): when the first N trials to finish (default 5) all ended with
// the same model error (AGENT_ERROR kind 'llm': the model failed after its retries), the model side
// is down, not the agent: scheduling stops (trials in flight finish) and the run exits 3 naming it.
import type { TrialSummary } from '../trial/types.ts';

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
  trip: BreakerTrip | null = null;

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

  observe(result: TrialSummary): void {
    if (this.n === 0 || this.seen >= this.n) return;
    this.seen++;
    // Numbers differ between otherwise identical errors (ports, attempt counts, ms).
    const key = result.error?.kind === 'llm' ? result.error.message.replace(/\d+/g, 'N') : null;
    if (key === null || (this.first !== null && key !== this.first)) this.same = false;
    this.first ??= key;
    if (this.seen === this.n && this.same && key !== null && result.error)
      this.trip = { error: result.error.message, trials_not_started: 0 };
  }

  /** After scheduling: how many trials never started. */
  finish(): BreakerTrip | null {
    if (this.trip) this.trip.trials_not_started = this.planned - this.started;
    return this.trip;
  }
}
