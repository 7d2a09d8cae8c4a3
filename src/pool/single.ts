// `single`: one trial at a time, in order, in one worker thread (the threads pool with one thread and
// one trial), so that the main thread stays free to end a trial at its timeout and the run at Ctrl-C
// even when the agent blocks its event loop (`while (true) {}`).
import inspector from 'node:inspector';
import { bootInlinePool } from './inline.ts';
import { bootThreadPool } from './threads.ts';
import type { PoolBooter } from './types.ts';

/**
 * Under a debugger (an inspector open: `node --inspect`, an IDE's auto-attach) trials run in the main
 * thread instead (inline.ts): a breakpoint pauses the whole process, timers included, where the main
 * side would take a paused thread for a blocked one and kill it at the trial's timeout.
 */
export const bootSinglePool: PoolBooter = (boot, opts) => {
  if (inspector.url() !== undefined) return bootInlinePool(boot, opts);
  const threads = bootThreadPool(boot, { ...opts, workers: 1, perWorker: 1 });
  return {
    async start(run, more) {
      const pool = await threads.start(run, more);
      return { concurrency: 1, run: (trial, o) => pool.run(trial, o), close: () => pool.close() };
    },
    close: () => threads.close(),
  };
};
