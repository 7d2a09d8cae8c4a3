// `[sandbox] disk` on Kubernetes (docs/kubernetes.md#disk). The kubelet evicts a pod past its
// `ephemeral-storage` limit, but only on its own cycle (about 10 s), so an agent that writes past
// the bound and answers at once would be graded before it. The harness measures itself, as on
// Docker: from inside the pod, with the toolbox's busybox, the files of the pod's root filesystem
// changed since its container was made (their ctime, which no process can set back, is after the
// start mark: sandbox.ts START_MARK), each counted once by the larger of its length and its blocks, as
// Docker's SizeRw and disk-usage.ts count. The measurement runs beside the agent's processes, as
// root without capabilities: a folder it may not read, or a measurement that dies, at the end of
// the agent's turn is the agent hiding what it wrote.
import { LimitExceeded, SandboxError } from '../../errors.ts';
import { parseDisk } from '../docker/disk.ts';
import type { DiskWatch } from '../provider.ts';
import type { ExecResult } from '../types.ts';
import { formatBytes, watchUsage } from '../usage-watch.ts';
import type { PodSandbox } from './sandbox.ts';

/** An exec per measurement: every 2 s, as Docker's SizeRw; less often where a walk is long. */
const INTERVAL_MS = 2_000;
/**
 * The pause after a measurement, in units of its own duration: the walk covers the image's files
 * too (a large repository's image holds 100,000 and more), so it takes at most a tenth of the pod's time.
 */
const PAUSE_PER_WALK = 9;
/** One measurement's deadline (inside the pod, under `timeout -k`). */
const MEASURE_TIMEOUT_MS = 60_000;

/**
 * Prints the bytes of the root filesystem changed since the start mark ($1: a ctime as `stat -c %z`
 * prints it, with nanoseconds; compared as text: one clock, one format). Files are named to `stat`
 * as arguments, never printed: a name cannot forge a line.
 */
const MEASURE = `set -o pipefail
find / -xdev -exec stat -c '%z|%h|%d:%i|%s|%b' {} + | awk -F'|' -v m="$1" '
  $1 > m { if ($2 > 1 && seen[$3]++) next; b = $5 * 512; t += ($4 > b ? $4 : b) }
  END { printf "%.0f\\n", t }'`;

/** The sandbox hid part of what it wrote from the measurement (or killed it) at the end of its turn. */
class DiskUnmeasurable extends LimitExceeded {
  constructor(counted: number, limit: number, setting: string, why: string) {
    super('disk', counted, limit);
    this.name = 'DiskUnmeasurable';
    this.message = `the sandbox's disk use could not be measured against its limit of ${formatBytes(limit)} ([sandbox] disk = "${setting}"): ${why}; the trial was stopped`;
  }
}

/** Watches a pod with the toolbox and its start mark; null without (nothing trusted to measure with or from). */
export function watchPodDisk(sandbox: PodSandbox, setting: string): DiskWatch | null {
  const mark = sandbox.startMark;
  if (!sandbox.target.toolbox || !mark) return null;
  const limit = parseDisk(setting);
  let lastMs = 0;
  return watchUsage(
    {
      measure: async (final) => {
        const t0 = performance.now();
        const res = await sandbox.exec(['sh', '-c', MEASURE, 'sh', mark], {
          trusted: true,
          cwd: '/',
          timeoutMs: MEASURE_TIMEOUT_MS,
        });
        lastMs = performance.now() - t0;
        const out = res.stdout.trim();
        const counted = /^\d+$/.test(out) ? Number(out) : NaN;
        const why = unmeasured(res, counted);
        if (!why) return counted;
        if (counted > limit) return counted; // past the bound even without what it hid
        if (final) throw new DiskUnmeasurable(Number.isFinite(counted) ? counted : 0, limit, setting, why);
        throw new Error(why); // mid-turn: tried again at the next tick
      },
      stopWriter: () => sandbox.restart(), // every process but the pod's idle PID 1
      intervalMs: () => Math.max(INTERVAL_MS, PAUSE_PER_WALK * lastMs),
      // The API server refused the exec itself: the pod is gone or has ended.
      gone: (err) => err instanceof SandboxError && err.daemon === 'answered',
    },
    limit,
    setting,
  );
}

/** A file removed while `find` walked (the agent still works) is not a failure; anything else is. */
const VANISHED = /no such file or directory/i;

/** Why a measurement does not count (null: it does). */
function unmeasured(res: ExecResult, counted: number): string | null {
  const errors = res.stderr.split('\n').filter((l) => l.trim() && !VANISHED.test(l));
  if (errors.some((l) => /permission denied/i.test(l))) return 'it holds a folder the harness may not read';
  if (res.timedOut) return `the measurement took over ${MEASURE_TIMEOUT_MS / 1000} s`;
  if (!Number.isFinite(counted)) return `the measurement printed no total (exit ${res.exitCode})`;
  if (res.exitCode === 0 || (res.exitCode === 1 && errors.length === 0)) return null;
  return `the measurement ended with exit ${res.exitCode}${errors.length ? `: ${errors[0].slice(0, 200)}` : ''}`;
}
