// A SWE-bench row (docs/swebench.md#the-format) and what grading needs of it, checked at load so a
// bad row is refused naming its file:line, never half-run.
import { FAIL_ONLY_REPOS, type EvalType } from './constants.ts';
import { evalScript } from './eval-script.ts';
import { parserFor } from './parsers/index.ts';

/** The columns of SWE-bench (Full, Lite, Verified, Multimodal…), with swebench 5.0's additions. */
interface SwebenchRow {
  instance_id: string;
  repo: string;
  base_commit: string;
  patch: string;
  test_patch: string;
  problem_statement: string;
  hints_text?: string;
  created_at?: string;
  version?: string;
  FAIL_TO_PASS: string | string[];
  PASS_TO_PASS: string | string[];
  environment_setup_commit?: string;
  image?: string;
  eval_script?: string;
  log_parser?: string;
  eval_type?: string;
}

/** What grading an instance needs: ground truth, kept from the agent (the sample's `expected`). */
export interface SwebenchInstance {
  instance_id: string;
  repo: string;
  version?: string;
  base_commit: string;
  patch: string;
  test_patch: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  eval_script?: string;
  log_parser?: string;
  eval_type: EvalType;
  /** `[swebench] test_command`, kept with the instance so that the benchmark version hashes it. */
  test_command?: string;
  /** `[swebench] strict` (docs/swebench.md#test-configuration), kept with the instance as test_command is. */
  strict?: boolean;
}

const REQUIRED = ['instance_id', 'repo', 'base_commit', 'patch', 'test_patch', 'problem_statement'] as const;
const OPTIONAL = [
  'hints_text',
  'created_at',
  'version',
  'environment_setup_commit',
  'image',
  'eval_script',
  'log_parser',
  'eval_type',
] as const;

/** A row's instance, or the problem to report (without the row's location, which the caller adds). */
export function readRow(
  row: Record<string, unknown>,
  testCommand?: string,
): { row: SwebenchRow; instance: SwebenchInstance } | string {
  const out: Record<string, unknown> = {};
  for (const key of REQUIRED) {
    const v = row[key];
    if (typeof v !== 'string')
      return `column ${key} ${v === undefined || v === null ? 'is missing' : 'must be a string'}`;
    out[key] = v;
  }
  for (const key of OPTIONAL) {
    const v = key === 'version' && typeof row[key] === 'number' ? String(row[key]) : row[key];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string') return `column ${key} must be a string`;
    out[key] = v;
  }
  const tests: Record<string, string[]> = {};
  for (const key of ['FAIL_TO_PASS', 'PASS_TO_PASS'] as const) {
    const list = testList(row[key]);
    if (typeof list === 'string') return `column ${key} ${list}`;
    tests[key] = list;
  }
  const r = { ...out, FAIL_TO_PASS: tests.FAIL_TO_PASS ?? [], PASS_TO_PASS: tests.PASS_TO_PASS ?? [] } as SwebenchRow;
  const evalType = r.eval_type ?? (FAIL_ONLY_REPOS.has(r.repo) ? 'fail_only' : 'pass_and_fail');
  if (evalType !== 'pass_and_fail' && evalType !== 'fail_only')
    return `column eval_type must be "pass_and_fail" or "fail_only"`;
  const instance: SwebenchInstance = {
    instance_id: r.instance_id,
    repo: r.repo,
    version: r.version,
    base_commit: r.base_commit,
    patch: r.patch,
    test_patch: r.test_patch,
    FAIL_TO_PASS: tests.FAIL_TO_PASS ?? [],
    PASS_TO_PASS: tests.PASS_TO_PASS ?? [],
    eval_script: r.eval_script,
    log_parser: r.log_parser,
    eval_type: evalType,
    ...(testCommand !== undefined ? { test_command: testCommand } : {}),
  };
  const parser = parserFor(instance);
  if (typeof parser === 'string') return parser;
  const script = evalScript(instance, testCommand);
  if (typeof script !== 'string') return script.problem;
  return { row: r, instance };
}

/** A test list: a JSON-encoded list of strings (as published) or a list. */
function testList(v: unknown): string[] | string {
  let list = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v) as unknown;
    } catch {
      return 'must be a JSON list of test ids, like ["tests/test_x.py::test_y"]';
    }
  }
  if (!Array.isArray(list) || !list.every((t) => typeof t === 'string'))
    return v === undefined || v === null ? 'is missing' : 'must be a list of test ids (strings)';
  return list;
}
