// `swebench` (docs/swebench.md#grading): the model patch graded as the official harness grades it, in
// a fresh sandbox of the instance's image that the agent never touched (the trial starts it and takes
// the patch there: `modelPatchPlan`): the patch written in, applied with the official sequence, the eval
// script run, its output parsed and graded. Score 1 when resolved, else 0. The test output is saved
// so that `benchrig evaluate` re-grades it without a sandbox.
import type { Verdict } from '../../types.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import {
  APPLY_PATCH_FAIL,
  applyPatchScript,
  CONTAINER_PATCH_FILE,
  evalScript,
  evaluationError,
  instanceVerdict,
  MODEL_TREE,
  modelPatchScript,
  TESTBED,
  parserFor,
  TESTS_TIMEOUT,
  testConfigChanges,
  timeoutLine,
  withTestConfig,
  type SwebenchInstance,
} from './index.ts';
import type { CheckImpl, CheckInput } from '../../checks/types.ts';
import { optionalTimeout, ungradable } from '../../checks/text.ts';

/** What is saved under `artifacts["swebench:<name>"]`: the log graded, whether a patch was there. */
interface SwebenchArtifact {
  /** 'none': no patch; 'empty': an empty one; 'present': graded; 'unsubmitted': no prediction for the instance. */
  patch: 'none' | 'empty' | 'present' | 'unsubmitted';
  test_output: string;
  /** What of the patch changes test configuration (docs/swebench.md#test-configuration), for re-grading without it. */
  suspicious?: string[];
}

export const swebenchArtifactKey = (name: string) => `swebench:${name}`;

/** A verdict's details as report.json holds them: the official entry, without benchrig's own flag (`suspicious`). */
export const officialEntry = (details: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(details).filter(([k]) => k !== 'suspicious'));

/** Whether the official harness writes a report.json for a log graded so (not after a failed apply or a timeout). */
export const officialReportWritten = (log: string): boolean => evaluationError(log) === null;

/** The official default (swebench's run_evaluation --timeout). */
const DEFAULT_TIMEOUT_S = 1800;
const APPLY_TIMEOUT_MS = 300_000;
const EVAL_FILE = '/eval.sh';
/** The fresh sandbox is the image's, untouched: its own bash and tools, not the toolbox's first on PATH. */
const IMAGE_PATH = 'export PATH="${PATH#/.benchrig/bin:}"';

/** The instance a swebench sample carries as its `expected` (docs/swebench.md#the-format). */
function instanceOf(v: unknown): SwebenchInstance | null {
  const i = v as Partial<SwebenchInstance> | null;
  const ok =
    typeof i === 'object' &&
    i !== null &&
    typeof i.instance_id === 'string' &&
    typeof i.base_commit === 'string' &&
    typeof i.test_patch === 'string' &&
    Array.isArray(i.FAIL_TO_PASS) &&
    Array.isArray(i.PASS_TO_PASS);
  return ok ? (i as SwebenchInstance) : null;
}

/** `script` under the image's bash, after `file` is written from `stdin` (one call instead of two). */
async function bash(sandbox: Sandbox, script: string, timeoutMs: number, file: string, stdin: string) {
  const write = `cat > ${file} || exit 1`;
  return sandbox.exec(['/bin/bash', '-c', `${IMAGE_PATH}\n${write}\n${script}`], { cwd: '/', timeoutMs, stdin });
}

/** Apply, then run: the log graded (the apply output when the patch did not apply). */
async function runInstance(sandbox: Sandbox, instance: SwebenchInstance, patch: string, timeoutS: number) {
  const applied = await bash(sandbox, applyPatchScript(), APPLY_TIMEOUT_MS, CONTAINER_PATCH_FILE, patch);
  const applyLog = applied.stdout + applied.stderr;
  if (applied.exitCode !== 0)
    return applyLog.includes(APPLY_PATCH_FAIL) ? applyLog : `${applyLog}\n${APPLY_PATCH_FAIL}\n`;
  const script = evalScript(instance, instance.test_command);
  if (typeof script !== 'string') throw new Error(script.problem);
  const r = await bash(sandbox, `/bin/bash ${EVAL_FILE} 2>&1`, timeoutS * 1000, EVAL_FILE, script);
  const out = r.stdout + r.stderr;
  return r.timedOut ? `${out}\n\n${timeoutLine(timeoutS)}\n${TESTS_TIMEOUT}\n` : out;
}

