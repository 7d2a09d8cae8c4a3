// `state` (docs/checks.md): the expectation is an object of expected values keyed by path into the final
// state (`orders.A1001.status`, or nested objects compared whole); score = the fraction of keys whose
// value deep-equals the state's; passes at 1.0. The final state is what `state_command` prints as
// JSON in the sandbox after the agent finished (saved as artifact `state:<name>`, so re-grading
// without a sandbox reads it), or, without a command, the trial's final_state (the agent's reply
// `state` merged with a hook's `collect`).
import { isDeepStrictEqual } from 'node:util';
import type { Verdict } from '../types.ts';
import type { SandboxTestArtifact } from './sandbox-test.ts';
import { excerpt, lastLine, optionalTimeout, ungradable } from './text.ts';
import type { CheckImpl } from './types.ts';

const stateArtifactKey = (name: string) => `state:${name}`;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The value at `path`: a literal key first (keys may hold dots), then dotted segments. */
export function lookup(state: unknown, path: string): { found: boolean; value?: unknown } {
  if (isObject(state) && Object.hasOwn(state, path)) return { found: true, value: state[path] };
  let cur: unknown = state;
  for (const seg of path.split('.')) {
    if (cur && typeof cur === 'object' && Object.hasOwn(cur, seg)) cur = (cur as Record<string, unknown>)[seg];
    else return { found: false };
  }
  return { found: true, value: cur };
}

/** Compare the expectation with a state; the verdict is the same whether the state is fresh or saved. */
function compareState(expected: Record<string, unknown>, state: unknown): Verdict {
  const keys = Object.keys(expected);
  if (keys.length === 0) return ungradable('the expectation has no keys to compare');
  const mismatches: Array<{ key: string; expected: unknown; actual?: unknown; missing?: true }> = [];
  for (const key of keys) {
    const got = lookup(state, key);
    if (!got.found) mismatches.push({ key, expected: expected[key], missing: true });
    else if (!isDeepStrictEqual(got.value, expected[key]))
      mismatches.push({ key, expected: expected[key], actual: got.value });
  }
  const matched = keys.length - mismatches.length;
  const score = matched / keys.length;
  const details = { matched, total: keys.length, ...(mismatches.length ? { mismatches } : {}) };
  if (mismatches.length === 0)
    return { score, passed: true, reason: `all ${keys.length} key${keys.length > 1 ? 's' : ''} match`, details };
  const show = (v: unknown) => excerpt(JSON.stringify(v) ?? 'undefined', 40);
  const listed = mismatches
    .slice(0, 3)
    .map((m) =>
      m.missing
        ? `${m.key}: missing (expected ${show(m.expected)})`
        : `${m.key}: expected ${show(m.expected)}, got ${show(m.actual)}`,
    )
    .join('; ');
  return {
    score,
    passed: false,
    reason: `${matched} of ${keys.length} keys match; ${listed}${mismatches.length > 3 ? '; …' : ''}`,
    details,
  };
}

function commandOf(check: Record<string, unknown>): string | undefined {
  const c = check.state_command;
  if (c === undefined) return undefined;
  if (typeof c !== 'string' || c.trim() === '')
    throw new Error(`check "${String(check.name)}": state_command must be a non-empty string`);
  return c;
}

const isArtifact = (v: unknown): v is SandboxTestArtifact =>
  isObject(v) && typeof v.exit_code === 'number' && typeof v.stdout === 'string';

/**
 * The state a command printed, or a failed verdict saying why there is none: the command ran, so
 * whatever broke it (a deleted or corrupted state file, a hang) is the agent's work, not a reason
 * to leave the trial ungraded.
 */
function stateFromOutput(a: SandboxTestArtifact): { state: unknown } | Verdict {
  const failed = (reason: string): Verdict => ({
    score: 0,
    passed: false,
    reason,
    details: { exit_code: a.exit_code, timed_out: a.timed_out },
  });
  if (a.timed_out) return failed('state_command timed out');
  if (a.exit_code !== 0) {
    const tail = lastLine(a.stderr ?? '', a.stdout);
    return failed(`state_command exited ${a.exit_code}${tail ? `: ${excerpt(tail, 100)}` : ''}`);
  }
  try {
    return { state: JSON.parse(a.stdout) };
  } catch (err) {
    return failed(
      `state_command did not print JSON (${(err as Error).message}): ${JSON.stringify(excerpt(a.stdout, 60))}`,
    );
  }
}

export const stateCheck: CheckImpl = {
  needsInput: true,
  // Not `needsSandbox`: without a sandbox it grades from the saved output or the trial's final_state.
  validate(check) {
    commandOf(check);
    optionalTimeout(check);
  },
  async run({ check, expectation, finalState, sandbox, artifacts }): Promise<Verdict> {
    if (!isObject(expectation)) return ungradable('the expectation must be an object of expected values');
    const command = commandOf(check);
    if (command === undefined) return compareState(expectation, finalState ?? {});
    const key = stateArtifactKey(check.name);
    let artifact: SandboxTestArtifact;
    if (sandbox) {
      const timeout = optionalTimeout(check);
      const r = await sandbox.exec(command, timeout !== undefined ? { timeoutMs: timeout * 1000 } : undefined);
      artifact = { exit_code: r.exitCode, stdout: r.stdout, stderr: r.stderr, timed_out: r.timedOut };
      artifacts[key] = artifact; // the grader owns this map and returns it with the verdicts
    } else {
      const saved = artifacts[key];
      if (!isArtifact(saved)) return ungradable('no sandbox and no saved output: state_command never ran');
      artifact = saved;
    }
    const got = stateFromOutput(artifact);
    if (!('state' in got)) return got;
    const v = compareState(expectation, got.state);
    return sandbox ? v : { ...v, details: { ...v.details, from_artifact: true } };
  },
};
