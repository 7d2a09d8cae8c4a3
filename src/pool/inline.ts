// `single`: every trial in the main thread, one at a time, in order: breakpoints work.
import { runTrial } from '../trial/lifecycle.ts';
import type { Pool, PoolFactory } from './types.ts';

export const createInlinePool: PoolFactory = async (run) => {
  const pool: Pool = {
    concurrency: 1,
    run: (trial, { signal, hooks }) => runTrial(run, trial, { signal, hooks }),
    close: async () => {},
  };
  return pool;
};