/** An instance with nothing submitted: the official harness neither grades it nor writes its report (incomplete_ids). */
const UNSUBMITTED: Verdict = {
  passed: false,
  score: 0,
  reason: 'no prediction: the predictions file has none for this instance (not submitted, not graded)',
};

function verdictOf(instance: SwebenchInstance, input: CheckInput, a: SwebenchArtifact, fromArtifact: boolean): Verdict {
  if (a.patch === 'unsubmitted') return { ...UNSUBMITTED };
  const parser = parserFor(instance);
  if (typeof parser === 'string') return ungradable(`instance ${instance.instance_id} ${parser}`);
  const patch = a.patch === 'none' ? null : a.patch === 'empty' ? '' : 'present';
  const official = instanceVerdict(instance, parser, patch, a.test_output);
  const v = withTestConfig(official, a.suspicious ?? [], instance.strict === true);
  const problem = input.modelPatch?.problem;
  const reason = a.patch !== 'present' && problem ? `no model patch: ${problem}` : v.reason;
  return {
    passed: v.passed,
    score: v.score,
    reason,
    details: {
      ...v.report,
      ...(v.suspicious ? { suspicious: v.suspicious } : {}),
      ...(fromArtifact ? { from_artifact: true } : {}),
    },
  };
}

export const swebench: CheckImpl = {
  needsInput: true,
  needsSandbox: true,
  validate(check) {
    optionalTimeout(check);
  },
  modelPatchPlan(sample) {
    const instance = instanceOf(sample.expected);
    if (!instance) return null;
    const workdir = sample.sandbox?.workdir ?? TESTBED;
    return {
      workdir,
      tree: MODEL_TREE,
      skip: ['.git'],
      script: modelPatchScript(instance.base_commit, MODEL_TREE, workdir),
    };
  },
  async run(input): Promise<Verdict> {
    const instance = instanceOf(input.expectation);
    if (!instance) return ungradable('the sample is not a SWE-bench instance: use [dataset] format = "swebench"');
    const key = swebenchArtifactKey(input.check.name);
    if (!input.sandbox) {
      const saved = input.artifacts[key] as SwebenchArtifact | undefined;
      if (saved && typeof saved.test_output === 'string') return verdictOf(instance, input, saved, true);
      return ungradable('no sandbox and no saved test output: the instance was never graded');
    }
    const mp = input.modelPatch;
    if (!mp) return ungradable('no model patch was taken (the trial had no sandbox to diff)');
    if (mp.unsubmitted) {
      input.artifacts[key] = { patch: 'unsubmitted', test_output: '' } satisfies SwebenchArtifact;
      return { ...UNSUBMITTED };
    }
    if (mp.truncated)
      return {
        score: 0,
        passed: false,
        reason: 'the model patch is larger than [sandbox] max_output_bytes: not graded',
      };
    const text = mp.problem ? '' : mp.text;
    const artifact: SwebenchArtifact = { patch: text.trim() ? 'present' : 'empty', test_output: '' };
    const suspicious = artifact.patch === 'present' ? testConfigChanges(text) : [];
    if (suspicious.length) artifact.suspicious = suspicious;
    if (artifact.patch === 'present')
      artifact.test_output = await runInstance(
        input.sandbox,
        instance,
        text,
        optionalTimeout(input.check) ?? DEFAULT_TIMEOUT_S,
      );
    input.artifacts[key] = artifact;
    return verdictOf(instance, input, artifact, false);
  },
};
