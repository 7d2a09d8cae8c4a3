// Copying a path from one container to another (the agent's work into a fresh grading sandbox,
// docs/sandboxes.md#how-grading-is-isolated-from-the-agent `[grading] isolation = "fresh"`). The archive comes from the agent's container, so it is
// filtered: regular files, folders and symlinks pass (a symlink resolves inside the target
// container, which holds nothing of the harness's); hard links, devices and fifos are dropped, and
// the total size is capped.
import path from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import * as tar from 'tar-stream';
import { SandboxError } from '../../errors.ts';
import { DEFAULT_DEADLINE_MS, dockerError, dockerMessage, withDeadline } from './client.ts';
import type { TransferOptions } from '../types.ts';

const DEFAULT_TRANSFER_MAX_BYTES = 1024 ** 3;

export async function transferPath(
  from: Docker.Container,
  to: Docker.Container,
  src: string,
  opts: TransferOptions = {},
): Promise<void> {
  let archive: Readable;
  try {
    archive = (await withDeadline(from.getArchive({ path: src }), DEFAULT_DEADLINE_MS, `copy out ${src}`)) as Readable;
  } catch (err) {
    if (err instanceof SandboxError) throw err;
    throw dockerError(`copying ${src} out of the agent's sandbox failed: ${dockerMessage(err)}`, err);
  }
  const filtered = filterTransfer(archive, src, opts);
  const pack = filtered.pack;
  try {
    await withDeadline(
      to.putArchive(pack as unknown as NodeJS.ReadableStream, { path: path.posix.dirname(opts.to ?? src) }),
      DEFAULT_DEADLINE_MS * 10,
      `copy into ${src}`,
    );
  } catch (err) {
    archive.destroy();
    const failure = filtered.failure();
    if (failure) throw failure;
    if (err instanceof SandboxError) throw err;
    throw dockerError(`copying ${src} into the grading sandbox failed: ${dockerMessage(err)}`, err);
  }
  const failure = filtered.failure();
  if (failure) throw failure;
}

/**
 * The agent's archive of `src` re-packed for the target (any provider's): regular files, folders and
 * symlinks only, placed per `opts.to` and `opts.skip`, failing past `opts.maxBytes` of files.
 */
export function filterTransfer(
  archive: Readable,
  src: string,
  opts: TransferOptions = {},
): { pack: tar.Pack; failure: () => Error | undefined } {
  const maxBytes = opts.maxBytes ?? DEFAULT_TRANSFER_MAX_BYTES;
  const place = placement(src, opts);
  const extract = tar.extract();
  const pack = tar.pack();
  let bytes = 0;
  let failure: Error | undefined;
  extract.on('entry', (header, body, next) => {
    const keep =
      header.type === 'file' ||
      header.type === 'contiguous-file' ||
      header.type === 'directory' ||
      header.type === 'symlink';
    const name = place(path.posix.normalize(header.name));
    if (!keep || name === null || name.startsWith('../../') || name.startsWith('/'))
      return body.resume().once('end', next);
    bytes += header.size ?? 0;
    if (bytes > maxBytes) {
      failure = new Error(
        `${src} holds more than ${maxBytes} bytes: over the limit for copying it to the grading sandbox`,
      );
      body.on('error', () => {}); // destroyed with the failure, which is reported as the transfer's
      return next(failure);
    }
    const out = {
      name,
      type: header.type === 'contiguous-file' ? 'file' : header.type,
      mode: header.mode,
      mtime: header.mtime,
      uid: header.uid,
      gid: header.gid,
      linkname: header.linkname,
      size: header.size,
    } as const;
    const entry = pack.entry(out, (err) => next(err ?? undefined));
    body.pipe(entry);
  });
  extract.once('finish', () => pack.finalize());
  extract.once('error', (err) => pack.destroy(err));
  archive.once('error', (err) => extract.destroy(err));
  archive.pipe(extract);
  return { pack, failure: () => failure };
}

/**
 * An entry's name in the target's archive, or null when it is skipped: the archive's top folder
 * (the base name of `src`) renamed to the base name of `opts.to`.
 */
function placement(src: string, opts: TransferOptions): (name: string) => string | null {
  const from = path.posix.basename(src);
  const to = path.posix.basename(opts.to ?? src);
  const skipped = (opts.skip ?? []).map((p) => path.posix.join(from, p));
  return (name) => {
    if (skipped.some((s) => name === s || name.startsWith(`${s}/`))) return null;
    if (name === from || name === `${from}/`) return to;
    return name.startsWith(`${from}/`) ? `${to}${name.slice(from.length)}` : name;
  };
}
