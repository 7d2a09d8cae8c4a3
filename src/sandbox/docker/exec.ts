// Running one command in a container: stdout/stderr demultiplexed, each kept within a byte bound
// (head + ring tail), stdin fed, and a timeout that kills the command *inside* the container.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { abortReason, SandboxError } from '../../errors.ts';
import type { ExecOptions, ExecResult } from '../types.ts';
import { DEFAULT_DEADLINE_MS, dockerError, dockerMessage, sleep, withDeadline } from './client.ts';
import { TOOLBOX_BIN, trustedArgv } from './toolbox.ts';

interface ExecTarget {
  container: Docker.Container;
  workdir: string;
  execTimeoutMs: number;
  maxOutputBytes: number;
  /** PATH for trusted commands: the toolbox's applets first, then the image's. */
  trustedPath?: string;
  /** The image's shell for string commands (default sh). */
  shell?: string;
}

/** Env var stamped on every exec; its descendants inherit it, so the killer can find them all. */
const MARKER_VAR = 'BENCHRIG_EXEC';
/** How long a killed command may take to close its output before we stop waiting. */
const KILL_GRACE_MS = 3_000;

// Kills every process carrying the marker, and each one's process group (docker exec makes the
// command a session leader, so its group holds the whole job). Repeated to catch forks in flight.
// It runs from the toolbox (its sh, grep and kill), so an agent cannot dodge it by replacing them.
/** A script that kills every process whose environment has `name=<its $1>`, and their groups. */
export const killByMarkerScript = (name: string): string => `m="${name}=$1"
for i in 1 2 3; do
  for d in /proc/[0-9]*; do
    p=\${d#/proc/}
    grep -qs "$m" "$d/environ" || continue
    kill -9 -"$p" 2>/dev/null; kill -9 "$p" 2>/dev/null
  done
done
exit 0`;
const KILL_SCRIPT = killByMarkerScript(MARKER_VAR);

