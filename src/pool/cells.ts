// A job's cells in one pool (docs/running.md#jobs): every cell (benchmark × agent × model) has its own
// RunContext (run folder, agent, model); a trial names its cell by index, a plain run's trials none.
import type { RunContext, TrialInput } from '../trial/types.ts';

/** The context a trial runs in: its cell's, or the pool's one run's. */
export function contextOf(run: RunContext, cells: readonly RunContext[] | undefined, trial: TrialInput): RunContext {
  if (trial.cell === undefined) return run;
  const cell = cells?.[trial.cell];
  if (!cell) throw new Error(`internal: a trial of cell ${trial.cell}, which this pool does not have`);
  return cell;
}
