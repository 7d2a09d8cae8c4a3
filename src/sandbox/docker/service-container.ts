// A service beside main (docs/sandboxes.md#multi-service-environments): its image's own process (or
// the compose `command`/`entrypoint`), with the hardening of every sandbox — capabilities dropped, no
// new privileges, memory, CPU, pids and disk bounds (the service's own value, else the benchmark's
// default), the sweep's labels — on the trial's network, with its volumes; the task's bind sources
// are copied in per trial, so the task folder on the host is never written.
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import type { HealthcheckSpec, ServiceSpec } from '../../environment/spec.ts';
import { readBoundFile } from './bound-file.ts';
import { DEFAULT_DEADLINE_MS, withDeadline } from './client.ts';
import { copyIn } from './copy.ts';
import { withStorageQuota } from './disk-quota.ts';
import { DockerSandbox, parseMemory } from './sandbox.ts';
import type { EngineApi } from './engine.ts';
import { hardened, type Hardening } from './hardened.ts';
import { buildLabels, withoutOwnLabels } from './labels.ts';
import { connectNetworks, endpointConfig } from './networks.ts';
import { ensureToolbox, toolboxMount } from './toolbox.ts';
import type { ServiceAttachment } from './trial-scope.ts';
import type { SandboxLabels, SandboxSpec } from '../types.ts';

/** The label naming a container's service in its environment (`--keep-sandbox` prints it). */
const SERVICE_LABEL = 'benchrig.service';
/** The longest a service's `stop_grace_period` holds a trial's cleanup. */
const MAX_STOP_GRACE_S = 30;

interface ServiceStart {
  client: Docker;
  /** The engine's own ways (engine.ts); absent: Docker's. */
  api?: Pick<EngineApi, 'beforeStart'>;
  /** The fleet URL of the engine, absent for the local one (the disk quota's cache key otherwise). */
  host?: string;
  hostKey: string;
  /** The benchmark's `[sandbox]` (main's spec): the default bounds. */
  base: SandboxSpec;
  name: string;
  service: ServiceSpec;
  labels: SandboxLabels;
  /** On the trial's network (absent: `networkMode` decides). */
  attach?: ServiceAttachment;
  /** `network_mode: service:<name>`: that service's container id. */
  shareWith?: string;
  /** Without `attach` (a `network_mode`): the trial's volumes it mounts. */
  volumes?: ServiceAttachment['volumes'];
}

/** Created, bind sources copied in, started; a created container is removed if a later step throws. */
export async function startServiceContainer(o: ServiceStart): Promise<DockerSandbox> {
  const image = o.service.image;
  if (!image) throw new Error(`internal: service ${o.name} has no image resolved`);
  const toolbox = await ensureToolbox(image, o.client);
  const disk = o.base.disk ? parseMemory(o.base.disk) : null;
  const options = await withStorageQuota(serviceOptions(o, image, toolbox), o.client, o.hostKey, disk, o.labels);
  const container = await withDeadline(o.client.createContainer(options), DEFAULT_DEADLINE_MS, `create ${o.name}`);
  try {
    if (o.attach?.more?.length) await connectNetworks(o.client, container.id, o.attach.more);
    for (const m of o.service.mounts) if (m.type === 'bind') await copyBind(container, m.source, m.target);
    await o.api?.beforeStart?.(container);
    await withDeadline(container.start(), DEFAULT_DEADLINE_MS, `start ${o.name}`);
    const info = await withDeadline(container.inspect(), DEFAULT_DEADLINE_MS, `inspect ${o.name}`);
    const workdir = o.service.workingDir ?? (info.Config.WorkingDir || '/');
    const limits = { execTimeoutMs: o.base.execTimeoutMs, maxOutputBytes: o.base.maxOutputBytes };
    const box = new DockerSandbox(container, image, workdir, limits, o.client, o.host);
    if (o.service.stopGracePeriodMs !== undefined)
      box.stopGraceS = Math.min(Math.ceil(o.service.stopGracePeriodMs / 1000), MAX_STOP_GRACE_S);
    return box;
  } catch (err) {
    await withDeadline(container.remove({ force: true, v: true }), DEFAULT_DEADLINE_MS, 'remove').catch(() => {});
    throw err;
  }
}

