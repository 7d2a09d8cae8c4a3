// Removes what dead runs left behind, found by label alone (docs/sandboxes.md): at the start of every run,
// and by `benchrig sandbox cleanup`.
import os from 'node:os';
import type Docker from 'dockerode';
import { DEFAULT_DEADLINE_MS, docker, statusOf, withDeadline } from './client.ts';
import { LABEL, runFilter } from './labels.ts';

export interface SweepOptions {
  /** Every benchrig container and volume, live runs included. */
  all?: boolean;
  /**
   * Everything of this run, but what another live process on this host made: a run's end-of-run
   * cleanup never removes the sandboxes of another process that carries the same run id.
   */
  runId?: string;
}

/** Is this container or volume's owner gone? Only this host's processes can be checked. */
export function ownerIsGone(labels: Record<string, string> | undefined, host = os.hostname()): boolean {
  if (!labels || labels[LABEL.host] !== host) return false;
  const pid = Number(labels[LABEL.pid]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  return !processAlive(pid);
}

/** Made by a live harness process of this host other than this one. */
export function ownedByAnotherLiveProcess(labels: Record<string, string> | undefined, host = os.hostname()): boolean {
  if (!labels || labels[LABEL.host] !== host) return false;
  const pid = Number(labels[LABEL.pid]);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid);
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: alive, just not ours
  }
}

/** Returns how many containers and volumes were removed. */
export async function sweep(opts: SweepOptions = {}, client: Docker = docker()): Promise<number> {
  const selected = (labels: Record<string, string> | undefined) =>
    opts.all || (opts.runId ? labels?.[LABEL.run] === opts.runId && !ownedByAnotherLiveProcess(labels) : ownerIsGone(labels));
  const filters = JSON.stringify(runFilter(opts.all ? undefined : opts.runId));
  let removed = 0;

  const containers = await withDeadline(client.listContainers({ all: true, filters }), DEFAULT_DEADLINE_MS, 'list containers');
  for (const info of containers.filter((c) => selected(c.Labels))) {
    if (await removeTolerant(() => client.getContainer(info.Id).remove({ force: true, v: true }), 'container')) removed++;
  }

  // Volumes after containers: a volume is in use until its containers are gone.
  const { Volumes } = await withDeadline(client.listVolumes({ filters }), DEFAULT_DEADLINE_MS, 'list volumes');
  for (const vol of (Volumes ?? []).filter((v) => selected(v.Labels ?? undefined))) {
    if (await removeTolerant(() => client.getVolume(vol.Name).remove(), 'volume')) removed++;
  }
  return removed;
}

/** True when removed by us; false when already gone or still in use (409: a live container holds it). */
async function removeTolerant(remove: () => Promise<unknown>, what: string): Promise<boolean> {
  try {
    await withDeadline(remove(), DEFAULT_DEADLINE_MS, `remove ${what}`);
    return true;
  } catch (err) {
    const status = statusOf(err);
    if (status === 404 || status === 409) return false;
    throw err;
  }
}
