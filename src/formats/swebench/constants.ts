// SWE-bench's fixed strings and sets (docs/swebench.md), as the official harness (swebench 5.0.2) writes them.

export const TEST_STATUSES = ['FAILED', 'PASSED', 'SKIPPED', 'ERROR', 'XFAIL'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];
/** A parsed log: test id → status, in the order the log first named each test. */
export type StatusMap = Map<string, TestStatus>;

export const START_TEST_OUTPUT = '>>>>> Start Test Output';
export const END_TEST_OUTPUT = '>>>>> End Test Output';
export const TEST_EXIT_CODE = '>>>>> Test Exit Code';
export const TEST_EXIT_CODE_VAR = 'SWEBENCH_TEST_EXIT_CODE';
export const APPLY_PATCH_FAIL = '>>>>> Patch Apply Failed';
export const APPLY_PATCH_PASS = '>>>>> Applied Patch';
const RESET_FAILED = '>>>>> Reset Failed';
const TESTS_ERROR = '>>>>> Tests Errored';
export const TESTS_TIMEOUT = '>>>>> Tests Timed Out';
/** What the official harness appends to a test log cut at its timeout (then it writes no report.json). */
export const timeoutLine = (seconds: number): string => `Timeout error: ${seconds} seconds exceeded.`;

/** Any of these in a log: the run is not graded (no status map, patch not applied). */
export const BAD_CODES = [APPLY_PATCH_FAIL, RESET_FAILED, TESTS_ERROR, TESTS_TIMEOUT] as const;

/** Where the patch goes in the grading container, and the repository's folder there. */
export const CONTAINER_PATCH_FILE = '/tmp/patch.diff';
export const TESTBED = '/testbed';

/** The here-document delimiter of the official eval scripts. */
export const HEREDOC_DELIMITER = 'EOF_114329324912';

/** Files of a test patch that are no test directives (the official list, `csv` without its dot as there). */
export const NON_TEST_EXTS = ['.json', '.png', 'csv', '.txt', '.md', '.jpg', '.jpeg', '.pkl', '.yml', '.yaml', '.toml'];

/** Repositories graded fail-only when a row names no eval_type. */
export const FAIL_ONLY_REPOS = new Set([
  'chartjs/Chart.js',
  'processing/p5.js',
  'markedjs/marked',
  'bpmn-io/bpmn-js',
  'openlayers/openlayers',
  'eslint/eslint',
]);

export type EvalType = 'pass_and_fail' | 'fail_only';
