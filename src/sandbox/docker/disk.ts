// `[sandbox] disk` (docs/sandboxes.md#disk): a watch over what one sandbox has written while its agent works.
// Measured from outside the container every second or two (disk-usage.ts); past the bound the
// container is killed at once (so whatever writes stops writing) and the watch's signal aborts
// with a DiskLimitExceeded, which ends the trial as AGENT_ERROR with limit `disk`. Where the
// driver has a quota, the sandbox also gets one just above the bound (disk-quota.ts).
import type Docker from 'dockerode';
import { statusOf, withDeadline } from './client.ts';
import { expectOwnKill } from './daemon-watch.ts';
import { diskMeter, type DiskMeter } from './disk-usage.ts';
import { DockerSandbox, parseMemory } from './sandbox.ts';
import type { DiskWatch } from '../provider.ts';
import type { Sandbox } from '../types.ts';
import { watchUsage } from '../usage-watch.ts';

export { DiskLimitExceeded, formatBytes } from '../usage-watch.ts';

/** How often a sandbox is measured: the host walk is cheap; SizeRw makes the daemon walk, so less often. */
const WATCH_INTERVAL_MS = { walk: 1_000, size_rw: 2_000 } as const;

/** A daemon too slow to kill the container must not hold the trial's stop for long. */
const KILL_DEADLINE_MS = 10_000;

/** "2g" -> bytes, as `[sandbox] memory` is read. */
export const parseDisk = (text: string): number => parseMemory(text);

interface WatchOptions {
  intervalMs?: { walk: number; size_rw: number };
}

/** Watches a Docker sandbox; null for any other kind of sandbox (nothing to measure it with). */
export function startDiskWatch(sandbox: Sandbox, setting: string, opts: WatchOptions = {}): DiskWatch | null {
  if (!(sandbox instanceof DockerSandbox)) return null;
  return watchContainer(sandbox.client, sandbox.container, parseDisk(setting), setting, opts);
}

export function watchContainer(
  client: Docker,
  container: Docker.Container,
  limit: number,
  setting: string,
  opts: WatchOptions = {},
): DiskWatch {
  const intervals = opts.intervalMs ?? WATCH_INTERVAL_MS;
  let meter: DiskMeter | null = null;
  // Looked up at once, while the agent works, so that the check at the end of a short phase only walks.
  let pending: Promise<DiskMeter> | null = diskMeter(client, container);
  pending.catch(() => undefined); // a failure is met (and retried) by the first measurement
  return watchUsage(
    {
      async measure() {
        if (!meter) {
          const p = pending ?? diskMeter(client, container);
          pending = null;
          meter = await p;
        }
        return meter.measure();
      },
      async stopWriter() {
        expectOwnKill(container.id);
        await withDeadline(container.kill(), KILL_DEADLINE_MS, 'kill container');
      },
      intervalMs: () => (meter?.how === 'walk' || !meter ? intervals.walk : intervals.size_rw),
      gone: (err) => statusOf(err) === 404,
    },
    limit,
    setting,
  );
}
