// What Podman does its own way behind Docker's API (engine.ts `EngineApi`; docs/podman.md): a trial
// network made through Podman's own API, without its DNS server (which would listen on an address
// of the host on the trial's bridge: an internal network would reach the host), so its services
// find each other through `/etc/hosts` (service-names.ts); healthchecks run by benchrig, since
// Podman runs them from systemd timers only, and a machine without systemd has none; and the root
// folder's mode as Docker has it.
import type Docker from 'dockerode';
import { DEFAULT_DEADLINE_MS, withDeadline } from '../docker/client.ts';
import type { EngineApi, NetworkCreate } from '../docker/engine.ts';

/** Podman's own API (the Docker-compatible one has no switch for the DNS server); 4.0 is the oldest it serves. */
const LIBPOD = '/v4.0.0/libpod';

/** One call through the client's modem (its socket, its errors with Docker's status codes: client.ts). */
function dial<T>(client: Docker, options: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) =>
    (client.modem as { dial(o: unknown, cb: (err: Error | null, data: T) => void): void }).dial(options, (err, data) =>
      err ? reject(err) : resolve(data),
    ),
  );
}

async function createNetwork(client: Docker, net: NetworkCreate): Promise<{ id: string }> {
  const made = await dial<{ id: string }>(client, {
    path: `${LIBPOD}/networks/create?`,
    method: 'POST',
    options: {
      name: net.name,
      driver: 'bridge',
      internal: net.internal,
      dns_enabled: false,
      // An internal network without a DNS server gives the host no address on its bridge; one that
      // may reach out has its gateway there, as with Docker.
      subnets: [net.internal ? { subnet: net.subnet } : { subnet: net.subnet, gateway: net.gateway }],
      labels: net.labels,
      options: { isolate: 'true' }, // no route to other trials' networks, as Docker's bridges have none
    },
    statusCodes: { 200: true, 201: true, 400: 'bad parameter', 409: 'conflict', 500: 'server error' },
  });
  return { id: made.id };
}

/** Podman's `healthcheck run`: one probe, recorded in the container's health state as a timed one would be. */
async function runHealthcheck(client: Docker, id: string): Promise<void> {
  await dial(client, {
    path: `${LIBPOD}/containers/${encodeURIComponent(id)}/healthcheck?`,
    method: 'GET',
    statusCodes: { 200: true, 404: 'no such container', 409: 'not running', 500: 'server error' },
  });
}

/**
 * Podman's storage (4.3) makes a container's root folder mode 0555 whatever the image says (Docker's
 * is 0755): root without capabilities, as in every sandbox, could not make a folder in `/`. A copy of
 * `./` at 0755 into `/` before the container starts sets it as Docker has it.
 */
async function beforeStart(container: Docker.Container): Promise<void> {
  const tar = (await import('tar-stream')).pack();
  tar.entry({ name: './', type: 'directory', mode: 0o755, uid: 0, gid: 0 });
  tar.finalize();
  await withDeadline(
    container.putArchive(tar as unknown as NodeJS.ReadableStream, { path: '/' }),
    DEFAULT_DEADLINE_MS,
    'set the root folder',
  );
}

export const PODMAN_API: EngineApi = { names: 'hosts', createNetwork, runHealthcheck, beforeStart };
