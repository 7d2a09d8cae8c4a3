// Files into and out of a container through Docker's archive API. What goes in is ours (root-owned,
// sane modes); what comes out is the agent's and untrusted: see extractUntrusted.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import * as tar from 'tar-stream';
import { SandboxError } from '../errors.ts';
import { DEFAULT_DEADLINE_MS, dockerMessage, statusOf, withDeadline } from './client.ts';

export const DEFAULT_COPY_OUT_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_READ_MAX_BYTES = 10 * 1024 * 1024;

type Content = string | Uint8Array;

/** Container path for `p`, relative paths resolved against the workdir. */
export const inContainer = (workdir: string, p: string) => path.posix.resolve(workdir, p);

/**
 * Copy a host folder's contents, or a map of relative path -> content, under `dest`. The archive is
 * extracted at "/" with full paths and no entries for dest's ancestors: Docker creates missing
 * parents (root, 0755) and existing ones (/tmp's 1777) keep their modes.
 */
export async function copyIn(container: Docker.Container, src: string | Record<string, Content>, dest: string): Promise<void> {
  const root = dest.replace(/^\/+/, '');
  const pack = tar.pack();
  const filling = (typeof src === 'string' ? packFolder(pack, src, root) : packMap(pack, src, root)).then(
    () => pack.finalize(),
    (err) => pack.destroy(err),
  );
  try {
    await withDeadline(container.putArchive(pack as unknown as NodeJS.ReadableStream, { path: '/' }), DEFAULT_DEADLINE_MS * 4, `copy into ${dest}`);
    await filling;
  } catch (err) {
    pack.destroy();
    if (err instanceof SandboxError) throw err;
    throw new SandboxError(`copying into ${dest} in the sandbox failed: ${dockerMessage(err)}`, err);
  }
}

export async function writeFile(container: Docker.Container, file: string, content: Content): Promise<void> {
  await copyIn(container, { [path.posix.basename(file)]: content }, path.posix.dirname(file));
}

/**
 * Read one file (symlinks followed, a few hops). A missing path throws an Error with code ENOENT:
 * an agent's mistake, not an infrastructure failure.
 */
export async function readFile(container: Docker.Container, file: string, maxBytes = DEFAULT_READ_MAX_BYTES): Promise<string> {
  let target = file;
  for (let hop = 0; hop < 8; hop++) {
    const entry = await readEntry(container, target, maxBytes);
    if (entry.type === 'file') return entry.data.toString('utf8');
    if (entry.type === 'symlink') {
      target = path.posix.resolve(path.posix.dirname(target), entry.linkname);
      continue;
    }
    throw Object.assign(new Error(`not a regular file in the sandbox: ${file}`), { code: 'EISDIR' });
  }
  throw Object.assign(new Error(`too many symlinks reading ${file} in the sandbox`), { code: 'ELOOP' });
}

type Entry = { type: 'file'; data: Buffer } | { type: 'symlink'; linkname: string } | { type: 'other' };

async function readEntry(container: Docker.Container, file: string, maxBytes: number): Promise<Entry> {
  let stream: Readable;
  try {
    stream = (await withDeadline(container.getArchive({ path: file }), DEFAULT_DEADLINE_MS, `read ${file}`)) as Readable;
  } catch (err) {
    if (statusOf(err) === 404) throw Object.assign(new Error(`no such file in the sandbox: ${file}`), { code: 'ENOENT' });
    if (err instanceof SandboxError) throw err;
    throw new SandboxError(`reading ${file} from the sandbox failed: ${dockerMessage(err)}`, err);
  }
  const extract = tar.extract();
  let result: Entry | undefined;
  extract.on('entry', (header, body, next) => {
    if (result) return body.resume().once('end', next); // only the first entry is the file itself
    if (header.type === 'symlink') result = { type: 'symlink', linkname: header.linkname ?? '' };
    else if (header.type !== 'file' && header.type !== 'contiguous-file') result = { type: 'other' };
    if (result) return body.resume().once('end', next);
    if ((header.size ?? 0) > maxBytes) {
      return next(Object.assign(new Error(`${file} is ${header.size} bytes, over the ${maxBytes}-byte read limit`), { code: 'EFBIG' }));
    }
    const chunks: Buffer[] = [];
    body.on('data', (c: unknown) => void chunks.push(c as Buffer));
    body.once('end', () => ((result = { type: 'file', data: Buffer.concat(chunks) }), next()));
  });
  await withDeadline(pipeline(stream, extract), DEFAULT_DEADLINE_MS * 4, `read ${file}`);
  return result ?? { type: 'other' };
}

