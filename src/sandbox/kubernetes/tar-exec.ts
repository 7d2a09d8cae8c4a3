// Tar streams into and out of a pod over exec (docs/kubernetes.md#copies): the pod's own `tar` reads
// or writes the archive, `tee` into `wc -c` counts the bytes that crossed, and `tar`'s exit status
// comes back on stderr. A copy succeeds only when tar exited 0 and both sides counted the same bytes:
// a socket that dropped between two entries leaves an archive tar would accept whole.
import { PassThrough, Transform, Writable, type Readable } from 'node:stream';
import { SandboxError } from '../../errors.ts';
import { BoundedCapture } from '../docker/exec.ts';
import { podArgv, runInPod, type PodTarget } from './exec.ts';

/** How long one copy may take in the pod (`timeout -k` inside; the harness waits a grace period more). */
const COPY_TIMEOUT_MS = 300_000;
/** The exit code of the copy-out script when the path is not there. */
const MISSING = 44;

/** Extracts stdin at "$1"; prints the bytes it read on stdout and `tar=<status>` on stderr. */
const EXTRACT = '{ tee /proc/self/fd/3 | tar -xf - -C "$1"; echo "tar=$?" >&2; } 3>&1 | wc -c';
/** Archives "$2" of folder "$1" to stdout; prints `tar=<status>` and `bytes=<count>` on stderr. */
const ARCHIVE = [
  `[ -e "$1/$2" ] || [ -L "$1/$2" ] || { echo "no such path: $1/$2" >&2; exit ${MISSING}; }`,
  'exec 3>&1',
  'n=$( { tar -cf - -C "$1" -- "$2"; echo "tar=$?" >&2; } | tee /proc/self/fd/3 | wc -c )',
  'echo "bytes=$n" >&2',
].join('\n');

/** Counts the bytes passing through. */
function counter(): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      t.bytes += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

const capture = (cap: BoundedCapture) =>
  new Writable({
    write(chunk: Buffer, _enc, done) {
      cap.push(chunk);
      done();
    },
  });

const field = (text: string, key: string): number | null => {
  const m = new RegExp(`(?:^|\\n)${key}=\\s*(\\d+)`).exec(text);
  return m ? Number(m[1]) : null;
};

/** The tar errors of a failed copy, without the script's own lines. */
const tarErrors = (stderr: string): string =>
  stderr
    .split('\n')
    .filter((l) => l && !/^(tar|bytes)=/.test(l))
    .join('; ')
    .slice(0, 500);

/** Streams `archive` into the pod and extracts it at `dir`; throws unless all of it arrived and tar succeeded. */
/** An archive being made: a Node stream or tar-stream's pack (a streamx stream). */
interface ArchiveSource {
  pipe<T extends NodeJS.WritableStream>(dest: T): T;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export async function extractInPod(
  target: PodTarget,
  archive: ArchiveSource,
  dir: string,
  what: string,
  signal?: AbortSignal,
): Promise<void> {
  const sent = counter();
  const stdout = new BoundedCapture(4096);
  const stderr = new BoundedCapture(64 * 1024);
  const argv = podArgv(['sh', '-c', EXTRACT, 'sh', dir], { timeoutMs: COPY_TIMEOUT_MS, trusted: true }, target);
  // An archive that fails (a file unreadable, a transfer over its cap) ends the exec: tar would wait for the rest.
  const failed = new AbortController();
  archive.on('error', (err) => failed.abort(err));
  sent.on('error', (err) => failed.abort(err)); // a streamx pack destroys what it is piped to with its error
  const run = await runInPod(target, argv, {
    stdin: archive.pipe(sent),
    stdout: capture(stdout),
    stderr: capture(stderr),
    timeoutMs: COPY_TIMEOUT_MS,
    signal: signal ? AbortSignal.any([signal, failed.signal]) : failed.signal,
    keepAliveMs: target.keepAliveMs,
  });
  const received = Number(stdout.text().trim());
  const tar = field(stderr.text(), 'tar');
  if (run.code === null || tar === null)
    throw new SandboxError(`${what}: the exec ended without tar's status (after ${sent.bytes} bytes sent)`);
  if (tar !== 0) throw new SandboxError(`${what}: tar exited ${tar}: ${tarErrors(stderr.text())}`, undefined, false);
  if (received !== sent.bytes)
    throw new SandboxError(`${what}: ${sent.bytes} bytes sent, ${stdout.text().trim() || 'none'} arrived`);
}

/** What `archiveFromPod` found: tar's status, the bytes it counted, and the bytes that reached the harness. */
interface ArchiveOutcome {
  missing: boolean;
  tar: number | null;
  counted: number | null;
  received: number;
  errors: string;
}

/**
 * Archives `src` in the pod and streams it to the returned stream (ended when the pod's tar ended,
 * destroyed when the exec failed); `done` settles with what happened once the exec is over.
 */
export function archiveFromPod(
  target: PodTarget,
  src: string,
  signal?: AbortSignal,
): { stream: Readable; done: Promise<ArchiveOutcome> } {
  const parent = src === '/' ? '/' : src.replace(/\/+$/, '').replace(/\/[^/]*$/, '') || '/';
  const name = src.replace(/\/+$/, '').split('/').pop() || '.';
  const got = counter();
  const stream = new PassThrough();
  got.pipe(stream);
  const stderr = new BoundedCapture(64 * 1024);
  const argv = podArgv(
    ['sh', '-c', ARCHIVE, 'sh', parent, name],
    { timeoutMs: COPY_TIMEOUT_MS, trusted: true },
    target,
  );
  // A reader that stops early (the copy-out's entry bound) closes the exec rather than leave it paused.
  const early = new AbortController();
  stream.once('close', () => stream.readableEnded || early.abort(new Error('the reader stopped')));
  const done = runInPod(target, argv, {
    stdout: got,
    stderr: capture(stderr),
    timeoutMs: COPY_TIMEOUT_MS,
    signal: signal ? AbortSignal.any([signal, early.signal]) : early.signal,
    keepAliveMs: target.keepAliveMs,
  }).then(
    ({ code }): ArchiveOutcome => {
      const text = stderr.text();
      if (code === null && !got.writableEnded) got.destroy(new Error('the exec ended without a status'));
      return {
        missing: code === MISSING,
        tar: field(text, 'tar'),
        counted: field(text, 'bytes'),
        received: got.bytes,
        errors: tarErrors(text),
      };
    },
    (err: unknown) => {
      stream.destroy(err instanceof Error ? err : new Error(String(err)));
      throw err;
    },
  );
  return { stream, done };
}

/** Throws unless the archive came out whole: the path there, tar's status 0, the same byte count both sides. */
export function checkArchive(o: ArchiveOutcome, what: string, src: string): void {
  if (o.missing) throw Object.assign(new Error(`no such path in the sandbox: ${src}`), { code: 'ENOENT' });
  if (o.tar === null) throw new SandboxError(`${what}: the exec ended without tar's status`);
  if (o.tar !== 0) throw new SandboxError(`${what}: tar exited ${o.tar}: ${o.errors}`, undefined, false);
  if (o.counted !== o.received)
    throw new SandboxError(`${what}: the pod sent ${o.counted ?? '?'} bytes, ${o.received} arrived`);
}
