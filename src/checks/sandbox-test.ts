// `sandbox_test`: run the check's `command` in the sandbox after the agent finished; it passes iff
// the command exits 0 (docs/checks.md). The output is saved as an artifact so `benchrig evaluate` can
// re-grade without a sandbox. A test-runner summary line gives a partial score.
import type { CheckImpl, CheckInput } from './types.ts';
import type { Verdict } from '../types.ts';
import { excerpt, lastLine, optionalTimeout, ungradable } from './text.ts';

/** What is saved under `artifacts["sandbox_test:<name>"]`. */
export interface SandboxTestArtifact {
  exit_code: number;
  stdout: string;
  stderr: string;
  timed_out: boolean;
}

const artifactKey = (name: string) => `sandbox_test:${name}`;

/**
 * Counts from the last line that reports passes: `3 passed, 1 failed`, pytest's
 * `1 failed, 3 passed in 0.1s`, `5 passed`; errors count as failures. Null when no line does.
 */
export function parseTestCounts(output: string): { passed: number; failed: number } | null {
  let last: { line: string; passed: number } | null = null;
  for (const l of output.split(/\r?\n/)) {
    const m = /\b(\d+)\s+passed\b/i.exec(l);
    if (m) last = { line: l, passed: Number(m[1]) };
  }
  if (!last) return null;
  const { line, passed } = last;
  let failed = 0;
  for (const m of line.matchAll(/\b(\d+)\s+(?:failed|errors?)\b/gi)) failed += Number(m[1]);
  return { passed, failed };
}

function commandOf(input: Pick<CheckInput, 'check'>): string {
  const { command, name } = input.check;
  if (typeof command !== 'string' || command.trim() === '')
    throw new Error(`check "${name}": command must be a non-empty string`);
  return command;
}

function isArtifact(v: unknown): v is SandboxTestArtifact {
  const a = v as SandboxTestArtifact | null;
  return typeof a === 'object' && a !== null && typeof a.exit_code === 'number' && typeof a.stdout === 'string';
}

/** The verdict from a command's saved output; the same whether it just ran or is re-graded. */
function verdictFromArtifact(a: SandboxTestArtifact, fromArtifact: boolean): Verdict {
  const counts = parseTestCounts(`${a.stdout}\n${a.stderr ?? ''}`);
  const ok = a.exit_code === 0 && !a.timed_out;
  const total = counts ? counts.passed + counts.failed : 0;
  const score = counts && total > 0 ? counts.passed / total : ok ? 1 : 0;
  const tally = counts && total > 0 ? `${counts.passed} passed, ${counts.failed} failed` : '';
  const details = {
    exit_code: a.exit_code,
    timed_out: a.timed_out,
    ...(counts ? { tests_passed: counts.passed, tests_failed: counts.failed } : {}),
    ...(fromArtifact ? { from_artifact: true } : {}),
  };
  if (ok) return { score, passed: true, reason: tally ? `exit 0; ${tally}` : 'exit 0', details };
  const head = a.timed_out ? 'timed out' : `exit ${a.exit_code}`;
  const tail = lastLine(a.stderr ?? '', a.stdout) || tally;
  return { score, passed: false, reason: tail ? `${head}: ${excerpt(tail, 120)}` : head, details };
}

export const sandboxTest: CheckImpl = {
  needsInput: false,
  needsSandbox: true,
  validate(check) {
    commandOf({ check });
    optionalTimeout(check);
  },
  async run(input): Promise<Verdict> {
    const key = artifactKey(input.check.name);
    if (!input.sandbox) {
      // Re-grading: the command ran during the trial, or it never did (ungradable, not failed).
      const saved = input.artifacts[key];
      if (isArtifact(saved)) return verdictFromArtifact({ ...saved, timed_out: saved.timed_out === true }, true);
      return ungradable('no sandbox and no saved output: the command never ran');
    }
    const timeout = optionalTimeout(input.check);
    const res = await input.sandbox.exec(
      commandOf(input),
      timeout !== undefined ? { timeoutMs: timeout * 1000 } : undefined,
    );
    const artifact: SandboxTestArtifact = {
      exit_code: res.exitCode,
      stdout: res.stdout,
      stderr: res.stderr,
      timed_out: res.timedOut,
    };
    input.artifacts[key] = artifact; // the grader owns this map and returns it with the verdicts
    return verdictFromArtifact(artifact, false);
  },
};
