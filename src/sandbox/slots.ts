// The run's places for environments (docs/fleet.md, docs/running.md#--max-sandboxes): a slot a trial
// holds while its environment lives, and the placement of the run that grants them in the main
// process. Provider-neutral: the pools and workers pass slots around without knowing what grants them.

/** Why a trial gives its place back as failed: a start that failed, or a provider error while it ran. */
export interface HostFailure {
  reason: string;
  during: 'start' | 'run';
}

/** A `--max-sandboxes` slot a trial holds while its environment lives (docs/fleet.md on a fleet). */
export interface SandboxSlot {
  /** The host to start the environment on; absent off a fleet. */
  readonly host?: string;
  /** Why no host could take an environment: such a slot holds nothing. */
  readonly refused?: string;
  /** Gives the slot back (once: later calls do nothing); `failure` reports its host as failed. */
  release(failure?: HostFailure): void;
}

/** What places a run's environments (a fleet), registered in the main process for the run. */
export interface Placement {
  /** Environments at once across the placement (--max-sandboxes). */
  readonly limit: number;
  /** Resolves with a slot; a refused slot (no host can take one) holds nothing. Rejects only on abort. */
  acquire(signal?: AbortSignal): Promise<SandboxSlot>;
  /** Per host: capacity and what happened there during this run (the report's `hosts`). */
  summary(): Record<string, { capacity: number; sandboxes: number; infra_errors: number; cooldowns: number }>;
}

// The placement of each run in this process (the main one): remote pools and single mode place through it.
const placements = new Map<string, Placement>();
export const registerPlacement = (runId: string, placement: Placement) => void placements.set(runId, placement);
export const unregisterPlacement = (runId: string) => void placements.delete(runId);
export const placementFor = (runId: string): Placement | undefined => placements.get(runId);
