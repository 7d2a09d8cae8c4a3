// Extracting archives that come out of a sandbox: the agent controls them, so nothing in them is
// trusted (docs/sandboxes.md: only regular files and folders, no path outside the destination, size-capped).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import { SandboxError } from '../errors.ts';

const DEFAULT_COPY_OUT_MAX_BYTES = 50 * 1024 * 1024;
/** Entries (files, folders, skipped ones) read before a copy-out stops: each costs a few host syscalls. */
const DEFAULT_COPY_OUT_MAX_ENTRIES = 10_000;
/** Longest path (in bytes, under dest) written: deeper or longer ones are skipped, not failed on. */
const MAX_COPY_OUT_PATH_BYTES = 1024;
/** How long the rest of an archive is read, past the entry bound, only to say how much was left. */
const COUNT_REST_MS = 5_000;

export interface ExtractReport {
  files: number;
  dirs: number;
  bytes: number;
  /** Entries not written, with why: symlinks, links, devices, paths escaping dest, over the size cap. */
  skipped: { path: string; reason: string }[];
  /** Set when extraction stopped before the archive's end (the entry bound, a deadline): what and how much was left. */
  stopped?: string;
}

interface ExtractOptions {
  maxBytes?: number;
  maxEntries?: number;
  stripRoot?: boolean;
  /** Stops the extraction where it is (a deadline, the trial stopped); its reason's message says why. */
  signal?: AbortSignal;
}

/**
 * Extract a tar stream from a container into `dest`, trusting nothing in it: only regular files
 * and folders are written; an absolute name or one with `..`, a link, a device or fifo, a path
 * through an existing symlink, a path over MAX_COPY_OUT_PATH_BYTES, or a file that would pass
 * `maxBytes` in total is skipped and listed in the report (extraction goes on). Past `maxEntries`
 * entries, or when `signal` aborts, it stops: the archive is destroyed and `stopped` says so.
 * Written files get 0644/0755 and never follow a symlink. `stripRoot` drops the archive's top
 * folder (Docker names entries after the copied path), so a folder's contents land in dest and a
 * single file lands as dest/<name>.
 */
export async function extractUntrusted(
  archive: Readable,
  dest: string,
  opts: ExtractOptions = {},
): Promise<ExtractReport> {
  const maxBytes = opts.maxBytes ?? DEFAULT_COPY_OUT_MAX_BYTES;
  const maxEntries = opts.maxEntries ?? DEFAULT_COPY_OUT_MAX_ENTRIES;
  const root = path.resolve(dest);
  await fsp.mkdir(root, { recursive: true });
  const report: ExtractReport = { files: 0, dirs: 0, bytes: 0, skipped: [] };
  const extract = tar.extract();
  const rest = new RestCounter(maxEntries);
  const dirs = new Set<string>([root]);
  let inflight: Promise<void> = Promise.resolve();
  let counting: NodeJS.Timeout | undefined;

  const stop = (why: string) => {
    rest.stoppedBy ??= why;
    archive.destroy();
    extract.destroy();
  };
  const onAbort = () => stop((opts.signal?.reason as Error | undefined)?.message ?? 'stopped');
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  extract.on('entry', (header, body, next) => {
    // Past the bound nothing is written: the rest is only counted, for a short while.
    if (rest.over()) {
      counting ??= setTimeout(() => stop(`counting the rest took over ${COUNT_REST_MS / 1000} s`), COUNT_REST_MS);
      return void drained(body).then(() => next());
    }
    const skip = (reason: string) => (report.skipped.push({ path: header.name, reason }), drained(body));
    inflight = writeEntry(root, header, body, {
      stripRoot: opts.stripRoot ?? false,
      maxBytes,
      report,
      dirs,
      skip,
    }).then(
      () => next(),
      (err: Error) => next(err),
    );
  });

  try {
    if (opts.signal?.aborted) onAbort();
    else await pipeline(archive, extract);
  } catch (err) {
    if (!rest.stoppedBy) throw new SandboxError(`copying out of the sandbox failed: ${(err as Error).message}`, err);
  } finally {
    clearTimeout(counting);
    opts.signal?.removeEventListener('abort', onAbort);
    await inflight.catch(() => {}); // a file being written when it stopped: nothing goes on after we return
  }
  const stopped = rest.describe();
  if (stopped) report.stopped = stopped;
  return report;
}

/** Resolves once an entry's body has been read to its end (or destroyed). */
function drained(body: EntryBody): Promise<void> {
  return new Promise((resolve) => {
    body.once('end', resolve);
    body.once('close', resolve);
    body.once('error', () => resolve());
    body.resume();
  });
}

