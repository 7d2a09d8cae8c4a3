// Files into and out of a container through Docker's archive API. What goes in is ours (root-owned,
// sane modes); what comes out is the agent's and untrusted: see extractUntrusted.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import * as tar from 'tar-stream';
import { SandboxError } from '../../errors.ts';
import { DEFAULT_DEADLINE_MS, dockerError, dockerMessage, statusOf, withDeadline } from './client.ts';
import { extractUntrusted } from '../extract.ts';
import type { CopyOutOptions, CopyOutReport } from '../types.ts';

export { extractUntrusted };

const DEFAULT_READ_MAX_BYTES = 10 * 1024 * 1024;

type Content = string | Uint8Array;

/** Container path for `p`, relative paths resolved against the workdir. */
export const inContainer = (workdir: string, p: string) => path.posix.resolve(workdir, p);

/**
 * Copy a host folder's contents, or a map of relative path -> content, under `dest`. The archive is
 * extracted at `at` (an existing folder holding `dest`; default "/") with paths from there and no
 * entries for dest's ancestors: Docker creates missing parents (root, 0755) and existing ones (/tmp's
 * 1777) keep their modes. A container never started has its volumes reached at their mount point
 * only on Podman (entries crossing into one from "/" land beneath it): a helper filling a volume
 * extracts there.
 */
export async function copyIn(
  container: Docker.Container,
  src: string | Record<string, Content>,
  dest: string,
  at = '/',
): Promise<void> {
  const { pack, filling } = archiveFor(src, path.posix.relative(at, dest));
  try {
    await withDeadline(
      container.putArchive(pack as unknown as NodeJS.ReadableStream, { path: at }),
      DEFAULT_DEADLINE_MS * 4,
      `copy into ${dest}`,
    );
    await filling;
  } catch (err) {
    pack.destroy();
    if (err instanceof SandboxError) throw err;
    throw dockerError(`copying into ${dest} in the sandbox failed: ${dockerMessage(err)}`, err);
  }
}

/**
 * The archive of a copy in (any provider's): entries named with `dest`'s full path, no leading
 * slash, to extract at "/"; `filling` settles once every entry is in (the pack destroyed on a failure).
 */
export function archiveFor(
  src: string | Record<string, Content>,
  dest: string,
): { pack: tar.Pack; filling: Promise<void> } {
  const root = dest.replace(/^\/+/, '');
  const pack = tar.pack();
  const filling = (typeof src === 'string' ? packFolder(pack, src, root) : packMap(pack, src, root)).then(
    () => pack.finalize(),
    (err: Error) => pack.destroy(err), // a file that could not be read
  );
  return { pack, filling };
}

export async function writeFile(container: Docker.Container, file: string, content: Content): Promise<void> {
  await copyIn(container, { [path.posix.basename(file)]: content }, path.posix.dirname(file));
}

/**
 * Read one file (symlinks followed, a few hops). A missing path throws an Error with code ENOENT:
 * an agent's mistake, not an infrastructure failure.
 */
export async function readFile(
  container: Docker.Container,
  file: string,
  maxBytes = DEFAULT_READ_MAX_BYTES,
): Promise<string> {
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
    stream = (await withDeadline(
      container.getArchive({ path: file }),
      DEFAULT_DEADLINE_MS,
      `read ${file}`,
    )) as Readable;
  } catch (err) {
    if (statusOf(err) === 404)
      throw Object.assign(new Error(`no such file in the sandbox: ${file}`), { code: 'ENOENT' });
    if (err instanceof SandboxError) throw err;
    throw dockerError(`reading ${file} from the sandbox failed: ${dockerMessage(err)}`, err);
  }
  const extract = tar.extract();
  let result: Entry | undefined;
  extract.on('entry', (header, body, next) => {
    if (result) return body.resume().once('end', next); // only the first entry is the file itself
    if (header.type === 'symlink') result = { type: 'symlink', linkname: header.linkname ?? '' };
    else if (header.type !== 'file' && header.type !== 'contiguous-file') result = { type: 'other' };
    if (result) return body.resume().once('end', next);
    if ((header.size ?? 0) > maxBytes) {
      return next(
        Object.assign(new Error(`${file} is ${header.size} bytes, over the ${maxBytes}-byte read limit`), {
          code: 'EFBIG',
        }),
      );
    }
    const chunks: Buffer[] = [];
    body.on('data', (c: unknown) => void chunks.push(c as Buffer));
    body.once('end', () => ((result = { type: 'file', data: Buffer.concat(chunks) }), next()));
  });
  await withDeadline(pipeline(stream, extract), DEFAULT_DEADLINE_MS * 4, `read ${file}`);
  return result ?? { type: 'other' };
}

/** How long a whole copy-out may take unless the caller says otherwise. */
export const DEFAULT_COPY_OUT_DEADLINE_MS = DEFAULT_DEADLINE_MS * 4;

/**
 * Copy `src` out of the container into host folder `dest` (a folder's contents, or a file as
 * dest/<name>). Unsafe entries are skipped and listed in the report, never written. The copy stops
 * (the request destroyed, `stopped` in the report) past `maxEntries` entries, at `deadlineMs`, or
 * when `signal` aborts.
 */
export async function copyOut(
  container: Docker.Container,
  src: string,
  dest: string,
  opts: CopyOutOptions = {},
): Promise<CopyOutReport> {
  const deadlineMs = opts.deadlineMs ?? DEFAULT_COPY_OUT_DEADLINE_MS;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new Error(`the copy-out deadline of ${deadlineMs / 1000} s passed`)),
    deadlineMs,
  );
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal;
  try {
    let stream: Readable;
    try {
      stream = (await withDeadline(
        container.getArchive({ path: src }),
        Math.min(DEFAULT_DEADLINE_MS, deadlineMs),
        `copy out ${src}`,
      )) as Readable;
    } catch (err) {
      if (statusOf(err) === 404)
        throw Object.assign(new Error(`no such path in the sandbox: ${src}`), { code: 'ENOENT' });
      if (err instanceof SandboxError) throw err;
      throw dockerError(`copying ${src} out of the sandbox failed: ${dockerMessage(err)}`, err);
    }
    return await extractUntrusted(stream, dest, {
      maxBytes: opts.maxBytes,
      maxEntries: opts.maxEntries,
      stripRoot: true,
      signal,
    });
  } finally {
    clearTimeout(timer);
  }
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
    await addEntry(pack, { name, type: 'file', mode: 0o644 }, Buffer.from(content));
  }
}

async function packFolder(pack: tar.Pack, dir: string, root: string): Promise<void> {
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  // A fixed order, by code unit: localeCompare would load ICU's collator in the worker (~2 MB resident).
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
  if (norm === '..' || norm.startsWith('../../') || norm === '.' || norm === '') {
    throw new Error(`copy into sandbox: path ${JSON.stringify(rel)} is outside the destination`);
  }
  return root ? `${root}/${norm}` : norm;
}
