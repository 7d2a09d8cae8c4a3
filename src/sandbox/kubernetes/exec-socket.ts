// One exec's websocket to the API server (docs/kubernetes.md#exec): opened with client-node's `Exec`
// (the v5 channel protocol, falling back to v4), kept alive by pings while a command runs long (a
// proxy or load balancer between the harness and the API server drops idle connections), and closed
// by the harness when it stops waiting. Flow control both ways: stdin is sent no faster than the
// socket drains, and the socket is paused while stdout's consumer is behind.
import { Transform, Writable, type Readable } from 'node:stream';
import { Exec, type V1Status } from '@kubernetes/client-node';
import { SandboxError } from '../../errors.ts';
import type { Cluster } from './client.ts';
import { CONTAINER } from './objects.ts';

/** How often an open exec pings the API server (docs/kubernetes.md#exec). */
const KEEP_ALIVE_MS = 20_000;
/** Bytes of stdin queued on the socket before the sender waits. */
const STDIN_HIGH_WATER = 4 * 1024 * 1024;

/** What exec needs of client-node's WebSocket (ws 8; its isomorphic-ws type does not resolve for the linter). */
interface ExecSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  once(event: 'close', listener: () => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
  close(): void;
  ping(): void;
  pause(): void;
  resume(): void;
}

interface OpenedExec {
  readonly socket: ExecSocket;
  /** The status channel's message, once the command ended (null until then, or if the socket dropped). */
  status(): V1Status | null;
  /** Resolves when the socket is closed, by either side. */
  readonly closed: Promise<void>;
  /** Pongs received so far (the keep-alive's answers). */
  pongs(): number;
}

interface ExecIo {
  stdout: Writable;
  stderr: Writable;
  stdin?: Readable | null;
  keepAliveMs?: number;
}

/** Writes to `dest`, pausing the socket while `dest` is full. */
function paced(dest: Writable, socket: () => ExecSocket | undefined): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!dest.write(chunk)) {
        const s = socket();
        s?.pause();
        dest.once('drain', () => s?.resume());
      }
      done();
    },
    final(done) {
      dest.end();
      done();
    },
  });
}

/** Passes stdin on no faster than the socket sends it. */
function throttled(socket: () => ExecSocket | undefined): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const wait = () => {
        const s = socket();
        if (!s || s.bufferedAmount < STDIN_HIGH_WATER || s.readyState !== 1) return done(null, chunk);
        setTimeout(wait, 5);
      };
      wait();
    },
  });
}

/** Opens the exec; throws a SandboxError when the API server refuses it (the pod gone, the API down). */
export async function openExec(cluster: Cluster, pod: string, argv: string[], io: ExecIo): Promise<OpenedExec> {
  let socket: ExecSocket | undefined;
  let status: V1Status | null = null;
  const stdin = io.stdin ? io.stdin.pipe(throttled(() => socket)) : null;
  try {
    const ws: unknown = await new Exec(cluster.config).exec(
      cluster.namespace,
      pod,
      CONTAINER,
      argv,
      paced(io.stdout, () => socket),
      paced(io.stderr, () => socket),
      stdin,
      false,
      (s) => {
        status = s;
      },
    );
    socket = ws as ExecSocket;
  } catch (err) {
    io.stdin?.destroy();
    const why = err instanceof Error ? err.message : String(err);
    // An HTTP status to the upgrade: the API server answered (the pod gone or ended); else it did not.
    const answered = /Unexpected server response: \d+/.test(why);
    throw new SandboxError(`exec failed in pod ${pod}: ${why}`, err, true, {
      daemon: answered ? 'answered' : 'unreachable',
    });
  }
  const open = socket;
  let pongs = 0;
  open.on('pong', () => void pongs++);
  const keepAlive = setInterval(() => open.readyState === 1 && open.ping(), io.keepAliveMs ?? KEEP_ALIVE_MS);
  const closed = new Promise<void>((resolve) =>
    open.once('close', () => {
      clearInterval(keepAlive);
      io.stdin?.unpipe();
      resolve();
    }),
  );
  return { socket: open, status: () => status, closed, pongs: () => pongs };
}
