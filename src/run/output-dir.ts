// The output folder (`--output`, `[run] output`) and what can go wrong with it: checked before
// anything runs (exit 2, one line naming the path), and, once the run writes there, failures of
// the disk itself (full, gone read-only) turned into one line naming the file (exit 3).
import { randomBytes } from 'node:crypto';
import { statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BenchrigError } from '../errors.ts';

/** Errors of the disk or the file system, not of benchrig: a full disk, a quota, a read-only mount. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'EFBIG']);

const WHY: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
  EFBIG: 'file too large',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a parent is not a folder',
};

const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

export const isStorageError = (err: unknown): boolean => STORAGE_CODES.has(codeOf(err) ?? '');

/** What the error says about the disk, in words: "no space left on device (ENOSPC)". */
function storageReason(err: unknown): string {
  const code = codeOf(err);
  return code && WHY[code] ? `${WHY[code]} (${code})` : ((err as Error)?.message ?? String(err));
}

/** A failed write mid-run as the user's error: exit 3, naming the path (a run is not a usage error). */
export function storageFailure(path: string, err: unknown, after = ''): BenchrigError {
  return new BenchrigError('storage', `cannot write ${path}: ${storageReason(err)}${after ? `; ${after}` : ''}`);
}

/** For `.catch`: an errno of the disk as the user's error naming the path (exit 3); anything else as it was. */
export const asStorage =
  (path: string) =>
  (err: unknown): never => {
    throw isStorageError(err) ? storageFailure(path, err) : err;
  };

/**
 * Refuses (exit 2) an output folder the run could not write: a path that is a file, a parent that
 * is a file, a read-only, unwritable or full file system. Writes and removes one probe file;
 * a folder that does not exist yet is not made here (nothing is left behind on exit 2).
 */
export function checkOutputWritable(root: string, what = '--output'): void {
  const refuse = (why: string) => new BenchrigError('usage', `${what} ${root}: ${why}`);
  let probeIn = root;
  const st = statOrNull(root);
  if (st && !st.isDirectory()) throw refuse('is not a folder');
  if (!st) {
    // Missing folders are made by the run (run-dir.ts): the nearest one that exists must be a writable folder.
    let parent = dirname(root);
    let pst = statOrNull(parent);
    while (!pst && dirname(parent) !== parent) pst = statOrNull((parent = dirname(parent)));
    if (!pst?.isDirectory()) throw refuse(`its parent ${parent} is not a folder`);
    probeIn = parent;
  }
  const err = probeWrite(probeIn);
  if (err) throw refuse(`not writable: ${storageReason(err)}`);
}

/** Can a small file be written in `dir` right now? Null when it can, else the error. */
export function probeWrite(dir: string): unknown {
  const probe = join(dir, `.benchrig-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(probe, 'x'.repeat(4096));
    unlinkSync(probe);
    return null;
  } catch (err) {
    try {
      unlinkSync(probe);
    } catch {
      // never made
    }
    return err;
  }
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch (err) {
    if (codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR') return null;
    throw new BenchrigError('usage', `--output ${path}: ${storageReason(err)}`);
  }
}
