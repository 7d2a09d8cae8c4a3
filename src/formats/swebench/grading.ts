// Grading a test log by the official rules (swebench 5.0.2; docs/swebench.md#grading): the log's
// status map, each expected test's outcome, resolved or not. Pure functions of text.
import {
  BAD_CODES,
  END_TEST_OUTPUT,
  START_TEST_OUTPUT,
  TEST_EXIT_CODE,
  type EvalType,
  type StatusMap,
} from './constants.ts';
import type { Parser } from './parsers/index.ts';
import { S, countChar, universalNewlines } from './pystr.ts';

/**
 * Evidence that a runner ran, for a log no parser found a test in (every count non-zero). `^` and
 * `$` break at line feeds only, as Python's re.M.
 */
const SUITE_RAN = new RegExp(
  [
    'Executed [1-9]\\p{Nd}* of \\p{Nd}+',
    'TOTAL: [1-9]\\p{Nd}* (?:SUCCESS|FAILED)',
    '[1-9]\\p{Nd}* passing',
    `Tests:${S}+[1-9]\\p{Nd}*`,
    `Test Suites:${S}+(?:\\p{Nd}+ [\\p{L}\\p{N}_]+, )*[1-9]\\p{Nd}* total`,
    '(?:^|(?<=\\n))# tests [1-9]\\p{Nd}*',
    '[1-9]\\p{Nd}* specs?, \\p{Nd}+ failures?',
    "': ok(?=\\n|$)",
  ].join('|'),
  'u',
);

const EXIT_CODE = new RegExp(`${TEST_EXIT_CODE}:${S}*(-?[0-9]+)`, 'u');

/** The test command's own exit status, which the eval script prints after the end marker. */
function testExitCode(log: string): number | null {
  const m = EXIT_CODE.exec(log);
  return m ? Number(m[1]) : null;
}

interface LogsEval {
  statusMap: StatusMap;
  /** False: the log has no gradable run (a bad code, no markers, no sign the suite ran, a lying exit code). */
  found: boolean;
}

/** The status map of a log (as the official get_logs_eval reads a test_output.txt). */
export function logsEval(rawLog: string, parser: Parser, instance: { instance_id: string }): LogsEval {
  const log = universalNewlines(rawLog);
  const none: LogsEval = { statusMap: new Map(), found: false };
  if (BAD_CODES.some((code) => log.includes(code))) return none;
  if (!(log.includes(START_TEST_OUTPUT) && log.includes(END_TEST_OUTPUT))) return none;
  const sliced = (log.split(START_TEST_OUTPUT)[1] ?? '').split(END_TEST_OUTPUT)[0] ?? '';
  let statusMap = parser(sliced, instance);
  // Some runners print results outside the markers: the whole log is read then.
  if (statusMap.size === 0) statusMap = parser(log, instance);
  if (statusMap.size === 0 && !SUITE_RAN.test(log)) return none;
  // A non-zero exit with no failure in the log: the log does not describe the run (a patch may print "PASSED").
  const code = testExitCode(log);
  const anyFailure = [...statusMap.values()].some((s) => s === 'FAILED' || s === 'ERROR');
  if (code !== null && code !== 0 && statusMap.size > 0 && !anyFailure) return none;
  return { statusMap, found: true };
}

/**
 * The status-map key of an expected test: exact, or, for an id truncated inside its parameters
 * (more `[` than `]`), the first key it starts, when all such keys agree on pass or fail.
 */
export function resolveCase(test: string, map: StatusMap): string | null {
  if (map.has(test)) return test;
  if (countChar(test, '[') <= countChar(test, ']')) return null;
  const matches = [...map.keys()].filter((k) => k.startsWith(test));
  const outcomes = new Set(matches.map((k) => isPass(map.get(k))));
  return matches.length > 0 && outcomes.size === 1 ? (matches[0] ?? null) : null;
}

const isPass = (s: string | undefined): boolean => s === 'PASSED' || s === 'XFAIL';

function testPassed(test: string, map: StatusMap): boolean {
  const key = resolveCase(test, map);
  return key !== null && isPass(map.get(key));
}

/** PASS_TO_PASS: a skipped test is no regression. */
function testMaintained(test: string, map: StatusMap): boolean {
  const key = resolveCase(test, map);
  return testPassed(test, map) || (key !== null && map.get(key) === 'SKIPPED');
}

/** Missing, FAILED, ERROR, or SKIPPED (a skipped FAIL_TO_PASS test resolves nothing). */
function testFailed(test: string, map: StatusMap): boolean {
  const key = resolveCase(test, map);
  if (key === null) return true;
  const s = map.get(key);
  return s === 'FAILED' || s === 'ERROR' || s === 'SKIPPED';
}

export interface Outcome {
  success: string[];
  failure: string[];
}
export interface TestsStatus {
  FAIL_TO_PASS: Outcome;
  PASS_TO_PASS: Outcome;
  FAIL_TO_FAIL: Outcome;
  PASS_TO_FAIL: Outcome;
}

type Check = (test: string, map: StatusMap, out: Outcome) => void;

const passAndFail: Check = (test, map, out) => {
  if (testPassed(test, map)) out.success.push(test);
  else if (testFailed(test, map)) out.failure.push(test);
};
const maintained: Check = (test, map, out) => {
  if (testMaintained(test, map)) out.success.push(test);
  else if (testFailed(test, map)) out.failure.push(test);
};
/** Fail-only runners record failures only: anything not FAILED passes. */
const failOnly: Check = (test, map, out) => {
  (map.get(test) === 'FAILED' ? out.failure : out.success).push(test);
};

/** `tests_status` as the official report writes it (FAIL_TO_FAIL and PASS_TO_FAIL are always empty there). */
export function testsStatus(
  map: StatusMap,
  gold: { FAIL_TO_PASS: string[]; PASS_TO_PASS: string[] },
  evalType: EvalType,
): TestsStatus {
  const f2p = evalType === 'pass_and_fail' ? passAndFail : failOnly;
  const p2p = evalType === 'pass_and_fail' ? maintained : failOnly;
  const empty = (): Outcome => ({ success: [], failure: [] });
  const out: TestsStatus = {
    FAIL_TO_PASS: empty(),
    PASS_TO_PASS: empty(),
    FAIL_TO_FAIL: empty(),
    PASS_TO_FAIL: empty(),
  };
  for (const t of gold.FAIL_TO_PASS) f2p(t, map, out.FAIL_TO_PASS);
  for (const t of gold.PASS_TO_PASS) p2p(t, map, out.PASS_TO_PASS);
  return out;
}

type Resolution = 'RESOLVED_FULL' | 'RESOLVED_PARTIAL' | 'RESOLVED_NO';

const rate = (o: Outcome): number => {
  const total = o.success.length + o.failure.length;
  return total === 0 ? 1 : o.success.length / total;
};

export function resolution(status: TestsStatus): Resolution {
  const f2p = rate(status.FAIL_TO_PASS);
  const p2p = rate(status.PASS_TO_PASS);
  if (f2p === 1 && p2p === 1) return 'RESOLVED_FULL';
  if (f2p < 1 && f2p > 0 && p2p === 1) return 'RESOLVED_PARTIAL';
  return 'RESOLVED_NO';
}
