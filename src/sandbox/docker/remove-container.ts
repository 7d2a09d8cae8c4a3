// A container's removal that is over when the container is. Docker answers a second removal with
// 409 ("removal … is already in progress") while another caller's is under way; until that one
// ends the container still holds its volumes, so a volume removed right after is refused as in use
// and left behind. A removal that meets one under way waits for the container to be gone.
import type Docker from 'dockerode';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_DEADLINE_MS, statusOf, withDeadline } from './client.ts';

const POLL_MS = 50;
/**
 * How long another caller's removal is waited for: a removal takes well under a second on a busy
 * daemon, and one stuck in "removing" (a daemon's fault) must not hold a trial's cleanup for long.
 */
const OTHER_REMOVAL_MS = 10_000;

/**
 * Removes container `id` with its anonymous volumes. True when this call removed it; false when it
 * was gone already or another removal under way ended in time (OTHER_REMOVAL_MS, within `ms`).
 * Throws what the daemon said otherwise, or its 409 when the other removal had not ended by then.
 */
export async function removeContainer(client: Docker, id: string, ms = DEFAULT_DEADLINE_MS): Promise<boolean> {
  const container = client.getContainer(id);
  try {
    await withDeadline(container.remove({ force: true, v: true }), ms, `remove ${id.slice(0, 12)}`);
    return true;
  } catch (err) {
    const status = statusOf(err);
    if (status === 404) return false;
    if (status === 409 && (await goneBy(container, performance.now() + Math.min(ms, OTHER_REMOVAL_MS)))) return false;
    throw err;
  }
}

/** Whether the container is gone (inspect answers 404) by `end` (a performance.now() time). */
async function goneBy(container: Docker.Container, end: number): Promise<boolean> {
  for (;;) {
    const left = end - performance.now();
    if (left <= 0) return false;
    const status = await withDeadline(container.inspect(), left, 'inspect').then(
      () => 200,
      (err: unknown) => statusOf(err) ?? 0,
    );
    if (status === 404) return true;
    await sleep(Math.min(POLL_MS, Math.max(0, end - performance.now())));
  }
}
