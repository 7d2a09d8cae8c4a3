// Phases 3 and 8 of a trial (docs/running.md): the environment with the sample's files and setup, then
// its removal whatever happened; and the tests, copied in only after the agent finished.
import { isAbsolute, posix, resolve } from 'node:path';
import type { ErrorValue } from '../errors.ts';
import { SandboxError } from '../errors.ts';
import type { Environment, EnvironmentProvider } from '../sandbox/index.ts';
import type { Sandbox, SandboxSpec } from '../sandbox/types.ts';
import { sandboxSpecOf, startDeadlineOf } from './per-trial.ts';
import { startWithin } from './start-deadline.ts';
import { inBackground } from './removals.ts';
import type { Sample } from '../types.ts';
import { bounded, timed, type Session } from './session.ts';
import type { RunContext } from './types.ts';

/** Phase 3: the environment (when the benchmark has a sandbox) and `prepareSample`. Every failure is infrastructure. */
export async function startEnvironment(s: Session): Promise<void> {
  const { run, input, abort } = s;
  const spec = sandboxSpecOf(run, input);
  const span = spec ? s.spans.open('sandbox.start', { 'benchrig.sandbox.image': spec.image }) : null;
  try {
    await timed(s, 'sandbox', async () => {
      if (s.provider && spec) {
        const env = await prepareEnvironment(s, s.provider, spec);
        s.environment = env;
        s.sandbox = env.main;
        s.opts.hooks?.onSandbox?.(input.taskId, env.main.id);
        span?.set({ 'benchrig.sandbox.container': env.main.id });
      }
      await bounded(
        s,
        'prepareSample',
        s.hooks.prepareSample?.({
          sample: input.sample,
          sandbox: s.sandbox,
          sessionId: s.sessionId,
          runDir: run.runDir,
          benchmarkDir: run.benchmark.dir,
        }),
      );
    });
  } catch (err) {
    span?.end(err);
    throw err instanceof SandboxError || abort.signal.aborted
      ? err
      : new SandboxError(`preparing the sandbox failed: ${(err as Error)?.message ?? err}`, err);
  } finally {
    span?.end();
  }
}

/**
 * Phase 8: stop the environment, always (unless kept for debugging), and give its slot back once it
 * is gone. In a pool, off the trial's critical path (removals.ts): the slot is held until then.
 */
export async function cleanUp(s: Session, error: ErrorValue | null): Promise<void> {
  await timed(s, 'cleanup', async () => {
    const { environment, sandbox, provider, recorder } = s;
    const interrupted = error?.kind === 'interrupted';
    // A provider error while the trial ran may mean its host is gone: the placement checks it.
    const failure =
      error?.kind === 'sandbox' && sandbox?.host ? { reason: error.message, during: 'run' as const } : undefined;
    const kept = !!environment && s.run.keepSandbox && !interrupted;
    if (kept && provider) {
      s.keptLines = provider.keptLines(environment, s.run.runDir);
      for (const line of s.keptLines) recorder.log('info', line);
    }
    const grading = s.gradingEnvironment;
    const removal = async () => {
      try {
        if (grading && provider) await provider.stop(grading, { interrupted }).catch(() => {}); // else the run's sweep
        if (environment && sandbox && provider && !kept) await stopEnvironment(s, provider, environment, interrupted);
      } finally {
        if (environment) s.opts.hooks?.onSandbox?.(s.input.taskId, null);
        s.slot?.release(failure);
      }
    };
    if (s.opts.removeInBackground && (grading || (environment && !kept))) inBackground(removal);
    else await removal();
  });
}

async function stopEnvironment(s: Session, provider: EnvironmentProvider, env: Environment, interrupted: boolean) {
  const span = s.spans.open('sandbox.stop');
  try {
    await provider.stop(env, { interrupted });
  } catch (err) {
    // The end-of-run sweep removes it by label; a failed removal must not change the verdict.
    if (!s.opts.removeInBackground)
      s.recorder.log('warn', `removing sandbox ${env.main.id.slice(0, 12)} failed: ${(err as Error)?.message ?? err}`);
  } finally {
    span.end();
  }
}

/**
 * The environment started bare (on several hosts: placed, and moved to another host when one fails to
 * start it), then the sample's files and the setup commands in its main service.
 */
async function prepareEnvironment(s: Session, provider: EnvironmentProvider, spec: SandboxSpec): Promise<Environment> {
  const { run, input, abort } = s;
  const env = await startOrTake(s, provider, spec);
  s.slot = env.slot; // released at cleanup, whatever happens from here
  const sandbox = env.main;
  try {
    if (input.sample.files !== undefined) await sandbox.copyIn(source(run, input.sample.files), spec.workdir);
    const steps = [
      ...spec.setup.map((cmd) => ({ cmd, of: '[sandbox] setup' })),
      ...(input.sample.setup ?? []).map((cmd) => ({ cmd, of: `setup of sample ${input.sample.id}` })),
    ];
    for (const { cmd, of } of steps) {
      const r = await sandbox.exec(cmd);
      if (r.exitCode !== 0)
        throw new SandboxError(
          `${of} failed (exit ${r.exitCode}): ${cmd}: ${(r.stderr || r.stdout).trim().slice(-300)}`,
          undefined,
          false,
        );
    }
    return env;
  } catch (err) {
    await provider.stop(env, { interrupted: abort.signal.aborted }).catch(() => {});
    throw err;
  }
}

/**
 * The environment its worker started ahead (prestart.ts), when that one has its slot; else started
 * now. One started ahead without a slot yet is abandoned: a trial with its place asks in its own turn.
 */
async function startOrTake(s: Session, provider: EnvironmentProvider, spec: SandboxSpec): Promise<Environment> {
  const { run, input, abort } = s;
  const ahead = s.opts.prestarted;
  if (ahead?.granted) return ahead.take(abort.signal);
  await ahead?.discard();
  // `[sandbox] setup` runs after the sample's files are in (docs/benchmarks.md), so the provider starts bare.
  return startWithin(
    provider,
    { ...spec, setup: [] },
    // Labels are set at creation: a run that keeps its sandboxes marks them so that no sweep removes them.
    { runId: run.runId, sessionId: s.sessionId, pid: run.harnessPid, keep: run.keepSandbox },
    {
      signal: abort.signal,
      acquire: s.opts.hooks?.acquireSandbox,
      ...(input.environment ? { environment: input.environment } : {}),
    },
    startDeadlineOf(run, input),
  );
}

/** Where the tests go: `[grading] tests_dir`, else `<workdir>/.tests`. */
export const testsDirOf = (run: RunContext, sandbox: Sandbox): string =>
  run.grading.testsDir ?? posix.join(sandbox.workdir, '.tests');

/** Tests reach the sandbox only after the agent finished, so the agent never sees them. */
export async function copyTests(sandbox: Sandbox, run: RunContext, sample: Sample): Promise<void> {
  if (sample.tests === undefined) throw new Error(`internal: tests copied for sample ${sample.id}, which has none`);
  await sandbox.copyIn(source(run, sample.tests), testsDirOf(run, sandbox));
}

function source(run: RunContext, files: Record<string, string> | string): Record<string, string> | string {
  if (typeof files !== 'string') return files;
  return isAbsolute(files) ? files : resolve(run.benchmark.dir, files);
}
