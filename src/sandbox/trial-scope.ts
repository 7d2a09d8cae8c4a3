// What a multi-service trial holds besides its containers, on one engine (docs/sandboxes.md#networks-per-trial):
// its own network and the volumes its services share. Opened before its services start, closed after
// they are gone (DockerEnvironments.stop), each part removed whatever happened to the others.
import type Docker from 'dockerode';
import { createTrialNetwork, removeTrialNetwork, type DockerTrialNetwork } from './networks.ts';
import type { TrialNetwork, TrialVolume } from './provider.ts';
import type { SubnetPool } from './subnet-pool.ts';
import { createTrialVolumes, removeTrialVolume } from './trial-volumes.ts';
import type { SandboxLabels, SandboxSpec } from './types.ts';

export interface ScopeRequest {
  /** Containers that will join the network, main included (sizes its subnet). */
  services: number;
  /** No way out of the trial: see `isInternal`. */
  internal: boolean;
  /** The names of the volumes its services share. */
  volumes?: readonly string[];
  /** Default: $BENCHRIG_SUBNET_POOL, else the default pool (subnet-pool.ts). */
  pool?: SubnetPool;
  signal?: AbortSignal;
}

export interface DockerTrialScope {
  readonly network: DockerTrialNetwork;
  readonly volumes: readonly TrialVolume[];
}

/** Where one service joins its trial (DockerProvider.start): the network, its names there, the volumes it mounts. */
export interface ServiceAttachment {
  network: string;
  /** The names the other services reach it by (its service name). */
  aliases: string[];
  volumes: Array<{ source: string; target: string; readOnly: boolean }>;
}

/**
 * A trial's network is internal unless its sandbox may reach out (`[sandbox] network = "bridge"`,
 * which `--network none` and installed agents take away before the spec gets here).
 */
export const isInternal = (spec: Pick<SandboxSpec, 'network'>): boolean => spec.network !== 'bridge';

/** The network, then the volumes; a failure removes what was made and throws. */
export async function openTrialScope(
  client: Docker,
  labels: SandboxLabels,
  req: ScopeRequest,
): Promise<DockerTrialScope> {
  const network = await createTrialNetwork(client, {
    labels,
    internal: req.internal,
    hosts: req.services,
    pool: req.pool,
    signal: req.signal,
  });
  try {
    return { network, volumes: await createTrialVolumes(client, labels, req.volumes ?? []) };
  } catch (err) {
    await removeTrialNetwork(client, network).catch(() => undefined); // the run's sweep is the backstop
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
 * Removes the network and the volumes, each tried whatever happened to the others (a container still
 * attached is disconnected, one still using a volume removed); throws the first failure after all were tried.
 */
export async function closeTrialScope(
  client: Docker,
  scope: { network?: TrialNetwork; volumes?: readonly TrialVolume[] },
): Promise<void> {
  const failures: unknown[] = [];
  const fail = (err: unknown) => void failures.push(err);
  await Promise.all([
    scope.network ? removeTrialNetwork(client, scope.network).catch(fail) : undefined,
    ...(scope.volumes ?? []).map((v) => removeTrialVolume(client, v.source).catch(fail)),
  ]);
  if (failures.length) throw failures[0];
}
