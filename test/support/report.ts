// A report built as a run's end builds it (src/report/aggregate.ts buildReport) from `results`,
// around a run a test names only where it reads it: the report tests' common setup.
import { buildReport, type BuildReportOptions } from '../../src/report/aggregate.ts';
import type { EvaluationReport } from '../../src/report/types.ts';

export interface ReportParts extends Partial<Pick<BuildReportOptions, 'gate' | 'blocksAreSuccess' | 'baseline'>> {
  benchmark?: Partial<BuildReportOptions['benchmark']>;
  /** The agent's id and name. */
  agent?: string;
  run?: Partial<BuildReportOptions['run']>;
}

/** A run of one single-mode worker, `complete`, of benchmark `bench` v1 by `agent`, unless `parts` says otherwise. */
export function reportOf(results: BuildReportOptions['results'], parts: ReportParts = {}): Promise<EvaluationReport> {
  const { benchmark, agent = 'agent', run, ...rest } = parts;
  return buildReport({
    benchmark: { name: 'bench', version: 'v1', n_samples: Array.isArray(results) ? results.length : 0, ...benchmark },
    agent: { id: agent, name: agent },
    run: {
      id: 'r',
      dir: '/r',
      mode: 'single',
      workers: 1,
      trials: 1,
      status: 'complete',
      started_at: '',
      finished_at: '',
      ...run,
    },
    blocksAreSuccess: false,
    results,
    ...rest,
  });
}
