// Whether the process that owns a run (its `benchrig.pid` label, its run folder's lock) is still
// there: the sweeps remove what a gone one left (docs/sandboxes.md). Only this host's can be checked.
import { existsSync, readFileSync } from 'node:fs';

/**
 * Whether `pid` is a live process of this host. A zombie (killed, not yet reaped by its parent) still
 * answers kill(pid, 0) but will never clean up: on Linux its state in /proc says so, and it counts as gone.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: alive, just not ours
  }
  return !isZombie(pid);
}

/** State Z (zombie) or X (dead) in /proc/<pid>/stat, or gone since; false where there is no /proc. */
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return existsSync('/proc/self/stat'); // with a /proc: gone since kill(pid, 0) answered
  }
  // The command name (field 2) is in parentheses and may hold spaces: the state follows the last one.
  const state = stat[stat.lastIndexOf(')') + 2];
  return state === 'Z' || state === 'X';
}
