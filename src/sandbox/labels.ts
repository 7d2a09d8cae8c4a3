// The labels every benchrig container and volume carries (docs/sandboxes.md). Cleanup finds leftovers by
// these alone, so they are the only record of who owns a container once a harness process dies.
import os from 'node:os';

export const LABEL = {
  marker: 'benchrig',
  run: 'benchrig.run',
  session: 'benchrig.session',
  pid: 'benchrig.pid',
  host: 'benchrig.host',
} as const;

export interface OwnerLabels {
  runId: string;
  sessionId: string;
  /** Defaults to this process: the sweep removes the container once this pid is gone. */
  pid?: number;
  host?: string;
}

export function buildLabels(owner: OwnerLabels): Record<string, string> {
  return {
    [LABEL.marker]: '1',
    [LABEL.run]: owner.runId,
    [LABEL.session]: owner.sessionId,
    [LABEL.pid]: String(owner.pid ?? process.pid),
    [LABEL.host]: owner.host ?? os.hostname(),
  };
}

/** A Docker list filter selecting everything benchrig made, optionally one run's. */
export function runFilter(runId?: string): { label: string[] } {
  return { label: [runId ? `${LABEL.run}=${runId}` : LABEL.run] };
}
