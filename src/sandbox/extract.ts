// Extracting archives that come out of a sandbox: the agent controls them, so nothing in them is
// trusted (docs/sandboxes.md: only regular files and folders, no path outside the destination, size-capped).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import { SandboxError } from '../errors.ts';

export const DEFAULT_COPY_OUT_MAX_BYTES = 50 * 1024 * 1024;

export interface ExtractReport {
  files: number;
  dirs: number;
  bytes: number;
  /** Entries not written, with why: symlinks, links, devices, paths escaping dest, over the size cap. */
  skipped: { path: string; reason: string }[];
}

/**
 * Extract a tar stream from a container into `dest`, trusting nothing in it: only regular files
 * and folders are written; an absolute name or one with `..`, a link, a device or fifo, a path
 * through an existing symlink, or a file that would pass `maxBytes` in total is skipped and listed
 * in the report (extraction goes on). Written files get 0644/0755 and never follow a symlink.
 * `stripRoot` drops the archive's top folder (Docker names entries after the copied path), so a
 * folder's contents land in dest and a single file lands as dest/<name>.
 */
export async function extractUntrusted(
  archive: Readable,
  dest: string,
  opts: { maxBytes?: number; stripRoot?: boolean } = {},
): Promise<ExtractReport> {
  const maxBytes = opts.maxBytes ?? DEFAULT_COPY_OUT_MAX_BYTES;
  const root = path.resolve(dest);
  await fsp.mkdir(root, { recursive: true });
  const report: ExtractReport = { files: 0, dirs: 0, bytes: 0, skipped: [] };
  const extract = tar.extract();

  extract.on('entry', (header, body, next) => {
    const drain = (reason?: string) => {
      if (reason) report.skipped.push({ path: header.name, reason });
      body.once('end', () => next());
      body.resume();
    };
    void (async () => {
      const parts = safeParts(header.name, opts.stripRoot ?? false, header.type === 'directory');
      if (typeof parts === 'string') return drain(parts);
      if (header.type !== 'file' && header.type !== 'contiguous-file' && header.type !== 'directory') {
        return drain(`${header.type} entries are not copied out`);
      }
      const linked = await symlinkInPath(root, parts);
      if (linked) return drain(`path goes through the symlink ${linked}`);
      const target = path.join(root, ...parts);
      if (header.type === 'directory') {
        await fsp.mkdir(target, { recursive: true, mode: 0o755 });
        report.dirs++;
        return drain();
      }
      const size = header.size ?? 0;
      if (report.bytes + size > maxBytes) return drain(`over the ${maxBytes}-byte copy-out limit (${size} bytes)`);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
      const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
      const mode = (header.mode ?? 0) & 0o111 ? 0o755 : 0o644;
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(target, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode);
      } catch (err) {
        return drain(`cannot write: ${(err as Error).message}`);
      }
      await pipeline(body, handle.createWriteStream());
      await fsp.chmod(target, mode);
      report.files++;
      report.bytes += size;
      next();
    })().catch((err: Error) => next(err));
  });

  try {
    await pipeline(archive, extract);
  } catch (err) {
    throw new SandboxError(`copying out of the sandbox failed: ${(err as Error).message}`, err);
  }
  return report;
}

/** The entry's path as safe components under dest, or the reason it is refused. */
function safeParts(name: string, stripRoot: boolean, isDir: boolean): string[] | string {
  if (name.includes('\0')) return 'name contains a NUL byte';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.startsWith('\\')) return 'absolute path';
  const parts = name.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return 'path escapes the destination';
  if (!stripRoot) return parts;
  if (parts.length > 1) return parts.slice(1);
  return isDir ? [] : parts;
}

/** The first existing symlink on the way from root to the entry, if any (dest may hold old files). */
async function symlinkInPath(root: string, parts: string[]): Promise<string | null> {
  let cur = root;
  for (const part of parts) {
    cur = path.join(cur, part);
    try {
      if ((await fsp.lstat(cur)).isSymbolicLink()) return path.relative(root, cur);
    } catch {
      return null; // does not exist yet: nothing further down can be a symlink either
    }
  }
  return null;
}
