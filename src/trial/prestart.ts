// Sandboxes ready before they are needed (docs/running.md#sandboxes-ready-before-they-are-needed):
// a trial's environment, started bare while the trial still waits for its place in its worker, so
// that when the place frees it runs at once. The environment is started for that trial alone (its
// labels, its sample's spec) and handed to no other: a trial retried starts a new one. Provider-neutral:
// it is `provider.start`, called earlier, with its slot asked for `ahead` (served after every trial
// that has its place: pool/semaphore.ts).
import type { Environment, EnvironmentProvider } from '../sandbox/index.ts';
import { providerFor } from '../sandbox/index.ts';
import { sandboxSpecOf, startDeadlineOf } from './per-trial.ts';
import { sessionIdOf } from './session-id.ts';
import { startWithin } from './start-deadline.ts';
import type { RunContext, TrialHooks, TrialInput } from './types.ts';

export interface Prestart {
  /** The environment, started bare; rejects as its start failed (or was abandoned). */
  readonly env: Promise<Environment>;
  /** It has a slot: it has its place in line. Without one, the trial abandons it and asks in its own turn. */
  readonly granted: boolean;
  /** Taken by its trial: the trial's signal stops the start from here on (Ctrl-C, its timeout). */
  take(signal: AbortSignal): Promise<Environment>;
  /** Abandoned (its trial never ran, or asks in its own turn): the start stopped, what came up removed, its slot given back. */
  discard(): Promise<void>;
}

/** Starts `input`'s environment ahead of its trial; null when the trial has no sandbox. */
export function prestart(
  run: RunContext,
  input: TrialInput,
  opts: { hooks?: TrialHooks; provider?: EnvironmentProvider },
): Prestart | null {
  const spec = sandboxSpecOf(run, input);
  if (!spec) return null;
  const abort = new AbortController();
  const acquireSandbox = opts.hooks?.acquireSandbox;
  let granted = !acquireSandbox; // no bound: nothing to wait in line for
  let provider: EnvironmentProvider | undefined;
  const env = (async () => {
    provider = opts.provider ?? (await providerFor(spec));
    return startWithin(
      provider,
      // `[sandbox] setup` runs after the sample's files are in (trial/environment.ts): bare, as a trial starts it.
      { ...spec, setup: [] },
      {
        runId: run.runId,
        sessionId: sessionIdOf(run.runId, input.taskId),
        pid: run.harnessPid,
        keep: run.keepSandbox,
      },
      {
        signal: abort.signal,
        ...(acquireSandbox
          ? {
              acquire: async (signal: AbortSignal) => {
                const slot = await acquireSandbox(signal, { ahead: true });
                granted = true;
                return slot;
              },
            }
          : {}),
        ...(input.environment ? { environment: input.environment } : {}),
      },
      startDeadlineOf(run, input),
    );
  })();
  env.catch(() => {}); // read by take or discard
  let settled = false;
  return {
    env,
    get granted() {
      return granted;
    },
    take(signal) {
      settled = true;
      const stop = () => abort.abort(signal.reason);
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
      return env.finally(() => signal.removeEventListener('abort', stop));
    },
    async discard() {
      if (settled) return;
      settled = true;
      abort.abort(new Error('the sandbox started ahead was not taken'));
      const up = await env.catch(() => null);
      if (!up) return; // the provider removed what its start made, and gave its slot back
      try {
        await provider?.stop(up, { interrupted: true });
      } catch {
        // the run's sweep removes it by label
      } finally {
        up.slot?.release();
      }
    },
  };
}
