// The official per-instance and run-level report shapes.
import { describe, expect, it } from 'vitest';
import { PARSERS } from '../../../../src/formats/swebench/parsers/index.ts';
import {
  instanceOutcome,
  instanceReport,
  readInstanceReport,
  runReport,
} from '../../../../src/formats/swebench/report.ts';
import { fixtureText } from './helpers.ts';

const T = 'tests/test_core.py::';
const spec = {
  instance_id: 'o__r-1',
  FAIL_TO_PASS: [T + 'test_add', T + 'test_known_bug'],
  PASS_TO_PASS: [T + 'test_sub', T + 'test_sum'],
  evalType: 'pass_and_fail' as const,
  parser: PARSERS.parse_log_pytest ?? (() => new Map()),
};

describe('report.json of an instance', () => {
  it('has the official fields and tests_status with all four lists', () => {
    expect(instanceReport(spec, 'diff', fixtureText('logs/pytest-rA.txt'))).toEqual({
      'o__r-1': {
        patch_is_None: false,
        patch_exists: true,
        patch_successfully_applied: true,
        resolved: false,
        infra_failure: false,
        tests_status: {
          FAIL_TO_PASS: { success: [T + 'test_add', T + 'test_known_bug'], failure: [] },
          PASS_TO_PASS: { success: [T + 'test_sub'], failure: [T + 'test_sum'] },
          FAIL_TO_FAIL: { success: [], failure: [] },
          PASS_TO_FAIL: { success: [], failure: [] },
        },
      },
    });
  });

  it('no patch: patch_is_None and nothing else; an ungradable log: not applied, with the advisory reason', () => {
    expect(instanceReport(spec, null, '')['o__r-1']).toEqual({
      patch_is_None: true,
      patch_exists: false,
      patch_successfully_applied: false,
      resolved: false,
      infra_failure: false,
    });
    expect(instanceReport(spec, 'diff', fixtureText('logs/oom.txt'))['o__r-1']).toEqual({
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: false,
      resolved: false,
      infra_failure: true,
      infra_failure_reason: 'out_of_memory',
    });
  });
});

describe('swebench_report.json', () => {
  it('counts and lists every outcome as the official run report does', () => {
    const preds = new Map<string, string | null>([
      ['b', 'p'],
      ['a', 'p'],
      ['c', 'p'],
      ['d', ''],
      ['e', null],
      ['f', 'p'],
      ['extra', 'p'],
    ]);
    const outcomes = new Map([
      ['a', { report: readInstanceReport('{"a": {"resolved": true}}', 'a') }],
      ['b', { report: readInstanceReport('{"b": {"resolved": false}}', 'b'), logs: 'collected 0 items' }],
      ['c', { report: readInstanceReport('', 'c') }],
      ['f', { logs: 'Cannot connect to the Docker daemon' }],
    ]);
    expect(runReport(['a', 'b', 'c', 'd', 'e', 'f', 'g'], preds, outcomes)).toEqual({
      total_instances: 7,
      submitted_instances: 7,
      completed_instances: 3,
      resolved_instances: 1,
      unresolved_instances: 1,
      infra_failure_instances: 1,
      ambiguous_failure_instances: 1,
      empty_patch_instances: 2,
      error_instances: 2,
      completed_ids: ['a', 'b', 'c'],
      incomplete_ids: ['g'],
      empty_patch_ids: ['d', 'e'],
      submitted_ids: ['a', 'b', 'c', 'd', 'e', 'extra', 'f'],
      resolved_ids: ['a'],
      unresolved_ids: ['b'],
      infra_failure_ids: ['f'],
      ambiguous_failure_ids: ['b'],
      failure_reasons: { b: 'no_tests_collected', f: 'container_unavailable' },
      error_ids: ['c', 'f'],
      schema_version: 2,
    });
  });

  it('reads a report.json back: empty, not JSON, or without the instance is an error', () => {
    expect(readInstanceReport('  \n', 'a')).toBe('invalid');
    expect(readInstanceReport('{', 'a')).toBe('invalid');
    expect(readInstanceReport('{"b": {"resolved": true}}', 'a')).toBe('invalid');
    expect(readInstanceReport('{"a": {"resolved": true}}', 'a')).toEqual({ resolved: true });
  });
});

describe('an instance as the run report reads it', () => {
  it('a patch that did not apply or tests that timed out are errors (no report), as the official run leaves them', () => {
    expect(instanceOutcome(false, 'error: patch failed\n>>>>> Patch Apply Failed\n')).toEqual({
      logs: 'error: patch failed\n>>>>> Patch Apply Failed\n',
    });
    expect(
      instanceOutcome(false, 'PASSED a\n\nTimeout error: 5 seconds exceeded.\n>>>>> Tests Timed Out\n').report,
    ).toBe(undefined);
    expect(instanceOutcome(true, '>>>>> Start Test Output\nPASSED a\n>>>>> End Test Output\n').report).toEqual({
      resolved: true,
    });
    expect(instanceOutcome(undefined, undefined)).toEqual({});
  });
});