/** Entries seen, and what is left past the bound (counted, not written). */
class RestCounter {
  seen = 0;
  counted = 0;
  stoppedBy?: string;
  constructor(private readonly max: number) {}
  over(): boolean {
    if (++this.seen <= this.max) return false;
    this.counted++;
    return true;
  }
  /** Why extraction did not reach the archive's end, and how much it left, or undefined. */
  describe(): string | undefined {
    if (this.counted > 0) {
      const more = this.stoppedBy ? `at least ${this.counted}` : String(this.counted);
      return `stopped after ${this.max} entries (the copy-out limit); ${more} more not copied`;
    }
    if (this.stoppedBy) return `stopped after ${this.seen} entries (${this.stoppedBy}); the rest not copied`;
    return undefined;
  }
}

/** An entry's body as tar-stream gives it (a streamx stream). */
type EntryBody = tar.ExtractEvents['entry'][1];

interface EntryContext {
  stripRoot: boolean;
  maxBytes: number;
  report: ExtractReport;
  /** Folders under dest this extraction made or found real (no symlink on the way): not looked at again. */
  dirs: Set<string>;
  /** Lists the entry as skipped, with why, and reads past its body. */
  skip: (reason: string) => Promise<void>;
}

/** One entry within the entry bound: written if safe, else skipped with the reason. */
async function writeEntry(root: string, header: tar.Header, body: EntryBody, c: EntryContext): Promise<void> {
  const parts = safeParts(header.name, c.stripRoot, header.type === 'directory');
  if (typeof parts === 'string') return c.skip(parts);
  if (header.type !== 'file' && header.type !== 'contiguous-file' && header.type !== 'directory') {
    return c.skip(`${header.type} entries are not copied out`);
  }
  const linked = await symlinkInPath(root, parts, c.dirs);
  if (linked) return c.skip(`path goes through the symlink ${linked}`);
  const target = path.join(root, ...parts);
  if (header.type === 'directory') {
    await makeDir(root, target, c.dirs);
    c.report.dirs++;
    return drained(body);
  }
  const size = header.size ?? 0;
  if (c.report.bytes + size > c.maxBytes) return c.skip(`over the ${c.maxBytes}-byte copy-out limit (${size} bytes)`);
  await makeDir(root, path.dirname(target), c.dirs);
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
  const mode = (header.mode ?? 0) & 0o111 ? 0o755 : 0o644;
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(target, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode);
  } catch (err) {
    return c.skip(`cannot write: ${(err as Error).message}`);
  }
  try {
    await handle.chmod(mode);
    if (size === 0)
      await Promise.all([drained(body), handle.close()]); // many empty files are the cheap attack: no stream each
    else await pipeline(body, handle.createWriteStream());
  } catch (err) {
    await handle.close().catch(() => {});
    await fsp.rm(target, { force: true }); // cut short (the copy stopped): no truncated file left behind
    throw err;
  }
  c.report.files++;
  c.report.bytes += size;
}

/** mkdir -p, once per folder: it and its parents are then known. */
async function makeDir(root: string, dir: string, known: Set<string>): Promise<void> {
  if (known.has(dir)) return;
  await fsp.mkdir(dir, { recursive: true, mode: 0o755 });
  for (let d = dir; d !== root && d.startsWith(root) && !known.has(d); d = path.dirname(d)) known.add(d);
}

/** The entry's path as safe components under dest, or the reason it is refused. */
function safeParts(name: string, stripRoot: boolean, isDir: boolean): string[] | string {
  if (name.includes('\0')) return 'name contains a NUL byte';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.startsWith('\\')) return 'absolute path';
  const parts = name.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return 'path escapes the destination';
  if (Buffer.byteLength(name) > MAX_COPY_OUT_PATH_BYTES) return `path longer than ${MAX_COPY_OUT_PATH_BYTES} bytes`;
  if (!stripRoot) return parts;
  if (parts.length > 1) return parts.slice(1);
  return isDir ? [] : parts;
}

/**
 * The first existing symlink on the way from root to the entry, if any (dest may hold old files).
 * Folders in `known` (made or checked by this extraction) are not looked at again.
 */
async function symlinkInPath(root: string, parts: string[], known: Set<string>): Promise<string | null> {
  let cur = root;
  let i = 0;
  for (; i < parts.length - 1 && known.has(path.join(cur, parts[i])); i++) cur = path.join(cur, parts[i]);
  for (; i < parts.length; i++) {
    cur = path.join(cur, parts[i]);
    try {
      if ((await fsp.lstat(cur)).isSymbolicLink()) return path.relative(root, cur);
    } catch {
      return null; // does not exist yet: nothing further down can be a symlink either
    }
  }
  return null;
}