/** A bound file of the task, copied to its target: the trial's own copy (a bound folder is a trial volume: `attach`). */
async function copyBind(container: Docker.Container, source: string, target: string): Promise<void> {
  if (statSync(source).isDirectory()) return;
  await copyIn(container, { [path.posix.basename(target)]: await readBoundFile(source) }, path.posix.dirname(target));
}

export function serviceOptions(o: ServiceStart, image: string, toolbox: string): Docker.ContainerCreateOptions {
  const s = o.service;
  const slug = `${o.labels.sessionId}-${o.name}`.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, 60);
  const network = o.attach?.network ?? (o.shareWith ? `container:${o.shareWith}` : undefined);
  const hardening: Hardening = {
    labels: { ...buildLabels(o.labels), [SERVICE_LABEL]: o.name },
    memoryBytes: s.memoryBytes ?? parseMemory(o.base.memory),
    cpus: s.cpus ?? o.base.cpus,
    pids: s.pids ?? o.base.pids,
    ...(network ? { network } : {}),
    ...(s.capAdd.length ? { capAdd: s.capAdd } : {}),
    ...(s.init === false ? { noInit: true } : {}),
    boundedLog: true, // read for the reason of a failed start
    writableRoot: true, // its image's own process writes where it will
  };
  return hardened(
    {
      name: `benchrig-${slug}-${randomBytes(3).toString('hex')}`,
      Image: image,
      ...(s.entrypoint ? { Entrypoint: s.entrypoint.length ? s.entrypoint : [''] } : {}),
      ...(s.command ? { Cmd: s.command } : {}),
      ...(s.workingDir ? { WorkingDir: s.workingDir } : {}),
      ...(s.user ? { User: s.user } : {}),
      Env: Object.entries(s.env).map(([k, v]) => `${k}=${v}`),
      ...(s.expose.length ? { ExposedPorts: exposedPorts(s.expose) } : {}),
      Tty: s.tty,
      OpenStdin: s.stdinOpen,
      ...(s.stopGracePeriodMs !== undefined ? { StopTimeout: Math.ceil(s.stopGracePeriodMs / 1000) } : {}),
      ...(s.healthcheck ? { Healthcheck: healthcheck(s.healthcheck) } : {}),
      // A task's own label under benchrig's prefix (refused at load) never stands: benchrig.keep would hide it from the sweeps.
      Labels: withoutOwnLabels(s.labels),
      ...(o.attach ? { NetworkingConfig: { EndpointsConfig: { [o.attach.network]: endpointConfig(o.attach) } } } : {}),
      HostConfig: {
        ...(o.attach?.hosts?.length ? { ExtraHosts: o.attach.hosts } : {}),
        ...(s.shmSizeBytes ? { ShmSize: s.shmSizeBytes } : {}),
        Ulimits: Object.entries(s.ulimits).map(([Name, l]) => ({ Name, Soft: l.soft, Hard: l.hard })),
        ...(Object.keys(s.tmpfs).length ? { Tmpfs: s.tmpfs } : {}),
        Mounts: [
          toolboxMount(toolbox),
          ...(o.attach?.volumes ?? o.volumes ?? []).map((v) => ({
            Type: 'volume' as const,
            Source: v.source,
            Target: v.target,
            ReadOnly: v.readOnly,
          })),
        ],
      },
    },
    hardening,
  );
}

/** `expose` as Docker records it (`8080/tcp`); a range is left to the documentation it is. */
const exposedPorts = (expose: string[]): Record<string, object> =>
  Object.fromEntries(
    expose.filter((p) => /^\d+(\/(tcp|udp|sctp))?$/.test(p)).map((p) => [p.includes('/') ? p : `${p}/tcp`, {}]),
  );

const NS_PER_MS = 1_000_000;

function healthcheck(h: HealthcheckSpec): Docker.HealthConfig {
  if (h.test[0] === 'NONE') return { Test: ['NONE'] };
  return {
    Test: h.test,
    Interval: h.intervalMs * NS_PER_MS,
    Timeout: h.timeoutMs * NS_PER_MS,
    Retries: h.retries,
    StartPeriod: h.startPeriodMs * NS_PER_MS,
  };
}
