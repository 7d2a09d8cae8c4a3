// `[sandbox] disk` (docs/sandboxes.md#disk): a watch over what one sandbox has written while its agent works.
// Measured from outside the container every second or two (disk-usage.ts); past the bound the
// container is killed at once (so whatever writes stops writing) and the watch's signal aborts
// with a DiskLimitExceeded, which ends the trial as AGENT_ERROR with limit `disk`. Where the
// driver has a quota, the sandbox also gets one just above the bound (disk-quota.ts).
import type Docker from 'dockerode';
import { LimitExceeded } from '../errors.ts';
import { statusOf, withDeadline } from './client.ts';
import { expectOwnKill } from './daemon-watch.ts';
import { diskMeter, type DiskMeter } from './disk-usage.ts';
import { DockerSandbox, parseMemory } from './docker.ts';
import type { Sandbox } from './types.ts';

/** How often a sandbox is measured: the host walk is cheap; SizeRw makes the daemon walk, so less often. */
export const WATCH_INTERVAL_MS = { walk: 1_000, size_rw: 2_000 } as const;

/** A daemon too slow to kill the container must not hold the trial's stop for long. */
const KILL_DEADLINE_MS = 10_000;

/** "2g" -> bytes, as `[sandbox] memory` is read. */
export const parseDisk = (text: string): number => parseMemory(text);

export class DiskLimitExceeded extends LimitExceeded {
  constructor(value: number, limit: number, setting: string) {
    super('disk', value, limit);
    this.name = 'DiskLimitExceeded';
    this.message = `the sandbox wrote ${formatBytes(value)}, past its disk limit of ${formatBytes(limit)} ([sandbox] disk = "${setting}"); the trial was stopped`;
  }
}

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

export interface DiskWatch {
  /** Aborts with the DiskLimitExceeded when the bound is passed. */
  readonly signal: AbortSignal;
  readonly exceeded: DiskLimitExceeded | null;
  /** One more measurement now (the agent may have written since the last tick); throws when past the bound. */
  check(): Promise<void>;
  /** Ends the watch: no timer, no measurement left running. */
  stop(): void;
}

export interface WatchOptions {
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
  const controller = new AbortController();
  let meter: DiskMeter | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let exceeded: DiskLimitExceeded | null = null;
  let gone = false;

  // Looked up at once, while the agent works, so that the check at the end of a short phase only walks.
  let pending: Promise<DiskMeter> | null = diskMeter(client, container);
  pending.catch(() => undefined); // a failure is met (and retried) by the first measurement

  /** Measures once; on passing the bound kills the container, then aborts. */
  const measure = async (final = false): Promise<void> => {
    if (!meter) {
      const p = pending ?? diskMeter(client, container);
      pending = null;
      meter = await p;
    }
    const bytes = await meter.measure();
    // A tick still measuring when the watch stopped must not touch the sandbox any more.
    if ((stopped && !final) || exceeded || bytes <= limit) return;
    exceeded = new DiskLimitExceeded(bytes, limit, setting);
    // Stop the writer before anything else looks at the sandbox (grading, a kept sandbox).
    expectOwnKill(container.id);
    await withDeadline(container.kill(), KILL_DEADLINE_MS, 'kill container').catch(() => undefined);
    controller.abort(exceeded);
  };

  const schedule = () => {
    if (stopped || exceeded || gone) return;
    timer = setTimeout(() => void tick(), meter?.how === 'walk' || !meter ? intervals.walk : intervals.size_rw);
    timer.unref(); // never what keeps a process alive
  };

  const tick = async () => {
    timer = undefined;
    try {
      await measure();
    } catch (err) {
      // The container is gone (the agent killed it, or cleanup ran): nothing left to watch.
      if (statusOf(err) === 404) gone = true;
      // Anything else (a slow daemon) is retried on the next tick.
    }
    schedule();
  };

  schedule();
  return {
    signal: controller.signal,
    get exceeded() {
      return exceeded;
    },
    async check() {
      if (!exceeded && !gone) await measure(true).catch(() => undefined);
      if (exceeded) throw exceeded;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
