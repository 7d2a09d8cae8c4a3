// The client of Podman's Docker-compatible service (docs/podman.md): dockerode on its unix socket,
// whose failures carry Docker's status codes, so that the Docker provider's code reads them as it
// reads Docker's; and the check that turns a service that does not answer into one clear line.
import type Docker from 'dockerode';
import { BenchrigError, describe } from '../../errors.ts';
import { Dockerode, withDeadline } from '../docker/client.ts';
import type { PodmanSpec } from './settings.ts';

/**
 * Podman 4 answers 500 "container state improper" where Docker answers 409 (kill or exec in a
 * container that is not running, start of one that runs): 409 is what the provider's code reads
 * as "not running" (client.ts `dockerFacts`, DockerSandbox.restart).
 */
const STATE_IMPROPER = /container state improper/i;

interface ModemError {
  statusCode?: number;
  json?: { cause?: string; message?: string } | null;
  message?: string;
}

function dockerStatus(err: ModemError | null | undefined): void {
  if (err?.statusCode !== 500) return;
  if (STATE_IMPROPER.test(err.json?.cause ?? err.json?.message ?? err.message ?? '')) err.statusCode = 409;
}

const clients = new Map<string, Docker>();

/** This process's client for the service at `spec.url` (made once). */
export function podmanClient(spec: PodmanSpec): Docker {
  let client = clients.get(spec.url);
  if (!client) {
    client = new (Dockerode())({ socketPath: spec.url.slice('unix://'.length) });
    const modem = client.modem as { dial(options: unknown, callback: (err: unknown, data: unknown) => void): void };
    const dial = modem.dial.bind(modem);
    modem.dial = (options, callback) =>
      dial(options, (err, data) => {
        dockerStatus(err as ModemError | null);
        callback(err, data);
      });
    clients.set(spec.url, client);
  }
  return client;
}

/** Throws BenchrigError('docker_unavailable') (exit 3) naming the socket, who chose it and how to start the service. */
export async function checkPodman(spec: PodmanSpec, timeoutMs = 5_000): Promise<void> {
  try {
    await withDeadline(podmanClient(spec).ping(), timeoutMs, `ping ${spec.url}`);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    const why = typeof code === 'string' ? code : describe(err).split('\n')[0];
    throw new BenchrigError(
      'docker_unavailable',
      `Podman is not reachable at ${spec.url} (${spec.source}): ${why}. Start its service as root ` +
        '(`bash scripts/setup-podman.sh`, or `podman system service --time=0 ' +
        `${spec.url} &\`), or correct CONTAINER_HOST (docs/podman.md)`,
    );
  }
}
