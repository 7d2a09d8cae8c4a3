// One engine that speaks Docker's API, as the Docker provider (docker/environments.ts) talks to it:
// Docker's own daemon (DOCKER_HOST, else the local socket), or another engine that speaks the same
// API with differences of its own (Podman's service: sandbox/podman/, docs/podman.md). The provider's
// code is the same for both; what differs is given here, never asked by the engine's name.
import type Docker from 'dockerode';
import { checkDocker, docker, dockerEndpoint } from './client.ts';
import { keptSandboxLine, runCleanup } from './labels.ts';

/** A trial network to make (networks.ts): its subnet of benchrig's pool, given explicitly. */
export interface NetworkCreate {
  name: string;
  subnet: string;
  gateway: string;
  internal: boolean;
  labels: Record<string, string>;
}

/** What an engine does its own way. */
export interface EngineApi {
  /**
   * How a trial's services find each other by name: the engine's DNS on the trial network (Docker's
   * embedded one), or `/etc/hosts` entries at addresses benchrig gives them (an engine whose DNS server
   * would put an address of the host on an internal network: docs/podman.md#networks).
   */
  readonly names: 'dns' | 'hosts';
  /** Makes a trial network; a subnet already taken fails with a message saying it overlaps or is already used. */
  createNetwork(client: Docker, net: NetworkCreate): Promise<{ id: string }>;
  /**
   * Runs a service's healthcheck once (`service_healthy`), for an engine that runs none on its own
   * (Podman without systemd); absent: the engine runs them at their interval.
   */
  runHealthcheck?(client: Docker, id: string): Promise<void>;
  /** Made ready between its create and its start (every sandbox and service): what the engine leaves unlike Docker. */
  beforeStart?(container: Docker.Container): Promise<void>;
}

/** One engine: its client, its check, its differences. */
export interface DockerEngine {
  /** Names it in messages and keys the caches kept per engine (the disk quota's answer). */
  readonly key: string;
  client(): Docker;
  /** Throws BenchrigError('docker_unavailable') naming the engine and what to do when it does not answer. */
  check(): Promise<void>;
  readonly api: EngineApi;
  /** What `--keep-sandbox` prints: how to enter and remove one kept container, and the command that removes the run's. */
  readonly kept: EngineKept;
}

/** A kept container's line and the command that removes a run's sandboxes, kept ones included (`sandbox cleanup --run`). */
export interface EngineKept {
  line(id: string, runDir: string, host?: string): string;
  cleanup(runDir: string, host?: string): string;
}

/** Docker's own network create: a bridge on the given subnet, with no address of the host on an internal one. */
async function createDockerNetwork(client: Docker, net: NetworkCreate): Promise<{ id: string }> {
  return client.createNetwork({
    Name: net.name,
    Driver: 'bridge',
    CheckDuplicate: true,
    Internal: net.internal,
    Attachable: false,
    Labels: net.labels,
    IPAM: { Driver: 'default', Config: [{ Subnet: net.subnet, Gateway: net.gateway }] },
    Options: {
      'com.docker.network.bridge.enable_icc': 'true', // the trial's services reach each other
      // An internal bridge still carries the gateway address, on which the host answers: not given one.
      ...(net.internal ? { 'com.docker.network.bridge.inhibit_ipv4': 'true' } : {}),
    },
  });
}

export const DOCKER_API: EngineApi = { names: 'dns', createNetwork: createDockerNetwork };

/** The local Docker daemon (DOCKER_HOST, else /var/run/docker.sock), as without a fleet. */
export const localDocker = (): DockerEngine => ({
  key: `local:${dockerEndpoint()}`,
  client: docker,
  check: () => checkDocker(),
  api: DOCKER_API,
  kept: { line: keptSandboxLine, cleanup: runCleanup },
});
