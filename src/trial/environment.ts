// Phase 3 and 6 of a trial: the sandbox with the sample's files and setup; tests copied in after the agent.
import { isAbsolute, posix, resolve } from 'node:path';
import { SandboxError } from '../errors.ts';
import type { Sandbox, SandboxProvider } from '../sandbox/types.ts';
import type { Sample } from '../types.ts';
import type { Recorder } from './recorder.ts';
import type { RunContext, TrialInput } from './types.ts';

export async function prepareEnvironment(
  provider: SandboxProvider,
  run: RunContext,
  input: TrialInput,
  sessionId: string,
  signal: AbortSignal,
): Promise<Sandbox> {
  const spec = run.sandbox!;
  // `[sandbox] setup` runs after the sample's files are in (SPEC §4), so the provider starts bare.
  const sandbox = await provider.start({ ...spec, setup: [] }, { runId: run.runId, sessionId }, signal);
  try {
    if (input.sample.files !== undefined) await sandbox.copyIn(source(run, input.sample.files), spec.workdir);
    const steps = [...spec.setup.map((cmd) => ({ cmd, of: '[sandbox] setup' })), ...(input.sample.setup ?? []).map((cmd) => ({ cmd, of: `setup of sample ${input.sample.id}` }))];
    for (const { cmd, of } of steps) {
      const r = await sandbox.exec(cmd);
      if (r.exitCode !== 0) throw new SandboxError(`${of} failed (exit ${r.exitCode}): ${cmd}: ${(r.stderr || r.stdout).trim().slice(-300)}`);
    }
    return sandbox;
  } catch (err) {
    await provider.stop(sandbox, { interrupted: signal.aborted }).catch(() => {});
    throw err;
  }
}

/** Tests reach the sandbox only after the agent finished, so the agent never sees them. */
export async function copyTests(sandbox: Sandbox, run: RunContext, sample: Sample): Promise<void> {
  await sandbox.copyIn(source(run, sample.tests!), posix.join(run.sandbox!.workdir, '.tests'));
}

function source(run: RunContext, files: Record<string, string> | string): Record<string, string> | string {
  if (typeof files !== 'string') return files;
  return isAbsolute(files) ? files : resolve(run.benchmark.dir, files);
}

export async function stopSandbox(provider: SandboxProvider, sandbox: Sandbox, interrupted: boolean, recorder: Recorder): Promise<void> {
  try {
    await provider.stop(sandbox, { interrupted });
  } catch (err) {
    // The end-of-run sweep removes it by label; a failed removal must not change the verdict.
    recorder.log('warn', `removing sandbox ${sandbox.id.slice(0, 12)} failed: ${(err as Error)?.message ?? err}`);
  }
}
