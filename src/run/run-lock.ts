// One process per run folder. A run holds `<run>/.lock` (its pid, host and the process's start
// time) while it runs; `--resume` of a folder whose holder is still alive is refused (exit 2,
// naming the pid), since two processes finishing the same run would run trials twice, share one
// run id and remove each other's sandboxes. A holder that died (kill -9, a crash) leaves a stale
// lock, which the next --resume takes over. The start time tells a live holder from an unrelated
// process that got the same pid later.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { processAlive } from '../sandbox/index.ts';

interface RunOwner {
  pid: number;
  host: string;
  /** The process's start time in clock ticks after boot (Linux /proc), null elsewhere. */
  started: number | null;
}

const LOCK = '.lock';

/** Field 22 of /proc/<pid>/stat; null where there is no /proc or the process is gone. */
export function processStartTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count from after it
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

const thisOwner = (): RunOwner => ({
  pid: process.pid,
  host: hostname(),
  started: processStartTicks(process.pid),
});

/** Is the process that holds (or held) the run alive? Other hosts' processes cannot be checked: assumed alive. */
function ownerAlive(owner: Partial<RunOwner>): boolean {
  const pid = owner.pid;
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return false;
  if (owner.host && owner.host !== hostname()) return true;
  if (!processAlive(pid)) return false;
  if (owner.started == null) return true;
  const now = processStartTicks(pid);
  return now === null || now === owner.started;
}

export interface RunLock {
  release: () => void;
}

/**
 * Takes the run folder for this process. `what` names it in the refusal (`--resume DIR`).
 * `legacy` is run.json's record, for folders made before locks: `running` with a live pid refuses too.
 */
export function acquireRunLock(
  runDir: string,
  what: string,
  legacy?: { status?: unknown; pid?: unknown; host?: unknown },
): RunLock {
  const file = join(runDir, LOCK);
  const refuse = (o: Partial<RunOwner>) =>
    new BenchrigError(
      'usage',
      `${what}: refusing, the run is still going in process ${o.pid}${o.host && o.host !== hostname() ? ` on ${o.host}` : ''}; ` +
        `stop it first (Ctrl-C, or kill -INT ${o.pid}) or let it finish`,
    );
  const me = thisOwner();
  let hadLock = false;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(me)}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw refuse(readOwner(file) ?? {}); // taken between our two tries
        throw err;
      }
      hadLock = true;
      const holder = readOwner(file);
      if (holder && holder.pid !== process.pid && ownerAlive(holder)) throw refuse(holder);
      try {
        unlinkSync(file); // stale: its holder is gone
      } catch {
        // another resume removed it first: the retry settles who gets it
      }
    }
  }
  const release = () => {
    process.off('exit', release);
    try {
      if (readOwner(file)?.pid === process.pid) unlinkSync(file);
    } catch {
      // gone already
    }
  };
  // No lock before ours: the folder was made by a benchrig without locks; its run.json decides.
  if (
    !hadLock &&
    legacy?.status === 'running' &&
    typeof legacy.pid === 'number' &&
    legacy.pid !== process.pid &&
    ownerAlive({ pid: legacy.pid, host: legacy.host as string | undefined, started: null })
  ) {
    release();
    throw refuse({ pid: legacy.pid, host: legacy.host as string | undefined });
  }
  process.on('exit', release);
  return { release };
}

function readOwner(file: string): Partial<RunOwner> | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<RunOwner> | null;
  } catch {
    return null; // half-written by a process killed mid-write: stale
  }
}
