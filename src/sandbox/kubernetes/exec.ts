// One command in a pod over the API server's websocket (docs/kubernetes.md#exec): client-node asks
// for the v5 channel protocol (stdin can be closed, so `cat` ends) and falls back to v4. The command
// runs under `timeout -k` inside the pod, so it dies there even if the harness goes; the harness's
// own deadline closes the socket a grace period later. Output is capped as on Docker (BoundedCapture).
import { Readable, Writable } from 'node:stream';
import path from 'node:path';
import type { V1Status } from '@kubernetes/client-node';
import { abortReason, SandboxError } from '../../errors.ts';
import { BoundedCapture } from '../docker/exec.ts';
import type { ExecOptions, ExecResult } from '../types.ts';
import type { Cluster } from './client.ts';
import { TOOLBOX_BIN, TOOLBOX_INIT, TOOLBOX_SHELL, untraceableArgv } from '../docker/toolbox.ts';
import { openExec } from './exec-socket.ts';

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
  /** How often an open exec pings the API server (exec-socket.ts KEEP_ALIVE_MS by default). */
  keepAliveMs?: number;
  /** The pod has the harness's toolbox at /.benchrig (docs/kubernetes.md#the-toolbox). */
  toolbox?: boolean;
}

/** PATH of trusted commands (grading, copies): the toolbox's applets first, then the usual folders. */
export const TRUSTED_PATH = `${TOOLBOX_BIN}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`;

/**
 * The argv that runs inside: cwd and env set by `env`/`cd`, all under `timeout -k 2 <secs>`. With
 * the toolbox (docs/kubernetes.md#the-toolbox) the wrapper is its busybox, and a trusted command runs
 * through its shell with its applets first on PATH: an agent that replaced the image's `sh`, `tar`
 * or `cat` changes nothing the harness relies on.
 */
export function podArgv(
  cmd: string | string[],
  opts: ExecOptions,
  target: Pick<PodTarget, 'workdir' | 'execTimeoutMs' | 'toolbox'>,
): string[] {
  const trusted = !!(opts.trusted && target.toolbox);
  // A trusted command and its wrapper from the toolbox's untraceable copy: a process of the agent
  // (root, the same uid) could otherwise attach to one as it starts and change what it does or
  // reports (the disk measurement's total: disk.ts). The agent's own commands keep the readable
  // copy: the agent may trace what it runs itself.
  const tb = target.toolbox ? [trusted ? TOOLBOX_INIT : TOOLBOX_SHELL] : [];
  let argv = typeof cmd === 'string' ? (trusted ? untraceableArgv(cmd) : ['sh', '-c', cmd]) : cmd;
  if (trusted && argv[0] === 'sh') argv = [TOOLBOX_INIT, ...argv];
  if (argv.length === 0) throw new Error('exec: empty command');
  const secs = Math.max(1, Math.ceil((opts.timeoutMs ?? target.execTimeoutMs) / 1000));
  const cwd = path.posix.resolve(target.workdir, opts.cwd ?? '.');
  const env = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`);
  if (trusted) env.unshift(`PATH=${TRUSTED_PATH}`);
  // `cd` through sh: Kubernetes exec has no working directory; "$@" keeps the argv as given.
  const enter = opts.user ? [AS_USER, 'sh', wantedUser(opts.user), cwd] : ['cd "$1" && shift && exec "$@"', 'sh', cwd];
  return [...tb, 'timeout', '-k', '2', String(secs), ...tb, 'env', ...env, ...tb, 'sh', '-c', ...enter, ...argv];
}

/**
 * Kubernetes exec runs as the container's user and cannot switch (no capabilities to do it inside
 * either): a command asked to run as another user is refused (exit 125 and this line) rather than
 * run as the wrong one. The same user, by uid or uid:gid, runs.
 */
const USER_REFUSED = 'benchrig: cannot exec as user';
const AS_USER = `want=$1; have=$(id -u):$(id -g); shift
case $want in "$have"|"\${have%%:*}") ;; *) echo "${USER_REFUSED} $want: the pod runs as $have" >&2; exit 125;; esac
cd "$1" && shift && exec "$@"`;
const wantedUser = (user: string): string =>
  user === 'root' ? '0' : user.replace(/^root:/, '0:').replace(/:root$/, ':0');

/** The exit code in the status channel's message: Success is 0, NonZeroExitCode carries it. */
export function exitCodeOf(status: V1Status | null): number | null {
  if (!status) return null;
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  const n = cause?.message === undefined ? NaN : Number(cause.message);
  return Number.isInteger(n) ? n : null;
}

const sink = (cap: BoundedCapture) =>
  new Writable({
    write(chunk: Buffer, _enc, done) {
      cap.push(chunk);
      done();
    },
  });

interface RawRun {
  stdout: Writable;
  stderr: Writable;
  stdin?: Readable | null;
  /** When the harness stops waiting: the command's own deadline (`timeout -k` inside) plus a grace period. */
  timeoutMs: number;
  signal?: AbortSignal;
  keepAliveMs?: number;
}

/** Runs argv as given and waits for the socket to close: the exit code (null: none came), how long it took. */
export async function runInPod(
  target: Pick<PodTarget, 'cluster' | 'pod'>,
  argv: string[],
  run: RawRun,
): Promise<{ code: number | null; elapsedMs: number; status: V1Status | null }> {
  run.signal?.throwIfAborted();
  const started = Date.now();
  const opened = await openExec(target.cluster, target.pod, argv, run);
  let cancelled = false;
  const hard = setTimeout(() => opened.socket.close(), run.timeoutMs + KILL_GRACE_MS);
  const cancel = () => ((cancelled = true), opened.socket.close());
  run.signal?.addEventListener('abort', cancel, { once: true });
  try {
    await opened.closed;
  } finally {
    clearTimeout(hard);
    run.signal?.removeEventListener('abort', cancel);
  }
  if (cancelled && run.signal) throw abortReason(run.signal);
  return { code: exitCodeOf(opened.status()), elapsedMs: Date.now() - started, status: opened.status() };
}

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
  const { code, elapsedMs, status } = await runInPod(target, argv, {
    stdout: sink(stdout),
    stderr: sink(stderr),
    stdin,
    timeoutMs,
    signal: opts.signal,
    keepAliveMs: target.keepAliveMs,
  });
  if (opts.user && code === 125 && stderr.text().includes(USER_REFUSED))
    throw new SandboxError(
      `${stderr.text().trim().slice(0, 200)} (Kubernetes exec runs as the image's user; docs/kubernetes.md#what-differs-from-docker)`,
      undefined,
      false,
    );
  const timedOut = elapsedMs >= timeoutMs && (code === null || TIMEOUT_CODES.has(code));
  if (code === null && !timedOut)
    throw new SandboxError(
      `exec in pod ${target.pod} ended without an exit status${status?.message ? `: ${status.message}` : ''}`,
      undefined,
      true,
      { daemon: status ? 'answered' : 'unreachable' }, // a Failure status: the API server answered for the pod
    );
  return {
    exitCode: timedOut ? 124 : (code ?? 124),
    stdout: stdout.text(),
    stderr: stderr.text(),
    timedOut,
    truncated: stdout.truncated || stderr.truncated,
  };
}
