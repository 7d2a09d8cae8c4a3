// A SWE-bench run's own files (docs/reports.md#files), beside evaluation_report.json:
// predictions.jsonl (SWE-bench's predictions format, model_name_or_path = the agent id, so the run
// can go to the official tooling) and swebench_report.json (the official run-level report), both
// rebuilt from the result files by `run`, `evaluate` and `review`, each written atomically. An
// instance is its first trial; the whole patch is read from trials/<task-id>/model.patch.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readResults } from '../report/aggregate.ts';
import type { EvaluationReport } from '../report/types.ts';
import { writeJsonAtomic, writeTextAtomic } from '../report/write.ts';
import { instanceOutcome, predictionLine, runReport, type InstanceOutcome } from '../swebench/index.ts';
import type { TrialResult } from '../types.ts';

export const PREDICTIONS_FILE = 'predictions.jsonl';
export const SWEBENCH_REPORT_FILE = 'swebench_report.json';

/** Whether the report is a SWE-bench run's (it has a `swebench` check). */
export const isSwebenchReport = (report: EvaluationReport): boolean => report.checks.some((c) => c.type === 'swebench');

export async function publishSwebench(runDir: string, report: EvaluationReport): Promise<void> {
  const ids = new Set<string>();
  const patches = new Map<string, string | null>();
  const outcomes = new Map<string, InstanceOutcome>();
  for await (const r of readResults(runDir)) {
    ids.add(r.sample_id);
    if (r.trial !== 1 || typeof r.model_patch !== 'string') continue;
    patches.set(r.sample_id, await wholePatch(runDir, r));
    outcomes.set(r.sample_id, outcomeOf(r));
  }
  const lines = [...patches].map(([id, patch]) =>
    predictionLine({ instance_id: id, model_name_or_path: report.agent.id, model_patch: patch }),
  );
  await writeTextAtomic(join(runDir, PREDICTIONS_FILE), lines.join(''));
  await writeJsonAtomic(join(runDir, SWEBENCH_REPORT_FILE), runReport([...ids], patches, outcomes));
}

async function wholePatch(runDir: string, r: TrialResult): Promise<string> {
  try {
    return await readFile(join(runDir, 'trials', r.task_id, 'model.patch'), 'utf8');
  } catch {
    return r.model_patch ?? '';
  }
}

/**
 * The instance's report as its swebench verdict holds it; none (an error instance) when there is no
 * verdict with a report, or the official harness would have written none (docs/swebench.md#reports).
 */
function outcomeOf(r: TrialResult): InstanceOutcome {
  const v = r.checks.find((c) => c.type === 'swebench');
  const details = v?.details;
  const saved = v ? (r.artifacts[`swebench:${v.name}`] as { test_output?: unknown } | undefined) : undefined;
  const logs = typeof saved?.test_output === 'string' ? saved.test_output : undefined;
  return instanceOutcome(typeof details?.resolved === 'boolean' ? details.resolved : undefined, logs);
}
