// The first step of phase 6 (docs/sandboxes.md): a sandbox to grade in that the agent cannot reach. Nothing
// the agent started survives (the container is killed and started bare, or, with isolation =
// "fresh", a new container of the image receives only the declared outputs); the tests are copied
// in only then, over whatever the agent planted at their path; and every grading command runs
// through the harness's read-only toolbox shell.
import path from 'node:path';
import { SandboxError } from '../errors.ts';
import { getCheck } from '../checks/index.ts';
import type { ExecOptions, ExecResult, Sandbox } from '../sandbox/types.ts';
import { agentsFault, confirmNoSidecarLost, sandboxLost } from './blame.ts';
import { copyTests, testsDirOf } from './environment.ts';
import { modelPatchPlanOf, takeModelPatch } from './model-patch.ts';
import { sandboxSpecOf } from './per-trial.ts';
import type { Session } from './session.ts';

/** Whether grading reads the sandbox at all; when not, it is left as it is (no restart to pay for). */
export function gradesInSandbox(s: Session): boolean {
  if (s.input.sample.tests !== undefined || s.hooks.collect || s.run.grading.keep?.length) return true;
  return s.run.benchmark.checks.some((c) => getCheck(c.type)?.needsSandbox || c.state_command !== undefined);
}

/** The sandbox the checks and `collect` get; undefined when the trial had none. */
export async function isolateForGrading(s: Session): Promise<Sandbox | undefined> {
  const { sandbox, run, input } = s;
  if (!sandbox || !gradesInSandbox(s)) return sandbox;
  let target = sandbox;
  const patchPlan = modelPatchPlanOf(s);
  // A patch handed over by an agent that was given no sandbox (predictions): the trial's sandbox is
  // as fresh as a new one, and it is graded there. Otherwise every process of the agent goes first.
  const untouched = patchPlan !== null && s.modelPatch !== undefined;
  if (!untouched) await endAgentProcesses(s, sandbox);
  if (patchPlan && !untouched) {
    // Graded as a patch (the check's `modelPatchPlan`): nothing of the agent's sandbox crosses but its diff,
    // taken in the fresh sandbox by the image's own git.
    target = await startFresh(s);
    s.modelPatch = await takeModelPatch(sandbox, target, patchPlan);
  } else if (!patchPlan && run.grading.isolation === 'fresh') {
    target = await startFresh(s);
    for (const out of run.grading.outputs.length ? run.grading.outputs : [sandbox.workdir]) {
      // As root, in a container the agent never touched: its parent folders may not be in the image
      // (a task folder's /logs, made by setup in the agent's sandbox only).
      const dest = path.posix.resolve(sandbox.workdir, out);
      await trustedOk(
        target,
        `rm -rf ${quote(dest)} && mkdir -p ${quote(path.posix.dirname(dest))}`,
        `clear ${out} in the grading sandbox`,
        ROOT,
      );
      await sandbox.transfer(out, target);
    }
  }
  if (input.sample.tests !== undefined) {
    const dir = testsDirOf(run, target);
    // Whatever is there (a file, a symlink, a read-only tree) is the agent's: it goes.
    // (chmod only a real folder: through a planted symlink it would change modes wherever it points)
    await trustedOk(
      target,
      `[ -L ${quote(dir)} ] || chmod -R u+rwx ${quote(dir)} 2>/dev/null; rm -rf ${quote(dir)} && test ! -e ${quote(dir)} && test ! -L ${quote(dir)}`,
      `clear ${dir} for the tests`,
    );
    await copyTests(target, run, input.sample);
  }
  return gradingView(target);
}

/**
 * Every process the agent could have started, in main and in every service beside it (it reaches
 * them: ctx.services, the network, shared volumes), ends; each service runs again bare, waited for
 * as at start. A service lost meanwhile is infrastructure's; one the agent stopped stays stopped
 * (blame.ts); one that does not come back is graded as it is, said in the trial's log.
 */
