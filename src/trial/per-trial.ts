// What a trial takes from its own sample rather than from the run (an environment per sample,
// SPEC §4): its sandbox, resolved by the main process before the trial was scheduled, and its
// timeout. Pools read these too, so they live apart from the lifecycle.
import type { SandboxSpec } from '../sandbox/types.ts';
import type { RunContext, TrialInput } from './types.ts';

export const sandboxSpecOf = (run: RunContext, input: TrialInput): SandboxSpec | null => input.sandbox ?? run.sandbox;

export const trialTimeoutOf = (run: RunContext, input: TrialInput): number => input.sample.limits?.trial_timeout_s ?? run.limits.trial_timeout_s;
