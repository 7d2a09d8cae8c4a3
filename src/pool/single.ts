// `single`: one trial at a time, in order, in one worker thread (the threads pool with one thread and
// one trial), so that the main thread stays free to end a trial at its timeout and the run at Ctrl-C
// even when the agent blocks its event loop (`while (true) {}`).
import inspector from 'node:inspector';
import { createInlinePool } from './inline.ts';
import { createThreadPool } from './threads.ts';
import type { PoolFactory } from './types.ts';

/**
 * Under a debugger (an inspector open: `node --inspect`, an IDE's auto-attach) trials run in the main
 * thread instead (inline.ts): a breakpoint pauses the whole process, timers included, where the main
 * side would take a paused thread for a blocked one and kill it at the trial's timeout.
 */
export const createSinglePool: PoolFactory = async (run, opts) => {
  if (inspector.url() !== undefined) return createInlinePool(run, opts);
  const threads = await createThreadPool(run, { ...opts, workers: 1, perWorker: 1 });
  return { concurrency: 1, run: (trial, o) => threads.run(trial, o), close: () => threads.close() };
};