export async function runExec(target: ExecTarget, cmd: string | string[], opts: ExecOptions = {}): Promise<ExecResult> {
  const argv = typeof cmd === 'string' ? (opts.trusted ? trustedArgv(cmd) : [target.shell ?? 'sh', '-c', cmd]) : cmd;
  if (argv.length === 0) throw new Error('exec: empty command');
  const env = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`);
  if (opts.trusted) env.unshift(`PATH=${target.trustedPath ?? TOOLBOX_BIN}`);
  const timeoutMs = opts.timeoutMs ?? target.execTimeoutMs;
  const cwd = path.posix.resolve(target.workdir, opts.cwd ?? '.');
  const marker = randomUUID();
  const withStdin = opts.stdin !== undefined;
  opts.signal?.throwIfAborted();

  let exec: Docker.Exec;
  let stream: Duplex;
  try {
    exec = await withDeadline(
      target.container.exec({
        Cmd: argv,
        AttachStdout: true,
        AttachStderr: true,
        AttachStdin: withStdin,
        Tty: false,
        WorkingDir: cwd,
        ...(opts.user ? { User: opts.user } : {}),
        Env: [...env, `${MARKER_VAR}=${marker}`],
      }),
      DEFAULT_DEADLINE_MS,
      `exec create in ${target.container.id.slice(0, 12)}`,
    );
    stream = await withDeadline<Duplex>(
      exec.start({ hijack: true, stdin: withStdin }),
      DEFAULT_DEADLINE_MS,
      'exec start',
    );
  } catch (err) {
    if (err instanceof SandboxError) throw err;
    throw dockerError(`exec failed in sandbox: ${dockerMessage(err)}`, err);
  }

  const stdout = new BoundedCapture(target.maxOutputBytes);
  const stderr = new BoundedCapture(target.maxOutputBytes);
  const demux = new Demuxer((kind, data) => (kind === 2 ? stderr : stdout).push(data));
  let timedOut = false;

  const ended = new Promise<void>((resolve) => {
    stream.on('data', (chunk: Buffer) => demux.write(chunk));
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve()); // a broken attach still leaves the exit code to read
  });
  if (withStdin) stream.end(opts.stdin);

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    void killInside(target.container, marker).finally(() => {
      // Whatever still holds the output open (a process that escaped the kill) must not hold us.
      setTimeout(() => stream.destroy(), KILL_GRACE_MS).unref();
    });
  };
  const timer = setTimeout(() => ((timedOut = true), stop()), timeoutMs);
  let cancelled = false;
  const cancel = () => ((cancelled = true), stop());
  // Aborted while Docker created or started it: it is killed as soon as it runs.
  if (opts.signal?.aborted) cancel();
  else opts.signal?.addEventListener('abort', cancel, { once: true });
  try {
    await ended;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', cancel);
    stream.destroy();
  }
  // `cancelled` is set only by the signal's abort.
  if (cancelled && opts.signal) throw abortReason(opts.signal);

  const exitCode = timedOut ? 124 : await exitCodeOf(exec);
  const truncated = stdout.truncated || stderr.truncated;
  return { exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut, truncated };
}

/** Kill the marked command tree from a second exec; failures are ignored (the stream is destroyed anyway). */
async function killInside(container: Docker.Container, marker: string): Promise<void> {
  try {
    const killer = await withDeadline(
      container.exec({
        Cmd: [...trustedArgv(KILL_SCRIPT), 'sh', marker],
        Env: [`PATH=${TOOLBOX_BIN}`],
        AttachStdout: true,
        AttachStderr: true,
      }),
      DEFAULT_DEADLINE_MS,
      'exec kill',
    );
    const s = await withDeadline<Duplex>(
      killer.start({ hijack: true, stdin: false }),
      DEFAULT_DEADLINE_MS,
      'exec kill start',
    );
    s.resume();
    await withDeadline(
      new Promise((r) => (s.once('end', r), s.once('close', r), s.once('error', r))),
      10_000,
      'exec kill',
    );
  } catch {
    /* best effort: the caller stops waiting after the grace period */
  }
}

/** The exit code once Docker reports the exec finished (it can lag the end of the stream briefly). */
async function exitCodeOf(exec: Docker.Exec): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const info = await withDeadline(exec.inspect(), DEFAULT_DEADLINE_MS, 'exec inspect').catch((err) => {
      throw err instanceof SandboxError ? err : dockerError(`exec inspect failed: ${dockerMessage(err)}`, err);
    });
    if (!info.Running && info.ExitCode !== null && info.ExitCode !== undefined) return info.ExitCode;
    await sleep(100);
  }
  throw new SandboxError('exec: Docker never reported an exit code');
}

/** Splits Docker's multiplexed attach stream: frames of [stream, 0, 0, 0, size(BE32)] + payload. */
export class Demuxer {
  private buf: Buffer = Buffer.alloc(0);
  constructor(private readonly emit: (stream: number, data: Buffer) => void) {}

  write(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.buf.length >= 8) {
      const size = this.buf.readUInt32BE(4);
      if (this.buf.length < 8 + size) break;
      this.emit(this.buf[0], this.buf.subarray(8, 8 + size));
      this.buf = this.buf.subarray(8 + size);
    }
  }
}

/**
 * Keeps at most `max` bytes of a stream: the first half as a head, the last half in a tail that
 * drops its oldest bytes. Memory stays bounded whatever the command prints.
 */
export class BoundedCapture {
  private readonly headMax: number;
  private readonly tailMax: number;
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private total = 0;

  constructor(readonly max: number) {
    this.headMax = Math.ceil(max / 2);
    this.tailMax = max - this.headMax;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headLen < this.headMax) {
      const take = chunk.subarray(0, this.headMax - this.headLen);
      this.head.push(Buffer.from(take));
      this.headLen += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0 || this.tailMax === 0) return;
    if (chunk.length > this.tailMax) chunk = chunk.subarray(chunk.length - this.tailMax);
    this.tail.push(Buffer.from(chunk));
    this.tailLen += chunk.length;
    while (this.tailLen - this.tail[0].length >= this.tailMax) this.tailLen -= this.tail.shift()?.length ?? 0;
    if (this.tailLen > this.tailMax) {
      const drop = this.tailLen - this.tailMax;
      this.tail[0] = this.tail[0].subarray(drop);
      this.tailLen -= drop;
    }
  }

  get truncated(): boolean {
    return this.total > this.max;
  }

  /** Bytes seen in total, kept or not. */
  get bytes(): number {
    return this.total;
  }

  text(): string {
    // Decode untruncated output in one piece so a character split across head and tail survives.
    if (!this.truncated) return Buffer.concat([...this.head, ...this.tail]).toString('utf8');
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    const dropped = this.total - this.headLen - this.tailLen;
    return `${head}\n[... ${dropped} bytes truncated ...]\n${tail}`;
  }
}
