// The official reports as pure functions (swebench 5.0.2; docs/swebench.md#reports): one instance's
// `report.json` entry, and the run's `swebench_report.json`.
import { APPLY_PATCH_FAIL, TESTS_TIMEOUT, type EvalType } from './constants.ts';
import { logsEval, resolution, testsStatus, type TestsStatus } from './grading.ts';
import { classifyLog } from './infra.ts';
import type { Parser } from './parsers/index.ts';
import { compareCodePoints, pySorted, pyStrip, universalNewlines } from './pystr.ts';
import { isPlainObject } from '../../config/expand.ts';

export interface InstanceReport {
  patch_is_None: boolean;
  patch_exists: boolean;
  patch_successfully_applied: boolean;
  resolved: boolean;
  infra_failure: boolean;
  infra_failure_reason?: string;
  tests_status?: TestsStatus;
}

interface GradeInput {
  instance_id: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  evalType: EvalType;
  parser: Parser;
}

/** One instance's report, keyed by its id as the official report.json is; `modelPatch` null: no patch. */
export function instanceReport(
  spec: GradeInput,
  modelPatch: string | null,
  testOutput: string,
): Record<string, InstanceReport> {
  const r: InstanceReport = {
    patch_is_None: false,
    patch_exists: false,
    patch_successfully_applied: false,
    resolved: false,
    infra_failure: false,
  };
  const out = { [spec.instance_id]: r };
  if (modelPatch === null) {
    r.patch_is_None = true;
    return out;
  }
  r.patch_exists = true;
  const { statusMap, found } = logsEval(testOutput, spec.parser, spec);
  if (!found) {
    const why = classifyLog(universalNewlines(testOutput));
    if (why) {
      r.infra_failure = why.tier === 'environment';
      r.infra_failure_reason = why.reason;
    }
    return out;
  }
  r.patch_successfully_applied = true;
  const status = testsStatus(statusMap, spec, spec.evalType);
  r.resolved = resolution(status) === 'RESOLVED_FULL';
  r.tests_status = status;
  return out;
}

/**
 * Whether the official harness would have stopped before writing the instance's report.json: the
 * patch did not apply, or the tests ran past the timeout (then the instance is an error, neither
 * completed nor unresolved). Read from the log the check saved.
 */
export function evaluationError(log: string): 'patch_apply_failed' | 'tests_timed_out' | null {
  if (log.includes(APPLY_PATCH_FAIL)) return 'patch_apply_failed';
  if (log.includes(TESTS_TIMEOUT)) return 'tests_timed_out';
  return null;
}

/** A graded instance as the run report reads it: `resolved` from its verdict (undefined: none), `log` the one saved. */
export function instanceOutcome(resolved: boolean | undefined, log: string | undefined): InstanceOutcome {
  const logs = log ? { logs: log } : {};
  if (resolved === undefined || (log !== undefined && evaluationError(log))) return logs;
  return { report: { resolved }, ...logs };
}

/** What a run knows of one instance it graded: its report (absent: it did not complete), and its logs. */
export interface InstanceOutcome {
  report?: Pick<InstanceReport, 'resolved'> | 'invalid';
  /** test_output.txt and the instance's own log, read for the advisory failure reason. */
  logs?: string;
}

interface RunReport {
  total_instances: number;
  submitted_instances: number;
  completed_instances: number;
  resolved_instances: number;
  unresolved_instances: number;
  infra_failure_instances: number;
  ambiguous_failure_instances: number;
  empty_patch_instances: number;
  error_instances: number;
  completed_ids: string[];
  incomplete_ids: string[];
  empty_patch_ids: string[];
  submitted_ids: string[];
  resolved_ids: string[];
  unresolved_ids: string[];
  infra_failure_ids: string[];
  ambiguous_failure_ids: string[];
  failure_reasons: Record<string, string>;
  error_ids: string[];
  schema_version: 2;
}

/**
 * `swebench_report.json` (the official make_run_report's fields): `datasetIds` every instance of the
 * dataset, `predictions` each submitted instance's model patch (null: none), `outcomes` by id.
 */
export function runReport(
  datasetIds: string[],
  predictions: ReadonlyMap<string, string | null>,
  outcomes: ReadonlyMap<string, InstanceOutcome>,
): RunReport {
  const ids = { completed: new Set<string>(), resolved: new Set<string>(), unresolved: new Set<string>() };
  const error = new Set<string>();
  const incomplete = new Set<string>();
  const empty = new Set<string>();
  for (const id of datasetIds) {
    if (!predictions.has(id)) incomplete.add(id);
    else if (!predictions.get(id)) empty.add(id);
    else {
      const report = outcomes.get(id)?.report;
      if (report === undefined) error.add(id);
      else {
        ids.completed.add(id);
        if (report === 'invalid') error.add(id);
        else (report.resolved ? ids.resolved : ids.unresolved).add(id);
      }
    }
  }
  const { infra, ambiguous, reasons } = failureReasons([...ids.unresolved, ...error], outcomes);
  return {
    total_instances: datasetIds.length,
    submitted_instances: predictions.size,
    completed_instances: ids.completed.size,
    resolved_instances: ids.resolved.size,
    unresolved_instances: ids.unresolved.size,
    infra_failure_instances: infra.size,
    ambiguous_failure_instances: ambiguous.size,
    empty_patch_instances: empty.size,
    error_instances: error.size,
    completed_ids: pySorted(ids.completed),
    incomplete_ids: pySorted(incomplete),
    empty_patch_ids: pySorted(empty),
    submitted_ids: pySorted(predictions.keys()),
    resolved_ids: pySorted(ids.resolved),
    unresolved_ids: pySorted(ids.unresolved),
    infra_failure_ids: pySorted(infra),
    ambiguous_failure_ids: pySorted(ambiguous),
    failure_reasons: Object.fromEntries([...reasons].sort(([a], [b]) => compareCodePoints(a, b))),
    error_ids: pySorted(error),
    schema_version: 2,
  };
}

/**
 * benchrig's one field beyond the official `swebench_report.json`: the instances whose model patch
 * changes test configuration (docs/swebench.md#test-configuration), sorted as the official lists are.
 */
export function withSuspicious(report: RunReport, ids: Iterable<string>): RunReport & { suspicious_ids: string[] } {
  return { ...report, suspicious_ids: pySorted(ids) };
}

/** A `report.json` as the run report reads it back: empty, not JSON or without the instance is 'invalid'. */
export function readInstanceReport(text: string, instanceId: string): Pick<InstanceReport, 'resolved'> | 'invalid' {
  if (!pyStrip(text)) return 'invalid';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return 'invalid';
  }
  const entry = isPlainObject(parsed) ? parsed[instanceId] : undefined;
  if (!isPlainObject(entry) || !('resolved' in entry)) return 'invalid';
  return { resolved: Boolean(entry.resolved) };
}

function failureReasons(ids: string[], outcomes: ReadonlyMap<string, InstanceOutcome>) {
  const infra = new Set<string>();
  const ambiguous = new Set<string>();
  const reasons = new Map<string, string>();
  for (const id of ids) {
    const why = classifyLog(outcomes.get(id)?.logs ?? '');
    if (!why) continue;
    reasons.set(id, why.reason);
    (why.tier === 'environment' ? infra : ambiguous).add(id);
  }
  return { infra, ambiguous, reasons };
}
