// `single` under a debugger (single.ts): every trial in the main thread, one at a time, in order,
// so that a breakpoint pauses everything. A trial here cannot be stopped while it blocks the event loop.
import { toErrorValue } from '../errors.ts';
import { contextOf } from './cells.ts';
import { failedResult, saveFailedResult } from '../trial/result.ts';
import { defaultMaxSandboxes, Semaphore } from './semaphore.ts';
import type { Pool, PoolBooter, PoolOptions } from './types.ts';
import type { RunContext } from '../trial/types.ts';

/** Nothing boots: the trials run in this thread once the pool starts. */
export const bootInlinePool: PoolBooter = (_boot, opts) => ({
  start: (run, more) => inlinePool(run, { ...opts, ...more }),
  close: async () => {},
});

async function inlinePool(run: RunContext, opts: PoolOptions): Promise<Pool> {
  // Loaded here, not at import: in the other modes the main process never runs a trial (the trial
  // code and the OpenAI SDK: ~15 MB resident).
  const { runTrial } = await import('../trial/lifecycle.ts');
  const sandboxes = new Semaphore(opts.maxSandboxes ?? defaultMaxSandboxes());
  const pool: Pool = {
    concurrency: 1,
    async run(trial, { signal, hooks }) {
      const startedAt = new Date();
      try {
        return await runTrial(contextOf(run, opts.cells, trial), trial, {
          signal,
          hooks: { ...hooks, acquireSandbox: async (s) => ({ release: await sandboxes.acquire(s) }) },
        });
      } catch (err) {
        // As in the worker pools: a trial that could not even produce its result costs only itself.
        const result = failedResult(contextOf(run, opts.cells, trial), trial, toErrorValue(err, 'agent'), startedAt);
        if (!signal.aborted) await saveFailedResult(contextOf(run, opts.cells, trial), result);
        return signal.aborted
          ? { ...result, error: { kind: 'interrupted', message: 'the run was interrupted' } }
          : result;
      }
    },
    close: async () => {},
  };
  return pool;
}