/**
 * Copy `src` out of the container into host folder `dest` (a folder's contents, or a file as
 * dest/<name>). Unsafe entries are skipped and listed in the report, never written.
 */
export async function copyOut(
  container: Docker.Container,
  src: string,
  dest: string,
  opts: { maxBytes?: number } = {},
): Promise<ExtractReport> {
  let stream: Readable;
  try {
    stream = (await withDeadline(container.getArchive({ path: src }), DEFAULT_DEADLINE_MS, `copy out ${src}`)) as Readable;
  } catch (err) {
    if (statusOf(err) === 404) throw Object.assign(new Error(`no such path in the sandbox: ${src}`), { code: 'ENOENT' });
    if (err instanceof SandboxError) throw err;
    throw new SandboxError(`copying ${src} out of the sandbox failed: ${dockerMessage(err)}`, err);
  }
  const maxBytes = opts.maxBytes ?? DEFAULT_COPY_OUT_MAX_BYTES;
  return withDeadline(extractUntrusted(stream, dest, { maxBytes, stripRoot: true }), DEFAULT_DEADLINE_MS * 10, `copy out ${src}`);
}

// --- building archives -------------------------------------------------------------------------

type EntryHeader = Parameters<tar.Pack['entry']>[0];

const rootOwned = { uid: 0, gid: 0, uname: 'root', gname: 'root' };

function addEntry(pack: tar.Pack, header: EntryHeader, body?: Buffer | Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const cb = (err?: Error | null) => (err ? reject(err) : resolve());
    if (body === undefined) pack.entry({ ...rootOwned, ...header }, cb);
    else if (Buffer.isBuffer(body)) pack.entry({ ...rootOwned, ...header }, body, cb);
    else pipeline(body, pack.entry({ ...rootOwned, ...header }, cb) as unknown as NodeJS.WritableStream).catch(reject);
  });
}

async function packMap(pack: tar.Pack, files: Record<string, Content>, root: string): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const name = safeJoin(root, rel);
    await addEntry(pack, { name, type: 'file', mode: 0o644 }, Buffer.from(content as Uint8Array | string));
  }
}

async function packFolder(pack: tar.Pack, dir: string, root: string): Promise<void> {
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const full = path.join(dir, e.name);
    const name = safeJoin(root, e.name);
    const st = await fsp.lstat(full);
    // Keep only the executable bit from the host: benchmark files should not carry odd modes.
    const mode = st.mode & 0o111 ? 0o755 : 0o644;
    if (st.isDirectory()) {
      await addEntry(pack, { name, type: 'directory', mode: 0o755 });
      await packFolder(pack, full, name);
    } else if (st.isSymbolicLink()) {
      await addEntry(pack, { name, type: 'symlink', linkname: await fsp.readlink(full), mode: 0o777 });
    } else if (st.isFile()) {
      await addEntry(pack, { name, type: 'file', mode, size: st.size }, fs.createReadStream(full));
    }
  }
}

/** `root/rel` with `rel` kept inside `root`: a map key like "../x" is a caller bug worth refusing. */
function safeJoin(root: string, rel: string): string {
  const norm = path.posix.normalize(rel.replace(/\\/g, '/')).replace(/^\/+/, '');
  if (norm === '..' || norm.startsWith('../') || norm === '.' || norm === '') {
    throw new Error(`copy into sandbox: path ${JSON.stringify(rel)} is outside the destination`);
  }
  return root ? `${root}/${norm}` : norm;
}

// --- extracting untrusted archives ---------------------------------------------------------------

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
