// A loopback TCP proxy in front of the real Docker socket, so a test can make "the daemon" stop
// answering and come back, or shut down as dockerd does, without disturbing the daemon the other
// suites are using.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface DockerProxy {
  url: string;
  /** Drop every connection and refuse new ones. */
  down(): Promise<void>;
  /**
   * What a dockerd does from its SIGTERM until it exits: new connections refused, the open
   * (kept-alive) ones still answered.
   */
  stopAccepting(): Promise<void>;
  /** The containers that requests through the proxy named (by id in their path), in order of first sight. */
  containers(): string[];
  /**
   * From now on, never forward a request whose request line (`DELETE /v1.43/containers/<id>?…`)
   * matches: its connection is held open, unanswered, as a daemon too busy to answer would.
   */
  hold(requestLine: RegExp): void;
  /** The request lines held so far. */
  held(): string[];
  /** Accept connections again, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startDockerProxy(socketPath = '/var/run/docker.sock'): Promise<DockerProxy> {
  const sockets = new Set<Socket>();
  const seen = new Set<string>();
  const holds: RegExp[] = [];
  const heldLines: string[] = [];
  let port = 0;
  let server: Server | null = null;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(socketPath);
        sockets.add(client).add(upstream);
        const drop = () => (client.destroy(), upstream.destroy(), sockets.delete(client), sockets.delete(upstream));
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        let holding = false;
        client.on('data', (chunk: Buffer) => {
          const text = chunk.toString('latin1');
          for (const m of text.matchAll(/^[A-Z]+ \/(?:v[\d.]+\/)?containers\/([0-9a-f]{64})\//gm)) seen.add(m[1]);
          const line = holds.length ? text.match(/^[A-Z]+ \S+ HTTP\/1\.[01](?=\r?$)/m)?.[0] : undefined;
          if (line && holds.some((h) => h.test(line))) {
            holding = true;
            heldLines.push(line);
          }
          if (holding) return; // this connection's requests never reach the daemon
          if (!upstream.write(chunk)) {
            client.pause();
            upstream.once('drain', () => client.resume());
          }
        });
        client.on('end', () => upstream.end());
        upstream.pipe(client);
      });
      const listening = server;
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as { port: number }).port;
        resolve();
      });
    });
  const down = async () => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  const stopAccepting = async () => {
    const s = server;
    server = null;
    if (s) await new Promise<void>((r) => (s.close(() => r()), setImmediate(r))); // close() waits for the open ones
  };
  await listen();
  return {
    url: `tcp://127.0.0.1:${port}`,
    down,
    up: listen,
    close: down,
    stopAccepting,
    containers: () => [...seen],
    hold: (r) => void holds.push(r),
    held: () => [...heldLines],
  };
}
