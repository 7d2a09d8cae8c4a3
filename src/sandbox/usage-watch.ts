// The watch behind `[sandbox] disk` (docs/sandboxes.md#disk), whatever measures it: a probe measured
// on a timer while the agent works and once more when it is done; past the bound the writer is
// stopped at once and the watch's signal aborts with a DiskLimitExceeded (an AGENT_ERROR with limit
// `disk`). Docker's probe is in disk.ts, Kubernetes' in kubernetes/disk.ts.
import { LimitExceeded } from '../errors.ts';
import type { DiskWatch } from './provider.ts';

/** How one sandbox's writes are measured and stopped. */
interface UsageProbe {
  /**
   * Bytes written so far. A failure is retried at the next tick; at the final measurement a
   * LimitExceeded it throws (the sandbox hid what it wrote) ends the trial, anything else is let go.
   */
  measure(final: boolean): Promise<number>;
  /** Stops whatever writes (the container killed, the pod's processes): before anything else looks. */
  stopWriter(): Promise<void>;
  /** The delay before the next tick. */
  intervalMs(): number;
  /** This failure says the sandbox is gone (the agent removed it, or cleanup ran): nothing left to watch. */
  gone(err: unknown): boolean;
}

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

export function watchUsage(probe: UsageProbe, limit: number, setting: string): DiskWatch {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let exceeded: LimitExceeded | null = null;
  let gone = false;

  const exceed = async (e: LimitExceeded): Promise<void> => {
    exceeded = e;
    await probe.stopWriter().catch(() => undefined);
    controller.abort(e);
  };

  /** Measures once; on passing the bound stops the writer, then aborts. */
  const measure = async (final = false): Promise<void> => {
    const bytes = await probe.measure(final);
    // A tick still measuring when the watch stopped must not touch the sandbox any more.
    if ((stopped && !final) || exceeded || bytes <= limit) return;
    await exceed(new DiskLimitExceeded(bytes, limit, setting));
  };

  const schedule = () => {
    if (stopped || exceeded || gone) return;
    timer = setTimeout(() => void tick(), probe.intervalMs());
    timer.unref(); // never what keeps a process alive
  };

  const tick = async () => {
    timer = undefined;
    try {
      await measure();
    } catch (err) {
      if (probe.gone(err)) gone = true;
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
      if (!exceeded && !gone)
        await measure(true).catch(async (err: unknown) => {
          if (err instanceof LimitExceeded && !exceeded) await exceed(err);
        });
      if (exceeded) throw exceeded;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
