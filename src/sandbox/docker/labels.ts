// The labels every benchrig container and volume carries (docs/sandboxes.md). Cleanup finds leftovers by
// these alone, so they are the only record of who owns a container once a harness process dies.
import os from 'node:os';

export const LABEL = {
  marker: 'benchrig',
  run: 'benchrig.run',
  session: 'benchrig.session',
  pid: 'benchrig.pid',
  host: 'benchrig.host',
  /** A sandbox kept on purpose (`--keep-sandbox`): no sweep removes it, only `sandbox cleanup --run` (its run's), `--kept` or `--all`. */
  keep: 'benchrig.keep',
} as const;

interface OwnerLabels {
  runId: string;
  sessionId: string;
  /** Defaults to this process: the sweep removes the container once this pid is gone. */
  pid?: number;
  host?: string;
  /** Kept after its trial for debugging (docs/sandboxes.md): the sweeps leave it alone. */
  keep?: boolean;
}

export function buildLabels(owner: OwnerLabels): Record<string, string> {
  return {
    [LABEL.marker]: '1',
    [LABEL.run]: owner.runId,
    [LABEL.session]: owner.sessionId,
    [LABEL.pid]: String(owner.pid ?? process.pid),
    [LABEL.host]: owner.host ?? os.hostname(),
    ...(owner.keep ? { [LABEL.keep]: '1' } : {}),
  };
}

/** `labels` but those under benchrig's prefix (`benchrig`, `benchrig.…`): only benchrig sets those. */
export function withoutOwnLabels(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(labels).filter(([k]) => k !== LABEL.marker && !k.startsWith(`${LABEL.marker}.`)),
  );
}

/** Carries the keep label: left alone by every sweep but `sandbox cleanup --run` (its run's), `--kept` and `--all`. */
export const isKept = (labels: Record<string, string> | undefined | null): boolean => labels?.[LABEL.keep] === '1';

/** A Docker list filter selecting everything benchrig made, optionally one run's. */
export function runFilter(runId?: string): { label: string[] } {
  return { label: [runId ? `${LABEL.run}=${runId}` : LABEL.run] };
}

/**
 * What `--keep-sandbox` prints for a kept sandbox: how to enter it, how to remove it, and how to
 * remove every kept one of its run (`runDir`) and no other run's (docs/sandboxes.md#kept-sandboxes).
 */
export function keptSandboxLine(id: string, runDir: string, host?: string): string {
  const short = id.slice(0, 12);
  const docker = host ? `docker -H ${host}` : 'docker';
  return `sandbox kept: ${docker} exec -it ${short} sh   (remove it: ${docker} rm -f ${short}; this run's: ${runCleanup(runDir, host)})`;
}

/** `benchrig sandbox cleanup --run <run folder>` (on that Docker host): a run's sandboxes, kept ones included. */
export const runCleanup = (runDir: string, host?: string): string =>
  `benchrig sandbox cleanup --run ${shellWord(runDir)}${host ? ` --docker-host ${shellWord(host)}` : ''}`;

/** A word a shell reads back as written: quoted when it holds anything but the plainest characters. */
export const shellWord = (s: string): string => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
