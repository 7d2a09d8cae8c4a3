// One run (docs/running.md), in four steps on one cleanup stack (cleanup.ts): prepare what all trials
// share (prepare.ts; the pool boots meanwhile, pool-boot.ts), open the run folder (open.ts), run the
// trials (run-trials.ts); then, with
// everything they acquired released, whatever failed, publish the report (run-report.ts).
import { withCleanup } from './cleanup.ts';
import { openRunFolder } from './open.ts';
import { checkpoint, type RunOptions, type RunOutcome } from './options.ts';
import { prepareRun } from './prepare.ts';
import { reportRun } from './run-report.ts';
import { runTrials } from './run-trials.ts';

export type { RunOptions, RunOutcome, RunStep } from './options.ts';
export { RUN_STEPS } from './options.ts';
export async function runBenchmark(opts: RunOptions): Promise<RunOutcome> {
  const ended = await withCleanup(async (cleanup) => {
    const prepared = await prepareRun(opts, cleanup, true);
    checkpoint(opts, 'prepared');
    const open = await openRunFolder(prepared, opts, cleanup);
    checkpoint(opts, 'opened');
    const trials = await runTrials(prepared, open, opts, cleanup);
    checkpoint(opts, 'trials');
    return { prepared, open, trials };
  }, opts.console.warn);
  return reportRun(ended, opts);
}
