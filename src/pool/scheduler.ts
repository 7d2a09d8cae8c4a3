// Feeds trials to a pool at its concurrency, stops feeding when the run is interrupted, retries
// trials that ended in an infrastructure error with a fresh sandbox, and reports each result as it
// lands. Results are not kept: the result files on disk are the truth.
import { getMaxListeners, setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TrialHooks, TrialInput, TrialResult, TrialSummary } from '../trial/types.ts';
import type { Pool } from './types.ts';

interface ScheduleOptions {
  signal: AbortSignal;
  /** The same for every trial, or each trial's own (a job's: its cell's breaker hears its first answer). */
  hooks?: TrialHooks | ((trial: TrialInput) => TrialHooks);
  onStart?(trial: TrialInput): void;
  /** `trial`: the one that was planned (a job routes the result to its cell by it). */
  onResult?(result: TrialSummary, trial: TrialInput): void;
  /** A SANDBOX_ERROR trial runs again this many times (fresh sandbox, backoff) before it stands. */
  infraRetries?: number;
  infraBackoffMs?: number;
  onRetry?(trial: TrialInput, attempt: number, result: TrialSummary): void;
  /**
   * Before a lane takes its next trial: null to take it now (the queue is read at once), else a
   * promise to wait for and ask again (the circuit breaker's hold). `ahead`: the lane is past the
   * pool's places (the trial is one a worker holds next, its sandbox started ahead).
   */
  admit?(signal: AbortSignal, ahead: boolean): Promise<void> | null;
  /**
   * Readies a trial before it runs (its own sandbox image found or built): the trial to run, or the
   * result (already saved) that stands for it when it cannot run.
   */
  prepare?(trial: TrialInput): Promise<TrialInput | TrialResult>;
}

export async function schedule(pool: Pool, trials: Iterable<TrialInput>, opts: ScheduleOptions): Promise<void> {
  const queue = trials[Symbol.iterator]();
  // Each trial in a pool listens to the run's signal (its Ctrl-C): as many listeners as lanes, and a few of the run's own.
  const lanes = Math.max(1, pool.concurrency);
  if (getMaxListeners(opts.signal) < lanes + 10) setMaxListeners(lanes + 10, opts.signal);
  const retries = opts.infraRetries ?? 2;
  const backoff = opts.infraBackoffMs ?? 2000;
  const hooksOf = (t: TrialInput) => (typeof opts.hooks === 'function' ? opts.hooks(t) : opts.hooks);
  const runOne = async (planned: TrialInput): Promise<TrialSummary> => {
    const ready = opts.prepare ? await opts.prepare(planned) : planned;
    if ('status' in ready) return ready;
    const trial = ready;
    for (let attempt = 1; ; attempt++) {
      const result = await pool.run(trial, { signal: opts.signal, hooks: hooksOf(trial) });
      if (
        result.status !== 'SANDBOX_ERROR' ||
        result.error?.retryable === false ||
        attempt > retries ||
        opts.signal.aborted
      )
        return result;
      opts.onRetry?.(trial, attempt, result);
      await sleep(backoff * 2 ** (attempt - 1), undefined, { signal: opts.signal }).catch(() => {});
      if (opts.signal.aborted) return result;
    }
  };
  const places = Math.min(lanes, pool.places ?? lanes);
  const lane = async (i: number) => {
    for (;;) {
      const ahead = i >= places;
      for (let wait = opts.admit?.(opts.signal, ahead); wait; wait = opts.admit?.(opts.signal, ahead)) await wait;
      const next = opts.signal.aborted ? null : queue.next();
      if (!next || next.done) return;
      opts.onStart?.(next.value);
      const result = await runOne(next.value);
      if (result.error?.kind !== 'interrupted') opts.onResult?.(result, next.value);
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
}
