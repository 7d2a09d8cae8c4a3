// The shapes of `evaluation_report.json` (docs/reports.md#files), of the metrics inside it
// (docs/reports.md#metrics) and of `run.json`: inferred from the zod schemas the files are checked with (schema.ts).
import type { z } from 'zod';
import type { Known } from '../result-schema.ts';
import type { reportFileSchema, runFileSchema } from './schema.ts';

export type EvaluationReport = Known<z.infer<typeof reportFileSchema>>;
export type Metrics = EvaluationReport['metrics'];
export type TimeStats = Metrics['execution_time_s'];
export type CheckStats = EvaluationReport['checks'][number];
export type TaskStats = EvaluationReport['tasks'][number];
export type GateResult = NonNullable<EvaluationReport['gate']>;
export type TopEntry = EvaluationReport['top_failures'][number];

/** `run.json` (docs/reports.md#files): what was run. */
export type RunJson = Known<z.infer<typeof runFileSchema>>;

/** What the report side reads of a run's run.json, which a run still going may hold half of. */
export type RunJsonSeen = Partial<Pick<RunJson, 'started_at' | 'status' | 'run_id' | 'label' | 'note'>> & {
  agent?: Partial<Pick<RunJson['agent'], 'id' | 'name' | 'module' | 'sha256'>>;
  benchmark?: Partial<Pick<RunJson['benchmark'], 'name' | 'version' | 'id' | 'dir'>>;
};
