// The temporary build contexts prepare.sh fills (`$TMPDIR/benchrig-build-<pid>-XXXXXX`) and the
// prepare.sh processes themselves. A build ends in `finally`; a process that exits in the middle
// (a second Ctrl-C's process.exit, an uncaught exception) removes them in the 'exit' event; one
// killed outright leaves them to the next run's sweep and `benchrig sandbox cleanup`, which
// remove every such folder whose process is gone.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from './process-alive.ts';

const BUILD_DIR_PREFIX = 'benchrig-build-';
/** A folder named before the pid was part of the name: removed once no build could still use it. */
const LEGACY_MAX_AGE_MS = 2 * 60 * 60_000;

const liveDirs = new Set<string>();
const liveGroups = new Set<number>();
let hooked = false;

function onExit(): void {
  for (const pgid of liveGroups) killGroup(pgid);
  for (const dir of liveDirs) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // the sweep gets it
    }
  }
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', onExit);
}

/** A fresh build context, removed by `release` (or at exit, whatever happens first). */
export async function makeBuildDir(): Promise<{ dir: string; release(): Promise<void> }> {
  hook();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `${BUILD_DIR_PREFIX}${process.pid}-`));
  liveDirs.add(dir);
  return {
    dir,
    async release() {
      await fsp.rm(dir, { recursive: true, force: true });
      liveDirs.delete(dir);
    },
  };
}

/** A process group (prepare.sh and whatever it started) killed at exit if it is still there. */
export function trackGroup(pgid: number): { release(): void } {
  hook();
  liveGroups.add(pgid);
  return { release: () => void liveGroups.delete(pgid) };
}

/** SIGKILL to the whole group; a group already gone is fine. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone
  }
}

/** Removes build folders left by processes that are gone; returns how many. */
export async function sweepBuildDirs(tmp = os.tmpdir(), now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(tmp);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(BUILD_DIR_PREFIX)) continue;
    const full = path.join(tmp, name);
    const m = /^benchrig-build-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    let stale: boolean;
    if (m) stale = Number(m[1]) !== process.pid && !processAlive(Number(m[1]));
    else {
      const st = await fsp.stat(full).catch(() => null);
      stale = !!st && now - st.mtimeMs > LEGACY_MAX_AGE_MS;
    }
    if (!stale || liveDirs.has(full)) continue;
    await fsp.rm(full, { recursive: true, force: true }).then(
      () => removed++,
      () => {},
    );
  }
  return removed;
}
