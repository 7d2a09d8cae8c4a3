// The three pools behind one interface (docs/running.md#modes); the mode is already validated by the config schema.
// Each loaded when a run starts it: a run loads piscina only when it starts threads.
import type { PoolFactory, PoolMode } from './types.ts';

export const POOLS: Record<PoolMode, PoolFactory> = {
  single: async (run, opts) => (await import('./single.ts')).createSinglePool(run, opts),
  threads: async (run, opts) => (await import('./threads.ts')).createThreadPool(run, opts),
  processes: async (run, opts) => (await import('./forks.ts')).createForkPool(run, opts),
};

export const poolFor = (mode: PoolMode): PoolFactory => POOLS[mode];
