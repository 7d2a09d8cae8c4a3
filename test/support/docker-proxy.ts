// A loopback TCP proxy in front of the real Docker socket, so a test can make "the daemon" stop
// answering and come back, without disturbing the daemon the other suites are using.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface DockerProxy {
  url: string;
  /** Drop every connection and refuse new ones. */
  down(): Promise<void>;
  /** Accept connections again, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startDockerProxy(socketPath = '/var/run/docker.sock'): Promise<DockerProxy> {
  const sockets = new Set<Socket>();
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
  await listen();
  return { url: `tcp://127.0.0.1:${port}`, down, up: listen, close: down };
}
