// One instance's verdict from its log (docs/swebench.md#grading): what a user reads as the reason, and
// the official report entry under it.
import { describe, expect, it } from 'vitest';
import { instanceVerdict, withTestConfig } from '../../../../src/formats/swebench/verdict.ts';
import { parserFor, type SwebenchInstance } from '../../../../src/formats/swebench/index.ts';

const instance: SwebenchInstance = {
  instance_id: 'calc__calc-1',
  repo: 'benchrig/calc',
  base_commit: 'abc',
  patch: '',
  test_patch: '',
  FAIL_TO_PASS: ['t.py::test_mul'],
  PASS_TO_PASS: ['t.py::test_add'],
  log_parser: 'parse_log_pytest',
  eval_type: 'pass_and_fail',
};
const parser = (() => {
  const p = parserFor(instance);
  if (typeof p === 'string') throw new Error(p);
  return p;
})();
const log = (...lines: string[]) =>
  ['+ git apply', '>>>>> Start Test Output', ...lines, '>>>>> End Test Output', '>>>>> Test Exit Code: 1'].join('\n');
const verdict = (patch: string | null, text: string) => instanceVerdict(instance, parser, patch, text);

describe('instanceVerdict', () => {
  it('resolved: passes with score 1 and the official tests_status', () => {
    const v = verdict('diff', log('PASSED t.py::test_mul', 'PASSED t.py::test_add').replace('Code: 1', 'Code: 0'));
    expect(v).toMatchObject({ passed: true, score: 1, report: { resolved: true, patch_successfully_applied: true } });
    expect(v.report.tests_status?.FAIL_TO_PASS).toEqual({ success: ['t.py::test_mul'], failure: [] });
  });

  it('a broken PASS_TO_PASS test fails, naming it, and is in tests_status.PASS_TO_PASS.failure', () => {
    const v = verdict('diff', log('PASSED t.py::test_mul', 'FAILED t.py::test_add - assert'));
    expect(v.passed).toBe(false);
    expect(v.reason).toBe('not resolved: PASS_TO_PASS broken: t.py::test_add');
    expect(v.report.tests_status?.PASS_TO_PASS.failure).toEqual(['t.py::test_add']);
  });

  it('an empty patch and no patch fail without running anything; only no patch is patch_is_None', () => {
    expect(verdict('', '')).toMatchObject({ passed: false, reason: expect.stringMatching(/^empty patch/) });
    expect(verdict('  \n', '').report).toMatchObject({ patch_is_None: false, patch_exists: false });
    expect(verdict(null, '').report).toMatchObject({ patch_is_None: true, patch_exists: false });
  });

  it('a patch that did not apply, tests that timed out, and a log without results each say so', () => {
    expect(verdict('diff', 'error: patch failed\n>>>>> Patch Apply Failed\n').reason).toMatch(/did not apply/);
    expect(verdict('diff', `${log('PASSED t.py::test_mul')}\n>>>>> Tests Timed Out after 5 seconds`).reason).toBe(
      'the tests timed out',
    );
    const crashed = verdict('diff', log('Traceback (most recent call last):', 'ImportError: no module'));
    expect(crashed).toMatchObject({ passed: false, report: { patch_successfully_applied: false } });
    expect(crashed.reason).toMatch(/no gradable test results/);
  });

  it('a patch that changes test configuration: flagged with the official verdict kept; FAILED and not resolved when strict', () => {
    const resolved = verdict(
      'diff',
      log('PASSED t.py::test_mul', 'PASSED t.py::test_add').replace('Code: 1', 'Code: 0'),
    );
    const changes = ['conftest.py: a conftest.py: …'];
    expect(withTestConfig(resolved, [], true)).toBe(resolved);
    expect(withTestConfig(resolved, changes, false)).toEqual({ ...resolved, suspicious: changes });
    const strict = withTestConfig(resolved, changes, true);
    expect(strict).toMatchObject({ passed: false, score: 0, suspicious: changes, report: { resolved: false } });
    expect(strict.reason).toBe('test configuration changed ([swebench] strict): conftest.py: a conftest.py: …');
    expect(strict.report.tests_status).toEqual(resolved.report.tests_status);
    // Not resolved anyway: both reasons.
    const broken = verdict('diff', log('PASSED t.py::test_mul', 'FAILED t.py::test_add - assert'));
    expect(withTestConfig(broken, changes, true).reason).toMatch(
      /strict\): conftest\.py: .*; and not resolved: PASS_TO_PASS broken/,
    );
  });
});
