// A multi-service trial's network and volumes through the Docker provider (docs/sandboxes.md#networks-per-trial):
// its services reach each other by name and share volumes; an agent in it cannot reach another trial's
// services, the host or the internet; stop and the sweep leave nothing (kept environments are spared).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { DockerEnvironments } from '../../../../src/sandbox/docker/environments.ts';
import { runFilter } from '../../../../src/sandbox/docker/labels.ts';
import { createTrialNetwork } from '../../../../src/sandbox/docker/networks.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import { sweep } from '../../../../src/sandbox/docker/sweep.ts';
import { createTrialVolumes } from '../../../../src/sandbox/docker/trial-volumes.ts';
import type { Sandbox, SandboxLabels } from '../../../../src/sandbox/types.ts';
import { defined } from '../../../support/defined.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('trial-scope');
const provider = new DockerEnvironments();
const filters = JSON.stringify(runFilter(runId));
const ourNetworks = async () => (await docker().listNetworks({ filters })).map((n) => n.Name).sort();
const ourVolumes = async () => ((await docker().listVolumes({ filters })).Volumes ?? []).map((v) => v.Name).sort();

/** A two-service environment as the wiring makes one: main and `db`, sharing the volume `shared`. */
async function twoServices(sessionId: string, network: 'none' | 'bridge' = 'none'): Promise<Environment> {
  const labels: SandboxLabels = { runId, sessionId };
  const scope = await provider.openScope(labels, { services: 2, internal: network !== 'bridge', volumes: ['shared'] });
  const spec = testSpec({ network });
  const db = await provider.startService(spec, labels, { scope, service: 'db', mounts: { shared: '/data' } });
  const main = await provider.startService(spec, labels, { scope, service: 'main', mounts: { shared: '/shared' } });
  return { main, services: { db }, network: scope.network, volumes: scope.volumes };
}

/** `nc` from `from` to host:port; the reply, or null when it could not connect (within 3 s). */
async function fetchFrom(from: Sandbox, host: string, port: number, path = '/'): Promise<string | null> {
  const started = Date.now();
  const r = await from.exec(`printf 'GET ${path} HTTP/1.0\\r\\n\\r\\n' | nc -w 2 ${host} ${port}`, {
    timeoutMs: 15_000,
  });
  expect(Date.now() - started, `nc to ${host}:${port} must fail fast`).toBeLessThan(8_000);
  return r.exitCode === 0 && r.stdout ? r.stdout : null;
}

/**
 * The gateway address of a network, as the daemon reports it, else the first address of its subnet
 * (where Docker puts a bridge's gateway): a daemon that found its default bridge (docker0) already
 * there reports no Gateway for it.
 */
async function gatewayOf(network: string): Promise<string> {
  const info = (await docker().getNetwork(network).inspect()) as {
    IPAM?: { Config?: Array<{ Gateway?: string; Subnet?: string }> };
  };
  const config = info.IPAM?.Config?.[0];
  const first = /^(\d+\.\d+\.\d+)\.0\/\d+$/.exec(config?.Subnet ?? '')?.[1];
  return defined(config?.Gateway ?? (first && `${first}.1`), `gateway of ${network}`);
}

const netName = (env: Environment): string => defined(env.network, 'trial network').name;

const ipOn = async (sb: Sandbox, network: string): Promise<string> =>
  (await docker().getContainer(sb.id).inspect()).NetworkSettings.Networks[network].IPAddress;

