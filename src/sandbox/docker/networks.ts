// One Docker network per multi-service trial (docs/sandboxes.md#networks-per-trial), on a small
// subnet of benchrig's pool (subnet-pool.ts) given explicitly, so that Docker's default pools are
// never used up. The daemon refuses a subnet that overlaps another network's, atomically: that
// refusal is the lock, so allocators in other threads, processes and runs on the engine never
// collide, and a refused candidate just moves the search on.
import { randomBytes, randomInt } from 'node:crypto';
import type Docker from 'dockerode';
import { SandboxError } from '../../errors.ts';
import { DEFAULT_DEADLINE_MS, dockerError, dockerMessage, sleep, statusOf, withDeadline } from './client.ts';
import { DOCKER_API, type EngineApi } from './engine.ts';
import { buildLabels } from './labels.ts';
import { inNetworkLane } from './network-lanes.ts';
import type { TrialNetwork } from '../provider.ts';
import {
  cidrText,
  overlaps,
  parseCidr,
  prefixFor,
  slotsOf,
  subnetAt,
  subnetPool,
  type Cidr,
  type SubnetPool,
} from './subnet-pool.ts';
import type { SandboxLabels } from '../types.ts';

/** Candidates tried before giving up (each refusal also teaches the daemon's taken subnets). */
const MAX_ATTEMPTS = 24;
const REMOVE_ATTEMPTS = 3;
const BACKOFF_MS = 300;

export interface DockerTrialNetwork extends TrialNetwork {
  readonly id: string;
  readonly subnet: string;
  readonly gateway: string;
}

interface NetworkRequest {
  labels: SandboxLabels;
  /** No route out of the subnet, and no address of the host on its bridge: the host is not reachable either. */
  internal: boolean;
  /** Containers that will join it (sizes the subnet); default 2. */
  hosts?: number;
  /** Default: `subnetPool()` ($BENCHRIG_SUBNET_POOL or the default). */
  pool?: SubnetPool;
  /** The engine's own network create (engine.ts); default Docker's. */
  api?: Pick<EngineApi, 'createNetwork'>;
  signal?: AbortSignal;
}

/** Subnets this process holds: skipped without asking the daemon (a hint only; the daemon decides). */
const held = new Set<string>();

/** Creates the trial's network on a free subnet of the pool; a SandboxError when the pool is full or Docker fails. */
export async function createTrialNetwork(client: Docker, req: NetworkRequest): Promise<DockerTrialNetwork> {
  const pool = req.pool ?? subnetPool();
  const prefix = prefixFor(req.hosts ?? 2, pool);
  const slots = slotsOf(pool, prefix);
  const taken: Cidr[] = [];
  let learned = false;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    req.signal?.throwIfAborted();
    // What this process holds now, too: other trials' calls may have taken subnets while this one waited.
    const index = freeIndex(pool, prefix, slots, [...taken, ...[...held].flatMap((s) => parseCidr(s) ?? [])]);
    if (index === null) break;
    const candidate = subnetAt(pool, prefix, index);
    try {
      return await create(client, req, candidate);
    } catch (err) {
      if (!isOverlap(err)) throw dockerError(`could not create the trial's network: ${dockerMessage(err)}`, err);
      taken.push(candidate);
      if (!learned) taken.push(...(await daemonSubnets(client)));
      learned = true;
    }
  }
  throw new SandboxError(
    `no free /${prefix} subnet in the subnet pool ${pool.text} for the trial's network (other networks hold them): ` +
      `remove networks left behind (benchrig sandbox cleanup), or give benchrig a larger range (docs/sandboxes.md#networks-per-trial)`,
    undefined,
    true, // trials that end free theirs
    { daemon: 'answered' },
  );
}

/** A random free slot (concurrent allocators start apart), walking on from it past what is known taken. */
function freeIndex(pool: Cidr, prefix: number, slots: number, taken: Cidr[]): number | null {
  const start = randomInt(0, Math.min(slots, 2 ** 47));
  for (let i = 0; i < slots; i++) {
    const index = (start + i) % slots;
    const c = subnetAt(pool, prefix, index);
    if (!taken.some((t) => overlaps(c, t))) return index;
  }
  return null;
}

