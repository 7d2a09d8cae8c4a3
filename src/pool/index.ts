import { BenchrigError } from '../errors.ts';
import { createForkPool } from './forks.ts';
import { createInlinePool } from './inline.ts';
import { createThreadPool } from './threads.ts';
import type { PoolFactory, PoolMode } from './types.ts';

export const POOLS: Partial<Record<PoolMode, PoolFactory>> = {
  single: createInlinePool,
  threads: createThreadPool,
  processes: createForkPool,
};

export function poolFor(mode: PoolMode): PoolFactory {
  const factory = POOLS[mode];
  if (!factory)
    throw new BenchrigError('usage', `--mode ${mode} is not available yet (threads and processes arrive with the execution-modes work); use --mode single`);
  return factory;
}
