// Phases 3 and 8 of a trial (docs/running.md): the sandbox with the sample's files and setup, then its
// removal whatever happened; and the tests, copied in only after the agent finished.
import { isAbsolute, posix, resolve } from 'node:path';
import type { ErrorValue } from '../errors.ts';
import { SandboxError } from '../errors.ts';
import { startOnFleet } from '../sandbox/fleet.ts';
import { keptSandboxLine } from '../sandbox/labels.ts';
import type { Sandbox, SandboxProvider, SandboxSpec } from '../sandbox/types.ts';
import { sandboxSpecOf } from './per-trial.ts';
import type { Sample } from '../types.ts';
import { bounded, timed, type Session } from './session.ts';
import type { RunContext, TrialInput } from './types.ts';

/** Phase 3: the sandbox (when the benchmark has one) and `prepareSample`. Every failure is infrastructure. */
export async function startEnvironment(s: Session): Promise<void> {
  const { run, input, opts, abort } = s;
  const spec = sandboxSpecOf(run, input);
  const span = spec ? s.spans.open('sandbox.start', { 'benchrig.sandbox.image': spec.image }) : null;
  try {
    await timed(s, 'sandbox', async () => {
      if (s.provider && spec) {
        const provider = s.provider;
        const start = (placed: SandboxSpec) =>
          prepareEnvironment(provider, placed, run, input, s.sessionId, abort.signal);
        if (spec.fleet?.length) {
          // A fleet (docs/fleet.md): placed on a host, and moved to another when that host fails to start it.
          ({ sandbox: s.sandbox, slot: s.slot } = await startOnFleet(
            run.runId,
            spec,
            opts.hooks?.acquireSandbox,
            start,
            abort.signal,
          ));
        } else {
          s.slot = await opts.hooks?.acquireSandbox?.(abort.signal);
          s.sandbox = await start(spec);
        }
        opts.hooks?.onSandbox?.(input.taskId, s.sandbox.id);
        span?.set({ 'benchrig.sandbox.container': s.sandbox.id });
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

/** Phase 8: remove the sandbox, always (unless kept for debugging), and give its slot back. */
export async function cleanUp(s: Session, error: ErrorValue | null): Promise<void> {
  await timed(s, 'cleanup', async () => {
    const { sandbox, provider, recorder } = s;
    if (s.gradingSandbox && provider)
      await provider.stop(s.gradingSandbox, { interrupted: error?.kind === 'interrupted' }).catch(() => {}); // else the run's sweep
    if (sandbox && provider) {
      if (s.run.keepSandbox && error?.kind !== 'interrupted') {
        recorder.log('info', keptSandboxLine(sandbox.id, sandbox.host));
      } else {
        const span = s.spans.open('sandbox.stop');
        try {
          await provider.stop(sandbox, { interrupted: error?.kind === 'interrupted' });
        } catch (err) {
          // The end-of-run sweep removes it by label; a failed removal must not change the verdict.
          recorder.log('warn', `removing sandbox ${sandbox.id.slice(0, 12)} failed: ${(err as Error)?.message ?? err}`);
        } finally {
          span.end();
        }
      }
      s.opts.hooks?.onSandbox?.(s.input.taskId, null);
    }
    // A Docker error while the trial ran may mean its host is gone: the fleet checks it.
    s.slot?.release(error?.kind === 'sandbox' && sandbox?.host ? { reason: error.message, during: 'run' } : undefined);
  });
}

async function prepareEnvironment(
  provider: SandboxProvider,
  spec: SandboxSpec,
  run: RunContext,
  input: TrialInput,
  sessionId: string,
  signal: AbortSignal,
): Promise<Sandbox> {
  // `[sandbox] setup` runs after the sample's files are in (docs/benchmarks.md), so the provider starts bare.
  const sandbox = await provider.start(
    { ...spec, setup: [] },
    // Labels are set at creation: a run that keeps its sandboxes marks them so that no sweep removes them.
    { runId: run.runId, sessionId, pid: run.harnessPid, keep: run.keepSandbox },
    signal,
  );
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
    return sandbox;
  } catch (err) {
    await provider.stop(sandbox, { interrupted: signal.aborted }).catch(() => {});
    throw err;
  }
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
