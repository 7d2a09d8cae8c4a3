// The official grading rules, with verdicts worked out by hand.
import { describe, expect, it } from 'vitest';
import type { StatusMap } from '../../../../src/formats/swebench/constants.ts';
import { logsEval, resolution, resolveCase, testsStatus } from '../../../../src/formats/swebench/grading.ts';
import { PARSERS } from '../../../../src/formats/swebench/parsers/index.ts';
import { fixtureText, statusOf } from './helpers.ts';

const pytest = PARSERS.parse_log_pytest ?? (() => new Map());
const map = (o: Record<string, string>) => new Map(Object.entries(o)) as StatusMap;
const I = { instance_id: 'o__r-1' };
const S = '>>>>> Start Test Output';
const E = '>>>>> End Test Output';

describe('reading a log', () => {
  it('reads between the markers only', () => {
    const log = `PASSED before\n${S}\nPASSED a\nFAILED b - x\n${E}\nPASSED after\n`;
    expect(statusOf(logsEval(log, pytest, I).statusMap)).toEqual({ a: 'PASSED', b: 'FAILED' });
  });

  it('reads the whole log when nothing parses between the markers', () => {
    expect(statusOf(logsEval(fixtureText('logs/pytest-outside-markers.txt'), pytest, I).statusMap)).toEqual({
      'tests/test_core.py::test_add': 'PASSED',
      'tests/test_core.py::test_sub': 'PASSED',
    });
  });

  it('is not gradable: no markers, no end marker (truncated), a timeout or error code, a suite that never ran', () => {
    for (const log of ['pytest-no-markers.txt', 'pytest-truncated.txt', 'pytest-timeout.txt'])
      expect([log, logsEval(fixtureText(`logs/${log}`), pytest, I).found]).toEqual([log, false]);
    // karma's "Executed 0 of 0" is no evidence that anything ran.
    expect(logsEval(fixtureText('logs/nothing-ran.txt'), PARSERS.parse_log_karma ?? pytest, I).found).toBe(false);
    expect(logsEval(`${S}\n>>>>> Patch Apply Failed\nPASSED a\n${E}\n`, pytest, I).found).toBe(false);
  });

  it('is not gradable when the test command exited non-zero but the log shows no failure (a patch printing PASSED)', () => {
    const lying = fixtureText('logs/pytest-exit-no-failure.txt');
    expect(logsEval(lying, pytest, I)).toEqual({ statusMap: new Map(), found: false });
    // The same log with exit 0, or with a failure in it, is graded.
    expect(logsEval(lying.replaceAll('139', '0'), pytest, I).found).toBe(true);
    expect(
      logsEval(lying.replace('PASSED tests/test_core.py::test_sub', 'FAILED tests/test_core.py::test_sub'), pytest, I)
        .found,
    ).toBe(true);
  });

  it('reads \\r\\n logs as Python opens them', () => {
    expect(statusOf(logsEval(fixtureText('logs/pytest-crlf.txt'), pytest, I).statusMap)).toEqual({
      'tests/test_core.py::test_add': 'PASSED',
      'tests/test_core.py::test_sum': 'FAILED',
    });
  });

  it('an empty status map counts only with evidence the suite ran (fail-only runners)', () => {
    const log = fixtureText('logs/fail-only-empty.txt');
    expect(logsEval(log, PARSERS.parse_log_marked ?? pytest, I)).toEqual({ statusMap: new Map(), found: true });
    expect(logsEval(log.replace('12 passing', '0 passing'), PARSERS.parse_log_marked ?? pytest, I).found).toBe(false);
  });
});

describe('grading', () => {
  const sm = map({ a: 'PASSED', x: 'XFAIL', s: 'SKIPPED', f: 'FAILED', e: 'ERROR' });

  it('PASSED and XFAIL pass; FAILED, ERROR, SKIPPED and missing tests fail FAIL_TO_PASS', () => {
    const st = testsStatus(sm, { FAIL_TO_PASS: ['a', 'x', 's', 'f', 'e', 'gone'], PASS_TO_PASS: [] }, 'pass_and_fail');
    expect(st.FAIL_TO_PASS).toEqual({ success: ['a', 'x'], failure: ['s', 'f', 'e', 'gone'] });
    expect(st.FAIL_TO_FAIL).toEqual({ success: [], failure: [] });
    expect(st.PASS_TO_FAIL).toEqual({ success: [], failure: [] });
  });

  it('a skipped PASS_TO_PASS test is maintained; a missing one is not', () => {
    const st = testsStatus(sm, { FAIL_TO_PASS: ['a'], PASS_TO_PASS: ['s', 'x', 'gone', 'e'] }, 'pass_and_fail');
    expect(st.PASS_TO_PASS).toEqual({ success: ['s', 'x'], failure: ['gone', 'e'] });
    expect(resolution(st)).toBe('RESOLVED_NO');
  });

  it('resolved: every FAIL_TO_PASS passes and every PASS_TO_PASS is kept; partial when some F2P pass', () => {
    expect(resolution(testsStatus(sm, { FAIL_TO_PASS: ['a', 'x'], PASS_TO_PASS: ['s'] }, 'pass_and_fail'))).toBe(
      'RESOLVED_FULL',
    );
    expect(resolution(testsStatus(sm, { FAIL_TO_PASS: ['a', 'f'], PASS_TO_PASS: ['a'] }, 'pass_and_fail'))).toBe(
      'RESOLVED_PARTIAL',
    );
    expect(resolution(testsStatus(sm, { FAIL_TO_PASS: [], PASS_TO_PASS: [] }, 'pass_and_fail'))).toBe('RESOLVED_FULL');
  });

  it('fail-only: only an exact FAILED fails, anything else (missing, ERROR) passes', () => {
    const st = testsStatus(sm, { FAIL_TO_PASS: ['f', 'e', 'gone'], PASS_TO_PASS: ['s'] }, 'fail_only');
    expect(st.FAIL_TO_PASS).toEqual({ success: ['e', 'gone'], failure: ['f'] });
    expect(st.PASS_TO_PASS).toEqual({ success: ['s'], failure: [] });
  });

  it('a parametrised id truncated inside its brackets matches its keys when they agree on pass or fail', () => {
    const keys = map({
      't[log(photon /m)]': 'PASSED',
      't[log(photon /cm)]': 'XFAIL',
      'u[a b]': 'PASSED',
      'u[a c]': 'FAILED',
    });
    expect(resolveCase('t[log(photon', keys)).toBe('t[log(photon /m)]');
    expect(resolveCase('u[a', keys)).toBeNull(); // they disagree
    expect(resolveCase('t[log(photon /m)', keys)).toBe('t[log(photon /m)]');
    expect(resolveCase('t', keys)).toBeNull(); // no more [ than ]: exact only
  });
});
