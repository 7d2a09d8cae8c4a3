// One pool interface, three transports (after vitest's pools): the scheduler hands trials to a Pool
// and gets results back without knowing whether they ran inline, in a thread or in a process.
import type { RunContext, TrialHooks, TrialInput, TrialSummary } from '../trial/types.ts';

export type PoolMode = 'single' | 'threads' | 'processes';

export interface Pool {
  /** Trials this pool runs at once (workers × per-worker; 1 for single). */
  readonly concurrency: number;
  run(trial: TrialInput, opts: { signal: AbortSignal; hooks?: TrialHooks }): Promise<TrialSummary>;
  close(): Promise<void>;
}

export interface PoolOptions {
  workers: number;
  perWorker: number;
  /** Live sandboxes at once across every worker (default 2 × CPU cores). */
  maxSandboxes?: number;
  /** A job's cells, each its own RunContext; a trial with `cell` runs in that one (pool/cells.ts). */
  cells?: RunContext[];
}

export type PoolFactory = (run: RunContext, opts: PoolOptions) => Promise<Pool>;
