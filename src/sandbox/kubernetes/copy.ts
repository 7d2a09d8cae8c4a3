// Copies into, out of and between pods (docs/kubernetes.md#copies), by tar over exec (tar-exec.ts),
// with Docker's rules: what goes in is ours (archive from sandbox/docker/copy.ts), what comes out is the
// agent's and extracted untrusted (sandbox/extract.ts: regular files and folders only, size and
// entry caps, a deadline); a transfer keeps regular files, folders and symlinks up to a byte cap
// (sandbox/docker/transfer.ts).
import path from 'node:path';
import { archiveFor, DEFAULT_COPY_OUT_DEADLINE_MS } from '../docker/copy.ts';
import { extractUntrusted } from '../extract.ts';
import { filterTransfer } from '../docker/transfer.ts';
import type { CopyOutOptions, CopyOutReport, TransferOptions } from '../types.ts';
import type { PodTarget } from './exec.ts';
import { archiveFromPod, checkArchive, extractInPod } from './tar-exec.ts';

type Content = string | Uint8Array;

/** A host folder's contents, or a map of relative path → content, under `dest` (absolute) in the pod. */
export async function copyIntoPod(
  target: PodTarget,
  src: string | Record<string, Content>,
  dest: string,
): Promise<void> {
  const { pack, filling } = archiveFor(src, dest);
  try {
    await extractInPod(target, pack, '/', `copying into ${dest} in the sandbox`);
    await filling;
  } finally {
    pack.destroy();
  }
}

/** `src` (absolute) of the pod into host folder `dest`, trusting nothing in it; the report says what was left. */
export async function copyOutOfPod(
  target: PodTarget,
  src: string,
  dest: string,
  opts: CopyOutOptions = {},
): Promise<CopyOutReport> {
  const deadlineMs = opts.deadlineMs ?? DEFAULT_COPY_OUT_DEADLINE_MS;
  const deadline = AbortSignal.timeout(deadlineMs);
  const stopped = new AbortController();
  deadline.addEventListener('abort', () =>
    stopped.abort(new Error(`the copy-out deadline of ${deadlineMs / 1000} s passed`)),
  );
  const signal = opts.signal ? AbortSignal.any([opts.signal, stopped.signal]) : stopped.signal;
  const out = archiveFromPod(target, src, signal);
  const outcome = out.done.then(
    (o) => ({ o }),
    (err: unknown) => ({ err }),
  );
  const report = await extractUntrusted(out.stream, dest, {
    maxBytes: opts.maxBytes,
    maxEntries: opts.maxEntries,
    stripRoot: true,
    signal,
  }).catch(async (err: unknown) => {
    const r = await outcome;
    if ('o' in r) checkArchive(r.o, `copying ${src} out of the sandbox`, src); // the pod's failure says more
    throw err;
  });
  if (report.stopped) return report; // cut short on purpose: the exec was closed, its status does not count
  const r = await outcome;
  if ('err' in r) throw r.err;
  checkArchive(r.o, `copying ${src} out of the sandbox`, src);
  return report;
}

/** `src` of one pod to the same path (or `opts.to`) of another: filtered and capped as on Docker. */
export async function transferBetweenPods(
  from: PodTarget,
  to: PodTarget,
  src: string,
  opts: TransferOptions = {},
): Promise<void> {
  const what = `copying ${src} to the grading sandbox`;
  const stop = new AbortController();
  const out = archiveFromPod(from, src, stop.signal);
  const filtered = filterTransfer(out.stream, src, opts);
  const into = extractInPod(to, filtered.pack, path.posix.dirname(opts.to ?? src), what, stop.signal);
  into.catch(() => stop.abort(new Error('the copy into the target failed'))); // no archive left paused
  const [got, put] = await Promise.allSettled([out.done, into]);
  const failure = filtered.failure();
  if (failure) throw failure;
  if (got.status === 'rejected') throw got.reason;
  checkArchive(got.value, what, src);
  if (put.status === 'rejected') throw put.reason;
}
