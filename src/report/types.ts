// The shape of `evaluation_report.json` (docs/reports.md#files) and of the metrics inside it
// (docs/reports.md#metrics): inferred from the zod schema the files are checked with (schema.ts).
import type { z } from 'zod';
import type { Known, reportFileSchema } from './schema.ts';

export type EvaluationReport = Known<z.infer<typeof reportFileSchema>>;
export type Metrics = EvaluationReport['metrics'];
export type TimeStats = Metrics['execution_time_s'];
export type CheckStats = EvaluationReport['checks'][number];
export type TaskStats = EvaluationReport['tasks'][number];
export type GateResult = NonNullable<EvaluationReport['gate']>;
export type TopEntry = EvaluationReport['top_failures'][number];

/** What the report side reads of a run's run.json, which a run still going may hold half of. */
export interface RunJsonSeen {
  started_at?: string;
  status?: string;
  agent?: { id?: string };
  benchmark?: { name?: string; version?: string };
}