async function endAgentProcesses(s: Session, sandbox: Sandbox): Promise<void> {
  const { environment, provider } = s;
  if (!environment || !provider) return sandbox.restart();
  await confirmNoSidecarLost(environment.services);
  const notes = await provider.restart(environment, {
    signal: s.opts.signal,
    ...(s.input.environment ? { environment: s.input.environment } : {}),
  });
  for (const line of notes) s.recorder.log('warn', line);
}

async function startFresh(s: Session): Promise<Sandbox> {
  // Called only for a trial that had a sandbox: it has a spec, and a provider started its environment.
  const { environment, provider } = s;
  const base = sandboxSpecOf(s.run, s.input);
  if (!base || !environment || !provider) throw new Error('internal: a fresh grading sandbox for a trial without one');
  // Where the agent's environment runs, without a slot of its own; the run's Ctrl-C, not the
  // trial's signal: a trial past its timeout is still graded on its work.
  s.gradingEnvironment = await provider.start(
    { ...base, setup: [] },
    { runId: s.run.runId, sessionId: `${s.sessionId}.grading`, pid: s.run.harnessPid },
    // With services: a fresh copy of the whole environment (docs/grading.md).
    {
      signal: s.opts.signal,
      beside: environment,
      ...(s.input.environment ? { environment: s.input.environment } : {}),
    },
  );
  return s.gradingEnvironment.main;
}

/** A harness step in the sandbox that must succeed; failing is the agent's doing (it owns the files), unless the host was lost meanwhile. */
async function trustedOk(sandbox: Sandbox, cmd: string, what: string, user?: string): Promise<void> {
  const r = await sandbox.exec(cmd, { trusted: true, cwd: '/', ...(user ? { user } : {}) });
  if (r.exitCode === 0) return;
  const message = `could not ${what} (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim().slice(-300)}`;
  await confirmHost(sandbox, message);
  throw new Error(message);
}

/**
 * Throws a SandboxError (infrastructure, retried) when the sandbox's host was lost: a daemon shutting
 * down ends commands (exit 137, 143) that read like failures, and those verdicts are not the agent's.
 */
export async function confirmHost(sandbox: Sandbox, what: string): Promise<void> {
  const health = await sandbox.health();
  if (sandboxLost(health))
    throw new SandboxError(
      `the sandbox's host was lost during grading (${health.lost ?? `container ${health.state}${health.killedByInfrastructure ? `, killed by ${health.killedByInfrastructure}` : ''}`}): ${what}`,
    );
}

const ROOT = '0:0';
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Grading commands through the toolbox shell. A command the engine could not run while the daemon is
 * healthy (the agent broke its cwd, say) ran as far as it could: a failed command (exit 126), so the
 * check fails instead of dodging to ungradable; a daemon failure still throws (SANDBOX_ERROR).
 */
export function gradingView(sandbox: Sandbox): Sandbox {
  return {
    id: sandbox.id,
    image: sandbox.image,
    workdir: sandbox.workdir,
    host: sandbox.host,
    async exec(cmd: string | string[], opts?: ExecOptions): Promise<ExecResult> {
      try {
        return await sandbox.exec(cmd, { ...opts, trusted: true });
      } catch (err) {
        if (!(err instanceof SandboxError) || !(await agentsFault(err, sandbox)).fault) throw err;
        return {
          exitCode: 126,
          stdout: '',
          stderr: `benchrig: the command could not run in the sandbox: ${err.message}`,
          timedOut: false,
          truncated: false,
        };
      }
    },
    readFile: (p) => sandbox.readFile(p),
    writeFile: (p, c) => sandbox.writeFile(p, c),
    copyIn: (src, dest) => sandbox.copyIn(src, dest),
    copyOut: (src, dest, o) => sandbox.copyOut(src, dest, o),
    restart: () => sandbox.restart(),
    health: () => sandbox.health(),
    transfer: (p, t, o) => sandbox.transfer(p, t, o),
  };
}
