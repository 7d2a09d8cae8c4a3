// The three pools behind one interface (docs/running.md#modes); the mode is already validated by the config schema.
import { createForkPool } from './forks.ts';
import { createSinglePool } from './single.ts';
import { createThreadPool } from './threads.ts';
import type { PoolFactory, PoolMode } from './types.ts';

export const POOLS: Record<PoolMode, PoolFactory> = {
  single: createSinglePool,
  threads: createThreadPool,
  processes: createForkPool,
};

export const poolFor = (mode: PoolMode): PoolFactory => POOLS[mode];
