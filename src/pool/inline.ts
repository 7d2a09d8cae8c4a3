// `single`: every trial in the main thread, one at a time, in order: breakpoints work.
import { runTrial } from '../trial/lifecycle.ts';
import { defaultMaxSandboxes, Semaphore } from './semaphore.ts';
import type { Pool, PoolFactory } from './types.ts';

export const createInlinePool: PoolFactory = async (run, opts) => {
  const sandboxes = new Semaphore(opts.maxSandboxes ?? defaultMaxSandboxes());
  const pool: Pool = {
    concurrency: 1,
    run: (trial, { signal, hooks }) =>
      runTrial(run, trial, { signal, hooks: { ...hooks, acquireSandbox: (s) => sandboxes.acquire(s) } }),
    close: async () => {},
  };
  return pool;
};
