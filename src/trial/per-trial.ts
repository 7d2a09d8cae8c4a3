// What a trial takes from its own sample rather than from the run (an environment per sample,
// docs/benchmarks.md): its sandbox, resolved by the main process before the trial was scheduled, and its
// timeout. Pools read these too, so they live apart from the lifecycle.
import { confineSandbox } from '../agents/installed/confine.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import type { RunContext, TrialInput } from './types.ts';

export function sandboxSpecOf(run: RunContext, input: TrialInput): SandboxSpec | null {
  const spec = input.sandbox ?? run.sandbox;
  // An installed agent's sandbox reaches only the gateway, whatever the sample's own network says.
  return spec && run.installed ? confineSandbox(spec, run.installed) : spec;
}

export const trialTimeoutOf = (run: RunContext, input: TrialInput): number =>
  input.sample.limits?.trial_timeout_s ?? run.limits.trial_timeout_s;

/**
 * What an environment's start may take beyond the trial's timeout (docs/sandboxes.md#multi-service-environments):
 * its deadline is trial_timeout_s + this, counted once it has its slot. The main process's backstop for a
 * trial that is not ready (pool/remote.ts) allows the same, plus its grace period, so the start's own
 * deadline comes first.
 */
export const SANDBOX_START_S = 60;

/** The deadline of the trial's environment start, in seconds. */
export const startDeadlineOf = (run: RunContext, input: TrialInput): number =>
  trialTimeoutOf(run, input) + SANDBOX_START_S;
