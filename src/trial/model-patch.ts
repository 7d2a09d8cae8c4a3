// The model patch (docs/swebench.md#the-model-patch): what the agent changed, taken from its sandbox
// after every process of the agent is gone, by the script of the check that grades it. The agent may
// have replaced git or filled the tree: its output is untrusted data, bounded by the sandbox's output
// limit and a deadline, and graded only in a fresh sandbox of the image.
import { getCheck } from '../checks/index.ts';
import type { ModelPatch } from '../checks/types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { Session } from './session.ts';

const DIFF_TIMEOUT_MS = 300_000;

/** The script of the first check that grades a model patch, or null (no such check, or nothing to diff against). */
export function modelPatchScriptOf(s: Session): string | null {
  for (const c of s.run.benchmark.checks) {
    const script = getCheck(c.type)?.modelPatchScript?.(s.input.sample);
    if (script) return script;
  }
  return null;
}

/** Runs the script as root through the toolbox's shell; a failing git is the agent's doing (a value, not a throw). */
export async function takeModelPatch(sandbox: Sandbox, script: string): Promise<ModelPatch> {
  const r = await sandbox.exec(script, { trusted: true, cwd: '/', user: '0:0', timeoutMs: DIFF_TIMEOUT_MS });
  if (r.timedOut)
    return { text: '', truncated: false, problem: `git diff did not finish in ${DIFF_TIMEOUT_MS / 1000} s` };
  if (r.exitCode !== 0)
    return {
      text: '',
      truncated: false,
      problem: `git diff exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().slice(-300)}`,
    };
  return { text: r.stdout, truncated: r.truncated };
}

/** How much of the patch the result file keeps (the whole of it is trials/<task-id>/model.patch). */
export const MODEL_PATCH_CLIP = 100_000;

export function clippedPatch(text: string): string {
  return text.length > MODEL_PATCH_CLIP
    ? `${text.slice(0, MODEL_PATCH_CLIP)}\n… (clipped: ${text.length} chars in trials/<task-id>/model.patch)`
    : text;
}
