// run.json says `running` only while a process runs it (docs/reports.md#files). The run settles it at its end;
// every other way out of the process but SIGKILL (a second Ctrl-C's process.exit, an uncaught
// exception, a crash in a callback) passes through the 'exit' event, where it is settled
// synchronously. A full disk is planned for: a small reserve file is kept in the run folder and
// removed before the final writes, so that run.json and the report still fit.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { RunJson } from '../report/types.ts';
import { tempPathFor, writeJsonAtomic } from '../report/write.ts';

export type RunStatus = RunJson['status'];

/** The part of run.json this module settles. */
type RunJsonLike = Pick<RunJson, 'status' | 'finished_at'>;

/** Room kept for run.json and the report on a disk that fills up mid-run. */
const RESERVE_BYTES = 512 * 1024;
const RESERVE = '.reserve';

interface RunJsonGuard {
  /** Removes the reserve, frees the space for the final writes. Idempotent. */
  releaseReserve(): void;
  /** Writes run.json as it is now: atomically, or in place when the disk has no room for a temp file. */
  write(): Promise<void>;
  dispose(): void;
}

export function guardRunJson(runDir: string, runJson: RunJsonLike, statusOnExit: () => RunStatus): RunJsonGuard {
  const path = join(runDir, 'run.json');
  const reserve = join(runDir, RESERVE);
  try {
    // random bytes: a compressing file system would keep zeros in no space at all
    writeFileSync(reserve, randomBytes(RESERVE_BYTES));
  } catch {
    // no room even for the reserve: the writes below fall back to writing in place
  }
  const releaseReserve = () => {
    try {
      unlinkSync(reserve);
    } catch {
      // already gone
    }
  };
  const onExit = () => {
    if (runJson.status !== 'running') return releaseReserve();
    runJson.status = statusOnExit();
    runJson.finished_at = new Date().toISOString();
    releaseReserve();
    writeRunJsonSync(path, runJson);
  };
  process.on('exit', onExit);
  return {
    releaseReserve,
    async write() {
      try {
        await writeJsonAtomic(path, runJson);
      } catch {
        releaseReserve();
        writeRunJsonSync(path, runJson);
      }
    },
    dispose: () => void process.off('exit', onExit),
  };
}

/** Synchronous (it runs in the 'exit' event): atomic when it can be, in place when it must. Never throws. */
function writeRunJsonSync(path: string, value: unknown): boolean {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const tmp = tempPathFor(path);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
    return true;
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // never made
    }
  }
  // A full disk has no block for a temp file, but run.json's own blocks can be overwritten.
  try {
    const fd = openSync(path, 'r+');
    try {
      const buf = Buffer.from(text);
      // only within the blocks the file has: a write past them could stop half-way on a full disk
      const { blocks } = fstatSync(fd);
      if (blocks * 512 < buf.length) return false;
      writeSync(fd, buf, 0, buf.length, 0);
      ftruncateSync(fd, buf.length);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch {
    return false;
  }
}
