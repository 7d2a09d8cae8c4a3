// The storage driver's own quota for `[sandbox] disk`, where the daemon has one (docs/sandboxes.md#disk). Docker
// takes `HostConfig.StorageOpt.size` only on some drivers (overlay2 on xfs mounted with pquota,
// btrfs, zfs, devicemapper, windowsfilter) and refuses the create elsewhere, so each daemon is asked
// once per process: its driver from `docker info`, then, when the driver might, one probe create.
// The quota is a hard wall a little above the bound: the watcher (disk-watch.ts) still decides the
// verdict when the bound is passed; the wall only stops an agent that writes faster than it samples.
import type Docker from 'dockerode';
import { DEFAULT_DEADLINE_MS, statusOf, withDeadline } from './client.ts';
import { withHelperContainer } from './helper-container.ts';
import { buildLabels } from './labels.ts';
import type { SandboxLabels } from '../types.ts';

const QUOTA_DRIVERS = new Set(['btrfs', 'zfs', 'devicemapper', 'windowsfilter']);
const answers = new Map<string, Promise<boolean>>();

/** Whether a daemon's driver could take a size quota at all (before probing it). */
export function driverMayQuota(info: { Driver?: string; DriverStatus?: [string, string][] }): boolean {
  const driver = info.Driver ?? '';
  if (QUOTA_DRIVERS.has(driver)) return true;
  if (driver !== 'overlay2') return false;
  const backing = info.DriverStatus?.find(([k]) => k === 'Backing Filesystem')?.[1] ?? '';
  return /xfs/i.test(backing); // and mounted with pquota, which only the probe can tell
}

/** The wall: the bound plus 5% (at least 64 MiB), so the watcher sees the bound passed before writes fail. */
export const quotaBytes = (limit: number) => limit + Math.max(64 * 1024 ** 2, Math.round(limit * 0.05));

/**
 * Whether `client`'s daemon enforces StorageOpt size; cached per host key (one answer per daemon
 * and process). Never throws: a daemon that cannot say is treated as having no quota, and asked
 * again next time.
 */
export function storageQuota(client: Docker, hostKey: string, image: string, labels: SandboxLabels): Promise<boolean> {
  let answer = answers.get(hostKey);
  if (!answer) {
    answer = detect(client, image, labels).then(
      (yes) => yes,
      () => (answers.delete(hostKey), false),
    );
    answers.set(hostKey, answer);
  }
  return answer;
}

async function detect(client: Docker, image: string, labels: SandboxLabels): Promise<boolean> {
  const info = await withDeadline(
    client.info() as Promise<{ Driver?: string; DriverStatus?: [string, string][] }>,
    DEFAULT_DEADLINE_MS,
    'docker info',
  );
  if (!driverMayQuota(info)) return false;
  // Created, never started; labelled like a sandbox so that a crash here leaves nothing the sweep misses.
  const probe = {
    image,
    purpose: 'storage quota probe',
    labels: buildLabels({ ...labels, sessionId: `${labels.sessionId}.disk-probe`, keep: false }),
    storageOpt: { size: '64m' },
  };
  try {
    return await withHelperContainer(client, probe, async () => true);
  } catch (err) {
    const status = statusOf(err);
    // Refused: no quota here. No such image, or no answer: ask again next time.
    if (status !== undefined && status !== 404 && status >= 400 && status < 600) return false;
    throw err;
  }
}

/** Puts the quota on a sandbox's create options when its daemon has one. */
export async function withStorageQuota(
  options: Docker.ContainerCreateOptions,
  client: Docker,
  hostKey: string,
  limitBytes: number | null,
  labels: SandboxLabels,
): Promise<Docker.ContainerCreateOptions> {
  if (limitBytes === null || !options.Image) return options;
  if (!(await storageQuota(client, hostKey, options.Image, labels))) return options;
  return { ...options, HostConfig: { ...options.HostConfig, StorageOpt: { size: String(quotaBytes(limitBytes)) } } };
}

/** For tests: forget what every daemon answered. */
export const forgetQuotaAnswers = () => answers.clear();