async function create(client: Docker, req: NetworkRequest, c: Cidr & { gateway: string }): Promise<DockerTrialNetwork> {
  const subnet = cidrText(c);
  const slug = req.labels.sessionId.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, 40);
  const name = `benchrig-${slug}-${randomBytes(3).toString('hex')}`;
  held.add(subnet);
  try {
    const network = await inNetworkLane(
      client,
      () =>
        withDeadline(
          (req.api ?? DOCKER_API).createNetwork(client, {
            name,
            subnet,
            gateway: c.gateway,
            internal: req.internal,
            labels: buildLabels(req.labels),
          }),
          DEFAULT_DEADLINE_MS,
          `create network ${name}`,
        ),
      req.signal,
    );
    return { id: network.id, name, internal: req.internal, subnet, gateway: c.gateway };
  } catch (err) {
    held.delete(subnet);
    throw err;
  }
}

/**
 * "Pool overlaps with other one on this address space" (older Docker engines), "invalid pool request: …"
 * (newer), "subnet … is already used on the host or by another config" (Podman).
 */
const isOverlap = (err: unknown): boolean =>
  statusOf(err) !== undefined && /overlaps|is already used/i.test(dockerMessage(err));

/** The IPv4 subnets of the daemon's networks (after a refusal: what else to skip). */
async function daemonSubnets(client: Docker): Promise<Cidr[]> {
  const nets = await withDeadline(client.listNetworks(), DEFAULT_DEADLINE_MS, 'list networks').catch(() => []);
  return nets.flatMap((n) => (n.IPAM?.Config ?? []).flatMap((c) => (c.Subnet ? (parseCidr(c.Subnet) ?? []) : [])));
}

/**
 * Removes a trial's network (by name or id); false when it was gone already. A container still
 * attached (one whose removal failed) is disconnected by force first. A SandboxError after a few attempts.
 */
export async function removeTrialNetwork(client: Docker, network: { name: string; subnet?: string }): Promise<boolean> {
  const net = client.getNetwork(network.name);
  const forget = () => void (network.subnet && held.delete(network.subnet));
  let lastError: unknown;
  for (let attempt = 1; attempt <= REMOVE_ATTEMPTS; attempt++) {
    try {
      await inNetworkLane(client, () =>
        withDeadline(net.remove(), DEFAULT_DEADLINE_MS, `remove network ${network.name}`),
      );
      forget();
      return true;
    } catch (err) {
      if (statusOf(err) === 404) return (forget(), false);
      lastError = err;
      if (/active endpoints/i.test(dockerMessage(err))) await disconnectAll(net);
      else if (attempt < REMOVE_ATTEMPTS) await sleep(BACKOFF_MS * 2 ** (attempt - 1));
    }
  }
  throw dockerError(`could not remove network ${network.name}: ${dockerMessage(lastError)}`, lastError);
}

async function disconnectAll(net: Docker.Network): Promise<void> {
  const info = (await withDeadline(net.inspect(), DEFAULT_DEADLINE_MS, 'inspect network').catch(() => null)) as {
    Containers?: Record<string, unknown>;
  } | null;
  for (const container of Object.keys(info?.Containers ?? {}))
    await withDeadline(
      net.disconnect({ Container: container, Force: true }),
      DEFAULT_DEADLINE_MS,
      'disconnect from network',
    ).catch(() => undefined); // gone meanwhile: the next remove says what is left
}

/** Joins a created container to further networks of its trial before it starts (one network is given at create). */
export async function connectNetworks(
  client: Docker,
  container: string,
  more: ReadonlyArray<{ network: string; aliases: string[]; address?: string }>,
): Promise<void> {
  for (const m of more)
    await withDeadline(
      client.getNetwork(m.network).connect({ Container: container, EndpointConfig: endpointConfig(m) }),
      DEFAULT_DEADLINE_MS,
      `connect to network ${m.network}`,
    );
}

/** A container's place on one network: its names, and its fixed address when it has one (engine.ts `names`). */
export const endpointConfig = (m: { aliases: string[]; address?: string }): Docker.EndpointSettings => ({
  Aliases: m.aliases,
  ...(m.address ? { IPAMConfig: { IPv4Address: m.address } } : {}),
});
