// An environment's start under its deadline (docs/sandboxes.md#multi-service-environments): whatever
// holds it (a service's health budget of an hour, a daemon that does not answer), the trial goes on
// at trial_timeout_s + 60 s as SANDBOX_ERROR, not retried. The clock runs from when the start has
// its slot: waiting for one (`--max-sandboxes`, a provider's placement) is the run's doing, not the start's.
import { SandboxError } from '../errors.ts';
import type { Environment, EnvironmentProvider, StartOptions } from '../sandbox/index.ts';
import type { SandboxLabels, SandboxSpec } from '../sandbox/types.ts';
import { raceAbort } from './agent-phase.ts';
import { SANDBOX_START_S } from './per-trial.ts';

/**
 * `provider.start`, abandoned past `seconds`: its signal aborted (a wait for a service stops and
 * removes what the start made), and an environment it still returns later is stopped and its slot
 * given back (the run's end sweep is the backstop for the rest).
 */
export async function startWithin(
  provider: EnvironmentProvider,
  spec: SandboxSpec,
  labels: SandboxLabels,
  opts: StartOptions,
  seconds: number,
): Promise<Environment> {
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    const late = new SandboxError(
      `the environment did not start within ${seconds} s (trial_timeout_s + ${SANDBOX_START_S} s): abandoned`,
      undefined,
      false,
    );
    timer = setTimeout(() => deadline.abort(late), seconds * 1000);
  };
  const acquire = opts.acquire;
  // Armed again on each slot: a provider that moves the start to another host asks for one per attempt.
  const armed = acquire
    ? async (signal: AbortSignal) => {
        const slot = await acquire(signal);
        arm();
        return slot;
      }
    : undefined;
  if (!armed || opts.beside) arm(); // beside: a fresh copy for grading takes no slot
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal;
  const starting = provider.start(spec, labels, { ...opts, signal, ...(armed ? { acquire: armed } : {}) });
  try {
    return await raceAbort(starting, deadline.signal);
  } catch (err) {
    if (deadline.signal.aborted)
      void starting.then(
        (env) => stopLate(provider, env),
        () => undefined,
      );
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** An environment whose start was abandoned but came up all the same: removed, its slot given back. */
async function stopLate(provider: EnvironmentProvider, env: Environment): Promise<void> {
  try {
    await provider.stop(env, { interrupted: false });
  } catch {
    // the run's end sweep removes it by label
  } finally {
    env.slot?.release();
  }
}
