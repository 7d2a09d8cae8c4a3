// One command in a pod over the API server's websocket (docs/kubernetes.md#exec): client-node asks
// for the v5 channel protocol (stdin can be closed, so `cat` ends) and falls back to v4. The command
// runs under `timeout -k` inside the pod, so it dies there even if the harness goes; the harness's
// own deadline closes the socket a grace period later. Output is capped as on Docker (BoundedCapture).
import { Readable, Writable } from 'node:stream';
import path from 'node:path';
import { Exec, type V1Status } from '@kubernetes/client-node';
import { abortReason, SandboxError } from '../../errors.ts';
import { BoundedCapture } from '../exec.ts';
import type { ExecOptions, ExecResult } from '../types.ts';
import type { Cluster } from './client.ts';
import { CONTAINER } from './objects.ts';

/** How long after `timeout -k`'s kill the harness stops waiting for the socket. */
const KILL_GRACE_MS = 5_000;

/** How `timeout` reports a command it ended: 124 (coreutils), 128+TERM (busybox), 128+KILL (after -k). */
const TIMEOUT_CODES = new Set([124, 143, 137]);

export interface PodTarget {
  cluster: Cluster;
  pod: string;
  workdir: string;
  execTimeoutMs: number;
  maxOutputBytes: number;
}

/** The argv that runs inside: cwd and env set by `env`/`cd`, all under `timeout -k 2 <secs>`. */
export function podArgv(
  cmd: string | string[],
  opts: ExecOptions,
  target: Omit<PodTarget, 'cluster' | 'pod'>,
): string[] {
  const argv = typeof cmd === 'string' ? ['sh', '-c', cmd] : cmd;
  if (argv.length === 0) throw new Error('exec: empty command');
  const secs = Math.max(1, Math.ceil((opts.timeoutMs ?? target.execTimeoutMs) / 1000));
  const cwd = path.posix.resolve(target.workdir, opts.cwd ?? '.');
  const env = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`);
  // `cd` through sh: Kubernetes exec has no working directory; "$@" keeps the argv as given.
  return [
    'timeout',
    '-k',
    '2',
    String(secs),
    'env',
    ...env,
    'sh',
    '-c',
    'cd "$1" && shift && exec "$@"',
    'sh',
    cwd,
    ...argv,
  ];
}

/** The exit code in the status channel's message: Success is 0, NonZeroExitCode carries it. */
export function exitCodeOf(status: V1Status | null): number | null {
  if (!status) return null;
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  const n = cause?.message === undefined ? NaN : Number(cause.message);
  return Number.isInteger(n) ? n : null;
}

/** What exec needs of client-node's WebSocket (its isomorphic-ws type does not resolve for the linter). */
interface ExecSocket {
  once(event: 'close', listener: () => void): unknown;
  close(): void;
}

const sink = (cap: BoundedCapture) =>
  new Writable({
    write(chunk: Buffer, _enc, done) {
      cap.push(chunk);
      done();
    },
  });

export async function execInPod(
  target: PodTarget,
  cmd: string | string[],
  opts: ExecOptions = {},
): Promise<ExecResult> {
  opts.signal?.throwIfAborted();
  const argv = podArgv(cmd, opts, target);
  const timeoutMs = opts.timeoutMs ?? target.execTimeoutMs;
  const stdout = new BoundedCapture(target.maxOutputBytes);
  const stderr = new BoundedCapture(target.maxOutputBytes);
  const stdin = opts.stdin === undefined ? null : Readable.from([Buffer.from(opts.stdin)]);
  let status: V1Status | null = null;
  const { cluster, pod } = target;
  const started = Date.now();
  let socket: ExecSocket;
  try {
    const ws: unknown = await new Exec(cluster.config).exec(
      cluster.namespace,
      pod,
      CONTAINER,
      argv,
      sink(stdout),
      sink(stderr),
      stdin,
      false,
      (s) => {
        status = s;
      },
    );
    socket = ws as ExecSocket;
  } catch (err) {
    throw new SandboxError(`exec failed in pod ${pod}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  let cancelled = false;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const hard = setTimeout(() => socket.close(), timeoutMs + KILL_GRACE_MS);
  const cancel = () => ((cancelled = true), socket.close());
  opts.signal?.addEventListener('abort', cancel, { once: true });
  try {
    await closed;
  } finally {
    clearTimeout(hard);
    opts.signal?.removeEventListener('abort', cancel);
  }
  if (cancelled && opts.signal) throw abortReason(opts.signal);
  const code = exitCodeOf(status);
  const timedOut = Date.now() - started >= timeoutMs && (code === null || TIMEOUT_CODES.has(code));
  if (code === null && !timedOut) throw new SandboxError(`exec in pod ${pod} ended without an exit status`);
  return {
    exitCode: timedOut ? 124 : (code ?? 124),
    stdout: stdout.text(),
    stderr: stderr.text(),
    timedOut,
    truncated: stdout.truncated || stderr.truncated,
  };
}
