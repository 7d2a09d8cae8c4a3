// The agent phase under `[sandbox] disk` (docs/sandboxes.md#disk): that is where the agent writes, so its sandbox
// is watched for exactly that long. Past the bound the phase's signal aborts with a
// DiskLimitExceeded (an AGENT_ERROR for the lifecycle) and the trial's `metadata.limit` records it.
import { sandboxSpecOf } from './per-trial.ts';
import type { Session } from './session.ts';

interface DiskLimitRecord {
  kind: 'disk';
  value: number;
  limit: number;
}

const hits = new WeakMap<Session, DiskLimitRecord>();

/** The disk limit this trial passed, for `metadata.limit`; null when it did not. */
export const diskLimitOf = (s: Session): DiskLimitRecord | null => hits.get(s) ?? null;

/**
 * Runs `phase` with a signal that also aborts when the sandbox passes its disk bound. A phase that
 * ends on its own is measured once more, so a burst of writes just before it ended is not missed.
 */
export async function withinDiskLimit<T>(s: Session, phase: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const setting = sandboxSpecOf(s.run, s.input)?.disk;
  if (!setting || !s.sandbox || !s.provider) return phase(s.abort.signal);
  const watch = s.provider.watchDisk(s.sandbox, setting);
  if (!watch) return phase(s.abort.signal);
  try {
    const out = await phase(AbortSignal.any([s.abort.signal, watch.signal]));
    await watch.check();
    return out;
  } finally {
    watch.stop();
    const e = watch.exceeded;
    if (e) {
      hits.set(s, { kind: 'disk', value: e.value, limit: e.limit });
      s.recorder.log('warn', e.message);
      s.recorder.record({ type: 'limit', kind: 'disk', value: e.value, limit: e.limit });
    }
  }
}
