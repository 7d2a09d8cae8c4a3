// Feeds trials to a pool at its concurrency, stops feeding when the run is interrupted, and
// reports each result as it lands. Results are not kept: the result files on disk are the truth.
import type { TrialHooks, TrialInput } from '../trial/types.ts';
import type { TrialResult } from '../types.ts';
import type { Pool } from './types.ts';

export interface ScheduleOptions {
  signal: AbortSignal;
  hooks?: TrialHooks;
  onStart?(trial: TrialInput): void;
  onResult?(result: TrialResult): void;
}

export async function schedule(pool: Pool, trials: Iterable<TrialInput>, opts: ScheduleOptions): Promise<void> {
  const queue = trials[Symbol.iterator]();
  const lane = async () => {
    for (let next = queue.next(); !next.done && !opts.signal.aborted; next = queue.next()) {
      opts.onStart?.(next.value);
      const result = await pool.run(next.value, { signal: opts.signal, hooks: opts.hooks });
      if (result.error?.kind !== 'interrupted') opts.onResult?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, pool.concurrency) }, lane));
}
