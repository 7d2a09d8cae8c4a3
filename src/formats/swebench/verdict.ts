// One instance graded from its test log (docs/swebench.md#grading): the official report entry and
// the verdict benchrig gives it — resolved passes; an empty patch, a patch that did not apply, tests
// that timed out or left no results, and unresolved instances fail, each saying why. Pure.
import { APPLY_PATCH_FAIL, TESTS_TIMEOUT } from './constants.ts';
import { instanceReport, type InstanceReport } from './report.ts';
import type { Parser } from './parsers/index.ts';
import type { SwebenchInstance } from './row.ts';

interface InstanceVerdict {
  passed: boolean;
  score: number;
  reason: string;
  /** The official report.json entry of the instance (tests_status as the official report writes it). */
  report: InstanceReport;
  /** What of the patch changes test configuration (test-config.ts), as `path: why`: benchrig's flag. */
  suspicious?: string[];
}

/**
 * The verdict of a patch that changes test configuration (`changes`, test-config.ts): flagged, the
 * official verdict kept; with `strict` ([swebench] strict), FAILED and not resolved, saying why.
 */
export function withTestConfig(v: InstanceVerdict, changes: string[], strict: boolean): InstanceVerdict {
  if (changes.length === 0) return v;
  if (!strict) return { ...v, suspicious: changes };
  const why = `test configuration changed ([swebench] strict): ${changes.join('; ')}`;
  return {
    passed: false,
    score: 0,
    reason: v.passed ? why : `${why}; and ${v.reason}`,
    report: { ...v.report, resolved: false },
    suspicious: changes,
  };
}

/** `patch`: the model patch ('' empty, null none); `log`: the apply output when it failed, else the eval output. */
export function instanceVerdict(
  instance: SwebenchInstance,
  parser: Parser,
  patch: string | null,
  log: string,
): InstanceVerdict {
  const spec = { ...instance, evalType: instance.eval_type, parser };
  if (patch === null || patch.trim() === '') {
    const report = instanceReport(spec, null, '')[instance.instance_id];
    // The official harness grades no empty patch; its report would say patch_is_None only for a null one.
    const entry = { ...report, patch_is_None: patch === null };
    return fail(entry, 'empty patch: the agent changed nothing under /testbed');
  }
  const report = instanceReport(spec, patch, log)[instance.instance_id];
  if (report.resolved) {
    const ok = report.tests_status;
    const n = (k: 'FAIL_TO_PASS' | 'PASS_TO_PASS') => ok?.[k].success.length ?? 0;
    return {
      passed: true,
      score: 1,
      reason: `resolved: ${n('FAIL_TO_PASS')} FAIL_TO_PASS test(s) pass, ${n('PASS_TO_PASS')} PASS_TO_PASS maintained`,
      report,
    };
  }
  if (log.includes(APPLY_PATCH_FAIL))
    return fail(report, 'the patch did not apply (git apply, git apply --3way, --reject and patch all failed)');
  if (log.includes(TESTS_TIMEOUT)) return fail(report, 'the tests timed out');
  if (!report.tests_status)
    return fail(
      report,
      `no gradable test results in the output (the tests crashed, errored or printed no results${report.infra_failure_reason ? `: ${report.infra_failure_reason}` : ''})`,
    );
  const f2p = report.tests_status.FAIL_TO_PASS.failure;
  const p2p = report.tests_status.PASS_TO_PASS.failure;
  const parts = [
    ...(f2p.length ? [`FAIL_TO_PASS failing: ${list(f2p)}`] : []),
    ...(p2p.length ? [`PASS_TO_PASS broken: ${list(p2p)}`] : []),
  ];
  return fail(report, `not resolved: ${parts.join('; ')}`);
}

const fail = (report: InstanceReport, reason: string): InstanceVerdict => ({ passed: false, score: 0, reason, report });

const list = (ids: string[]): string =>
  ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', ');
