// The model patch (a check's `modelPatchPlan`, checks/types.ts): what the agent changed, taken after every
// process of the agent is gone. Nothing runs in the agent's sandbox: its workdir (less `.git`) is
// copied into the fresh grading sandbox, where the image's own git diffs it against the image's own
// repository; the copy is removed before anything is graded there. The tree is the agent's: its
// diff is untrusted data, bounded by the sandbox's output limit and a deadline.
import { SandboxError } from '../errors.ts';
import { getCheck } from '../checks/index.ts';
import type { ModelPatch, ModelPatchPlan } from '../checks/types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { Session } from './session.ts';

const DIFF_TIMEOUT_MS = 300_000;
const ROOT = { trusted: true, cwd: '/', user: '0:0' } as const;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** How the first check that grades a model patch takes it, or null (no such check, or nothing to diff against). */
export function modelPatchPlanOf(s: Session): ModelPatchPlan | null {
  for (const c of s.run.benchmark.checks) {
    const plan = getCheck(c.type)?.modelPatchPlan?.(s.input.sample);
    if (plan) return plan;
  }
  return null;
}

const noPatch = (problem: string): ModelPatch => ({ text: '', truncated: false, problem });

/** The agent's tree copied from `agent` to `grading` and diffed there; a tree that cannot be diffed is the agent's doing (a value, not a throw). */
export async function takeModelPatch(agent: Sandbox, grading: Sandbox, plan: ModelPatchPlan): Promise<ModelPatch> {
  const dir = quote(plan.workdir);
  const there = await agent.exec(`test -d ${dir} && test ! -L ${dir}`, ROOT);
  if (there.exitCode !== 0) return noPatch(`${plan.workdir} is not a folder in the agent's sandbox`);
  try {
    try {
      await agent.transfer(plan.workdir, grading, { to: plan.tree, skip: plan.skip });
    } catch (err) {
      if (err instanceof SandboxError) throw err;
      return noPatch((err as Error).message);
    }
    return await diff(grading, plan.script);
  } finally {
    await grading.exec(`rm -rf ${quote(plan.tree)}`, ROOT);
  }
}

async function diff(grading: Sandbox, script: string): Promise<ModelPatch> {
  const r = await grading.exec(script, { ...ROOT, timeoutMs: DIFF_TIMEOUT_MS });
  if (r.timedOut) return noPatch(`git diff did not finish in ${DIFF_TIMEOUT_MS / 1000} s`);
  if (r.exitCode !== 0) return noPatch(`git diff exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().slice(-300)}`);
  return { text: r.stdout, truncated: r.truncated };
}
