// Where a sample's `files` and `tests` may point (docs/benchmarks.md#paths-in-files-and-tests): map keys are paths under the sandbox's
// workdir (or its .tests folder), a folder is one inside the benchmark folder. A dataset row is
// as untrusted as the benchmark it ships with: a key like "../../etc/x", an absolute key, or a
// folder that leads (itself or through a symlink inside it) out of the benchmark folder would put
// files where the row has no business, or copy the host's files into the sandbox. Refused at load.
import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../paths.ts';

/** Why `key` is not a path inside its destination folder, or null when it is one. */
export function badFileKey(key: string): string | null {
  const slashed = key.replace(/\\/g, '/'); // the copy into the sandbox reads a backslash as a separator
  if (slashed.trim() === '') return 'is empty';
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed))
    return 'is an absolute path (keys are relative to the workdir)';
  const norm = path.posix.normalize(slashed);
  if (norm === '.' || norm === './') return 'names the destination folder itself, not a file in it';
  if (norm === '..' || norm.startsWith('../')) return 'leads outside the workdir';
  return null;
}

/** Why a workdir is not a usable absolute path in the sandbox, or null. */
export function badWorkdir(workdir: string): string | null {
  if (!path.posix.isAbsolute(workdir)) return `"${workdir}" is not an absolute path (e.g. "/workspace")`;
  if (workdir.split('/').includes('..')) return `"${workdir}" has a ".." segment`;
  return null;
}

/**
 * Why the folder `rel` (relative to the benchmark folder `baseDir`) is not a folder inside it whose
 * symlinks all stay inside it, or null. Symlinks are judged by where they point on this machine,
 * both as written and (when the target exists) after every link on the way is followed.
 */
export function badFolder(baseDir: string, rel: string): string | null {
  if (path.isAbsolute(rel) || /^[A-Za-z]:/.test(rel))
    return `names folder "${rel}", an absolute path (folders are relative to the benchmark folder)`;
  const base = realpath(baseDir) ?? path.resolve(baseDir);
  const abs = path.resolve(baseDir, rel);
  if (!isInside(base, path.resolve(base, rel))) return `names folder "${rel}", which is outside the benchmark folder`;
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return `names folder "${rel}", which does not exist under ${baseDir}`;
  const real = realpath(abs);
  if (!real || !isInside(base, real))
    return `names folder "${rel}", which leads outside the benchmark folder${st.isSymbolicLink() ? ' (it is a symlink)' : ''}`;
  if (!lstatSync(real).isDirectory()) return `names "${rel}", which is not a folder`;
  const link = escapingLink(base, real);
  if (link)
    return `names folder "${rel}", which contains a symlink leading outside the benchmark folder: ${path.relative(real, link.at) || '.'} -> ${link.target}`;
  return null;
}

function escapingLink(base: string, dir: string): { at: string; target: string } | null {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      const target = readlinkSync(full);
      const written = path.resolve(dir, target);
      const real = realpath(full);
      if (!isInside(base, written) || (real !== null && !isInside(base, real))) return { at: full, target };
    } else if (entry.isDirectory()) {
      const found = escapingLink(base, full);
      if (found) return found;
    }
  }
  return null;
}

function realpath(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}