describe.skipIf(!ok)('a trial’s own network and volumes', () => {
  const envs: Environment[] = [];
  let a: Environment;
  let b: Environment;
  let hostServer: http.Server;
  let hostPort = 0;

  beforeAll(async () => {
    // Something on the host that answers on every address: what an agent must not reach.
    hostServer = http.createServer((_, res) => res.end('host-secret'));
    await new Promise<void>((resolve) => hostServer.listen(0, '0.0.0.0', resolve));
    hostPort = (hostServer.address() as AddressInfo).port;
    [a, b] = await Promise.all([twoServices('trial-a'), twoServices('trial-b')]);
    envs.push(a, b);
    for (const env of [a, b]) {
      // db serves the shared volume over HTTP (busybox httpd daemonises), main writes into it.
      expect((await env.services.db.exec('httpd -p 8080 -h /data', { trusted: true })).exitCode).toBe(0);
      await env.main.exec(`echo from-${env === a ? 'a' : 'b'} > /shared/hello`);
    }
  });

  afterAll(async () => {
    for (const env of envs) await provider.stop(env, { interrupted: false }).catch(() => undefined);
    await new Promise((resolve) => hostServer.close(resolve));
    await sweep({ runId, all: false });
    expect(await benchrigContainers(runId)).toEqual([]);
    expect(await ourNetworks()).toEqual([]);
    expect(await ourVolumes()).toEqual([]);
  });

  it('services reach each other by service name and share the trial’s volume', async () => {
    expect(await fetchFrom(a.main, 'db', 8080, '/hello')).toContain('from-a');
    expect(await fetchFrom(b.main, 'db', 8080, '/hello')).toContain('from-b');
    expect(await a.services.db.readFile('/data/hello')).toBe('from-a\n');
  });

  it('an agent cannot reach another trial’s services, by name or by address', async () => {
    const dbOfB = await ipOn(b.services.db, netName(b));
    expect(await fetchFrom(b.main, dbOfB, 8080, '/hello')).toContain('from-b'); // the address is right
    expect(await fetchFrom(a.main, dbOfB, 8080, '/hello')).toBeNull();
    const byName = await a.main.exec('nslookup db', { timeoutMs: 10_000 });
    expect(byName.stdout).toContain(await ipOn(a.services.db, netName(a)));
    expect(byName.stdout).not.toContain(dbOfB);
  });

  it('an internal trial network has no way out: not the host (on any of its addresses), not the internet', async () => {
    const bridgeGateway = await gatewayOf('bridge');
    const gateway = await gatewayOf(netName(a));
    for (const host of [gateway, bridgeGateway]) expect(await fetchFrom(a.main, host, hostPort), host).toBeNull();
    expect(await fetchFrom(a.main, '1.1.1.1', 80)).toBeNull();
    expect(a.network?.internal).toBe(true);
  });

  it('a trial whose sandbox may reach out (network = "bridge") gets a network that reaches the host: the check above can see a way out', async () => {
    const open = await twoServices('trial-open', 'bridge');
    envs.push(open);
    expect(open.network?.internal).toBe(false);
    const gateway = await gatewayOf(netName(open));
    expect(await fetchFrom(open.main, gateway, hostPort)).toContain('host-secret');
  });

  it('stop removes the services, the network and the volumes, even with a container still attached', async () => {
    const env = await twoServices('stop-me');
    // A service whose removal the provider never got to (not in `services`): still on the network, using the volume.
    const { db } = env.services;
    await provider.stop({ ...env, services: {} }, { interrupted: false });
    await expect(docker().getNetwork(netName(env)).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect(env.volumes).toHaveLength(1);
    for (const v of env.volumes ?? [])
      await expect(docker().getVolume(v.source).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(docker().getContainer(db.id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await provider.stop(env, { interrupted: false }); // again: everything gone already is fine
  });
});

describe.skipIf(!ok)('the sweep and trial networks and volumes', () => {
  const sweepRun = testRunId('trial-scope-sweep');
  const sweepFilters = JSON.stringify(runFilter(sweepRun));
  const sessions = async () => ({
    networks: (await docker().listNetworks({ filters: sweepFilters }))
      .map((n) => n.Labels?.['benchrig.session'])
      .sort(),
    volumes: ((await docker().listVolumes({ filters: sweepFilters })).Volumes ?? [])
      .map((v) => v.Labels['benchrig.session'])
      .sort(),
  });

  afterAll(async () => {
    // The kept ones too (no sweep but `--kept`/`--all` takes them, and those would touch other runs' leftovers).
    for (const n of await docker().listNetworks({ filters: sweepFilters })) await docker().getNetwork(n.Id).remove();
    for (const v of (await docker().listVolumes({ filters: sweepFilters })).Volumes ?? [])
      await docker().getVolume(v.Name).remove();
    expect(await sessions()).toEqual({ networks: [], volumes: [] });
  });

  it('finds a dead run’s networks and volumes, and spares a live run’s and kept ones', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    const make = async (sessionId: string, pid: number, keep = false) => {
      const labels = { runId: sweepRun, sessionId, pid, keep };
      await createTrialNetwork(docker(), { labels, internal: true });
      await createTrialVolumes(docker(), labels, ['shared']);
    };
    await make('dead', deadPid);
    await make('kept', deadPid, true);
    await make('live', process.pid);

    await sweep(); // the start-up sweep of dead runs (another run's may have removed ours first: no count)
    expect(await sessions()).toEqual({ networks: ['kept', 'live'], volumes: ['kept', 'live'] });
    expect(await sweep({ runId: sweepRun })).toBe(2); // the run's own end: its network and volume, not the kept ones
    expect(await sessions()).toEqual({ networks: ['kept'], volumes: ['kept'] });
  }, 120_000);
});
