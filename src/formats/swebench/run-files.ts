// A SWE-bench run's own files (docs/swebench.md#reports), beside evaluation_report.json:
// predictions.jsonl (SWE-bench's predictions format, model_name_or_path = the agent id, so the run
// can go to the official tooling) and swebench_report.json (the official run-level report, and
// benchrig's suspicious_ids: docs/swebench.md#test-configuration), both
// rebuilt from the result files by `run`, `evaluate` and `review`, each written atomically. They are
// the first trial of each instance, a run as the official harness makes it; with several trials,
// swebench/trial-<k>/ holds the same two files for each trial index k (the resolved rate over every
// trial is evaluation_report.json's pass_rate). The whole patch is read from trials/<task-id>/model.patch.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readResults } from '../../report/aggregate.ts';
import type { EvaluationReport } from '../../report/types.ts';
import { writeJsonAtomic, writeTextAtomic } from '../../report/write.ts';
import { instanceOutcome, predictionLine, runReport, withSuspicious, type InstanceOutcome } from './index.ts';
import type { TrialResult } from '../../types.ts';

const PREDICTIONS_FILE = 'predictions.jsonl';
const SWEBENCH_REPORT_FILE = 'swebench_report.json';
/** Where each trial index's files go when the run has several trials. */
const trialFolder = (k: number): string => join('swebench', `trial-${k}`);

/** One trial index's predictions and outcomes, by instance, and the instances whose patch changes test configuration. */
interface Attempt {
  patches: Map<string, string | null>;
  outcomes: Map<string, InstanceOutcome>;
  suspicious: Set<string>;
}

const newAttempt = (): Attempt => ({ patches: new Map(), outcomes: new Map(), suspicious: new Set() });

export async function publishSwebench(runDir: string, report: EvaluationReport): Promise<void> {
  const ids = new Set<string>();
  const attempts = new Map<number, Attempt>();
  for (const r of readResults(runDir)) {
    ids.add(r.sample_id);
    if (typeof r.model_patch !== 'string') continue;
    let a = attempts.get(r.trial);
    if (!a) attempts.set(r.trial, (a = newAttempt()));
    a.patches.set(r.sample_id, await wholePatch(runDir, r));
    a.outcomes.set(r.sample_id, outcomeOf(r));
    if (isSuspicious(r)) a.suspicious.add(r.sample_id);
  }
  const empty = newAttempt();
  const write = (dir: string, a: Attempt) => writeAttempt(dir, [...ids], report.agent.id, a);
  await write(runDir, attempts.get(1) ?? empty);
  const most = Math.max(1, ...attempts.keys());
  if (most === 1) return;
  for (let k = 1; k <= most; k++) await write(join(runDir, trialFolder(k)), attempts.get(k) ?? empty);
}

async function writeAttempt(dir: string, ids: string[], agentId: string, a: Attempt): Promise<void> {
  await mkdir(dir, { recursive: true });
  const lines = [...a.patches].map(([id, patch]) =>
    predictionLine({ instance_id: id, model_name_or_path: agentId, model_patch: patch }),
  );
  await writeTextAtomic(join(dir, PREDICTIONS_FILE), lines.join(''));
  const report = withSuspicious(runReport(ids, a.patches, a.outcomes), a.suspicious);
  await writeJsonAtomic(join(dir, SWEBENCH_REPORT_FILE), report);
}

async function wholePatch(runDir: string, r: TrialResult): Promise<string> {
  try {
    return await readFile(join(runDir, 'trials', r.task_id, 'model.patch'), 'utf8');
  } catch {
    return r.model_patch ?? '';
  }
}

/** Whether its swebench verdict flags the patch as changing test configuration (details.suspicious). */
function isSuspicious(r: TrialResult): boolean {
  const flagged = r.checks.find((c) => c.type === 'swebench')?.details?.suspicious;
  return Array.isArray(flagged) && flagged.length > 0;
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
