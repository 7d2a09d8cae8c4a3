// What a multi-service trial holds besides its containers, on one engine (docs/sandboxes.md#networks-per-trial):
// its own network and the volumes its services share. Opened before its services start, closed after
// they are gone (DockerEnvironments.stop), each part removed whatever happened to the others.
import type Docker from 'dockerode';
import type { EngineApi } from './engine.ts';
import { createTrialNetwork, removeTrialNetwork, type DockerTrialNetwork } from './networks.ts';
import type { TrialNetwork, TrialVolume } from '../provider.ts';
import type { SubnetPool } from './subnet-pool.ts';
import { createTrialVolumes, removeTrialVolume } from './trial-volumes.ts';
import type { SandboxLabels, SandboxSpec } from '../types.ts';

export interface ScopeRequest {
  /** Containers that will join the network, main included (sizes its subnet). */
  services: number;
  /** No way out of the trial: see `isInternal`. */
  internal: boolean;
  /**
   * Several networks (a compose file's `networks`), each its own Docker network on its own subnet;
   * absent: one network, `services` and `internal` as above. The first is the scope's `network`.
   */
  networks?: ReadonlyArray<{ name: string; internal: boolean; services: number }>;
  /** The names of the volumes its services share. */
  volumes?: readonly string[];
  /** Default: $BENCHRIG_SUBNET_POOL, else the default pool (subnet-pool.ts). */
  pool?: SubnetPool;
  /** The engine's own network create (engine.ts); default Docker's. */
  api?: Pick<EngineApi, 'createNetwork'>;
  signal?: AbortSignal;
}

export interface DockerTrialScope {
  /** The first (or only) network. */
  readonly network: DockerTrialNetwork;
  /** Every network of the trial, by the name the environment gives it (one: `default`). */
  readonly networks: Readonly<Record<string, DockerTrialNetwork>>;
  readonly volumes: readonly TrialVolume[];
}

/** Where one service joins its trial (DockerProvider.start): the network, its names there, the volumes it mounts. */
export interface ServiceAttachment {
  network: string;
  /** The names the other services reach it by (its service name). */
  aliases: string[];
  /** Its fixed address there, when the engine's DNS is not used (engine.ts `names`). */
  address?: string;
  /** Further networks of the trial it joins (connected before it starts), with its names on each. */
  more?: Array<{ network: string; aliases: string[]; address?: string }>;
  /** `/etc/hosts` entries (`name:address`) of the services it shares a network with, when the engine's DNS is not used. */
  hosts?: string[];
  volumes: Array<{ source: string; target: string; readOnly: boolean }>;
}

/**
 * A trial's network is internal unless its sandbox may reach out (`[sandbox] network = "bridge"`,
 * which `--network none` and installed agents take away before the spec gets here).
 */
export const isInternal = (spec: Pick<SandboxSpec, 'network'>): boolean => spec.network !== 'bridge';

/** The networks, then the volumes; a failure removes what was made and throws. */
export async function openTrialScope(
  client: Docker,
  labels: SandboxLabels,
  req: ScopeRequest,
): Promise<DockerTrialScope> {
  const wanted = req.networks?.length
    ? req.networks
    : [{ name: 'default', internal: req.internal, services: req.services }];
  const networks: Record<string, DockerTrialNetwork> = {};
  try {
    for (const n of wanted)
      networks[n.name] = await createTrialNetwork(client, {
        labels,
        internal: n.internal,
        hosts: n.services,
        pool: req.pool,
        ...(req.api ? { api: req.api } : {}),
        signal: req.signal,
      });
    const volumes = await createTrialVolumes(client, labels, req.volumes ?? []);
    return { network: networks[wanted[0].name], networks, volumes };
  } catch (err) {
    for (const n of Object.values(networks)) await removeTrialNetwork(client, n).catch(() => undefined); // the run's sweep is the backstop
    throw err;
  }
}

/**
 * `service` on the scope's network under its name, mounting the trial's volumes by their names
 * (`mounts`: volume name → path; a name the scope lacks is a programming error and throws).
 */
export function attachment(
  scope: DockerTrialScope,
  service: string,
  mounts: Readonly<Record<string, string | { target: string; readOnly?: boolean }>> = {},
): ServiceAttachment {
  const volumes = Object.entries(mounts).map(([name, m]) => {
    const volume = scope.volumes.find((v) => v.name === name);
    if (!volume) throw new Error(`volume ${JSON.stringify(name)} is not one of the trial's`);
    const { target, readOnly = false } = typeof m === 'string' ? { target: m } : m;
    return { source: volume.source, target, readOnly };
  });
  return { network: scope.network.name, aliases: [service], volumes };
}

/**
 * Removes the networks and the volumes, each tried whatever happened to the others (a container still
 * attached is disconnected, one still using a volume removed); throws the first failure after all were tried.
 */
export async function closeTrialScope(
  client: Docker,
  scope: {
    network?: TrialNetwork;
    networks?: Readonly<Record<string, TrialNetwork>> | readonly TrialNetwork[];
    volumes?: readonly TrialVolume[];
  },
): Promise<void> {
  const failures: unknown[] = [];
  const fail = (err: unknown) => void failures.push(err);
  const networks = new Map<string, TrialNetwork>();
  for (const n of [...(scope.network ? [scope.network] : []), ...Object.values(scope.networks ?? {})])
    networks.set(n.name, n);
  await Promise.all([
    ...[...networks.values()].map((n) => removeTrialNetwork(client, n).catch(fail)),
    ...(scope.volumes ?? []).map((v) => removeTrialVolume(client, v.source).catch(fail)),
  ]);
  if (failures.length) throw failures[0];
}
