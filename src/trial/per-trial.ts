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
