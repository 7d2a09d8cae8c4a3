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
  /** Accept connections again, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startDockerProxy(socketPath = '/var/run/docker.sock'): Promise<DockerProxy> {
  const sockets = new Set<Socket>();
  const seen = new Set<string>();
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
        client.on('data', (chunk: Buffer) => {
          for (const m of chunk.toString('latin1').matchAll(/^[A-Z]+ \/(?:v[\d.]+\/)?containers\/([0-9a-f]{64})\//gm)) seen.add(m[1]);
        });
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
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
  return { url: `tcp://127.0.0.1:${port}`, down, up: listen, close: down, stopAccepting, containers: () => [...seen] };
}
