// One pool interface, three transports (after vitest's pools): the scheduler hands trials to a Pool
// and gets results back without knowing whether they ran inline, in a thread or in a process.
import type { SandboxSpec } from '../sandbox/types.ts';
import type { RunContext, TrialHooks, TrialInput, TrialSummary } from '../trial/types.ts';

export type PoolMode = 'single' | 'threads' | 'processes';

export interface Pool {
  /** Trials this pool is handed at once: those it runs, and those its workers hold next (their sandboxes started ahead). */
  readonly concurrency: number;
  /** Trials it runs at once (workers × per-worker); absent: its concurrency. The lanes past it feed the workers' next trials. */
  readonly places?: number;
  run(trial: TrialInput, opts: { signal: AbortSignal; hooks?: TrialHooks }): Promise<TrialSummary>;
  close(): Promise<void>;
}

export interface PoolOptions extends PoolStart {
  workers: number;
  perWorker: number;
}

/** What a pool learns only once its run exists (run/run-trials.ts): known earlier, it may come with the boot. */
export interface PoolStart {
  /** Live sandboxes at once across every worker (default 2 × CPU cores). */
  maxSandboxes?: number;
  /** A job's cells, each its own RunContext; a trial with `cell` runs in that one (pool/cells.ts). */
  cells?: RunContext[];
  /** Trials the run plans: a long run gets V8's own optimization budget from its first (loader/heap-flags.mjs). */
  trials?: number;
}

/**
 * What a worker loads while it boots, before the run it serves exists: the agents (a job's cells
 * may have several) and the sandbox provider. Plain data from the loaded benchmark.
 */
export interface PoolBoot {
  agents: Array<Pick<RunContext['agent'], 'name' | 'module'>>;
  sandbox: SandboxSpec | null;
}

/**
 * A pool whose workers are booting (run/pool-boot.ts starts one while the run is checked and its
 * folder made). `start` hands them the run and resolves once every worker is ready; `close` ends
 * them, started or not.
 */
export interface BootingPool {
  start(run: RunContext, more?: PoolStart): Promise<Pool>;
  close(): Promise<void>;
}

export type PoolBooter = (boot: PoolBoot, opts: PoolOptions) => BootingPool;
export type PoolFactory = (run: RunContext, opts: PoolOptions) => Promise<Pool>;
