// The three pools behind one interface (docs/running.md#modes); the mode is already validated by the config schema.
import { bootForkPool } from './forks.ts';
import { bootSinglePool } from './single.ts';
import { bootThreadPool } from './threads.ts';
import type { PoolBooter, PoolFactory, PoolMode } from './types.ts';

const BOOTERS: Record<PoolMode, PoolBooter> = {
  single: bootSinglePool,
  threads: bootThreadPool,
  processes: bootForkPool,
};

export const bootFor = (mode: PoolMode): PoolBooter => BOOTERS[mode];

/** Booted and started at once: the workers load what the run's (or its cells') agents and sandbox need. */
const startAtOnce =
  (boot: PoolBooter): PoolFactory =>
  async (run, opts) => {
    const booting = boot({ agents: (opts.cells ?? [run]).map((r) => r.agent), sandbox: run.sandbox }, opts);
    try {
      return await booting.start(run);
    } catch (err) {
      await booting.close();
      throw err;
    }
  };

export const POOLS: Record<PoolMode, PoolFactory> = {
  single: startAtOnce(bootSinglePool),
  threads: startAtOnce(bootThreadPool),
  processes: startAtOnce(bootForkPool),
};
