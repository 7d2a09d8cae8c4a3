// A multi-service environment on one Docker engine (docs/sandboxes.md#multi-service-environments):
// the trial's scope (its network, its volumes), then every service in `order`, each after what it
// depends on is started, healthy or completed. main is the agent's sandbox (kept alive by the
// harness); the others run their own process. Whatever a step made is removed if a later one throws.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import type { EnvironmentSpec, MountSpec, ServiceSpec } from '../../environment/spec.ts';
import { readBoundFile } from './bound-file.ts';
import type { DockerProvider, DockerSandbox } from './sandbox.ts';
import type { EngineApi } from './engine.ts';
import type { Environment } from '../provider.ts';
import { startServiceContainer } from './service-container.ts';
import { fixedAddress, hostEntries } from './service-names.ts';
import { checkStillUp, waitForService, type Waited } from './service-wait.ts';
import { subnetPool } from './subnet-pool.ts';
import { fillTrialVolume } from './trial-volumes.ts';
import {
  closeTrialScope,
  isInternal,
  openTrialScope,
  type DockerTrialScope,
  type ServiceAttachment,
} from './trial-scope.ts';
import type { SandboxLabels, SandboxSpec } from '../types.ts';

interface EngineTarget {
  engine: DockerProvider;
  client: Docker;
  /** What the engine does its own way (engine.ts): its networks, how services find each other, healthchecks. */
  api: EngineApi;
  /** The fleet URL of the engine; absent: the local daemon. */
  host?: string;
  hostKey: string;
}

/** Whether an environment has services beside main or volumes (else a trial runs as a lone sandbox). */
export const hasServices = (env: EnvironmentSpec | undefined): env is EnvironmentSpec =>
  !!env && (Object.keys(env.services).some((name) => name !== env.main) || Object.keys(env.volumes).length > 0);

/**
 * The scope, then each service in order. `spec` is main's sandbox; `--network none` and installed
 * agents (spec.network none) make the network internal whatever the task allows.
 */
export async function startServices(
  t: EngineTarget,
  spec: SandboxSpec,
  env: EnvironmentSpec,
  labels: SandboxLabels,
  signal: AbortSignal,
): Promise<Omit<Environment, 'slot'>> {
  const internal = isInternal(spec) || !env.internet;
  const binds = bindVolumes(env);
  const volumes = [...Object.keys(env.volumes), ...anonymousVolumes(env).map((a) => a.name), ...binds.keys()];
  const scope = await openTrialScope(t.client, labels, {
    services: env.order.length,
    internal,
    networks: networkPlan(env, internal),
    volumes,
    pool: subnetPool(process.env, spec.subnetPool),
    api: t.api,
    signal,
  });
  const started = new Map<string, DockerSandbox>();
  try {
    for (const [volume, dir] of binds) {
      const made = scope.volumes.find((v) => v.name === volume);
      if (made) await fillTrialVolume(t.client, labels, spec.image, made, dir);
    }
    for (const name of env.order) {
      const svc = env.services[name];
      await waitForDependencies(t, env, svc, started, signal);
      started.set(name, await startOne(t, spec, env, name, scope, labels, started, signal));
    }
    for (const [name, box] of started) if (name !== env.main) await checkStillUp(waited(t, env, name, box));
    const main = started.get(env.main);
    if (!main) throw new Error(`internal: the environment's main service ${env.main} did not start`);
    const services = Object.fromEntries([...started].filter(([name]) => name !== env.main));
    const networks = Object.values(scope.networks);
    return {
      main,
      services,
      network: scope.network,
      ...(networks.length > 1 ? { networks } : {}),
      volumes: scope.volumes,
    };
  } catch (err) {
    for (const box of [...started.values()].reverse())
      await t.engine.stop(box, { interrupted: signal.aborted }).catch(() => undefined); // the sweep is the backstop
    await closeTrialScope(t.client, scope).catch(() => undefined);
    throw err;
  }
}

async function waitForDependencies(
  t: EngineTarget,
  env: EnvironmentSpec,
  svc: ServiceSpec,
  started: Map<string, DockerSandbox>,
  signal: AbortSignal,
): Promise<void> {
  for (const [dep, { condition }] of Object.entries(svc.dependsOn)) {
    const box = started.get(dep);
    if (box) await waitForService(waited(t, env, dep, box), condition, signal); // not started: not required (compose's `required: false`)
  }
}

function waited(t: EngineTarget, env: EnvironmentSpec, name: string, box: DockerSandbox): Waited {
  const healthcheck = env.services[name].healthcheck;
  const probe = t.api.runHealthcheck?.bind(t.api, t.client, box.id);
  return { name, container: box.container, ...(healthcheck ? { healthcheck, ...(probe ? { probe } : {}) } : {}) };
}

function startOne(
  t: EngineTarget,
  spec: SandboxSpec,
  env: EnvironmentSpec,
  name: string,
  scope: DockerTrialScope,
  labels: SandboxLabels,
  started: Map<string, DockerSandbox>,
  signal: AbortSignal,
): Promise<DockerSandbox> {
  const svc = env.services[name];
  const mode = svc.networkMode;
  const attach = attachmentOf(scope, name, svc, env, t.api.names);
  if (name === env.main) {
    const main = { ...spec, env: { ...svc.env, ...spec.env }, ...(t.host ? { host: t.host } : {}) };
    return startMain(t, main, labels, signal, attach, svc.mounts);
  }
  const shareWith = mode?.kind === 'service' ? started.get(mode.service)?.id : undefined;
  return startServiceContainer({
    client: t.client,
    api: t.api,
    ...(t.host ? { host: t.host } : {}),
    hostKey: t.hostKey,
    base: spec,
    name,
    service: svc,
    labels,
    // network_mode: on none of the trial's networks, with its volumes all the same.
    ...(mode ? { volumes: attach.volumes } : { attach }),
    ...(shareWith ? { shareWith } : {}),
  });
}

/** main, with the task's bound files copied in (its own copy: the task folder is never written; folders are volumes). */
async function startMain(
  t: EngineTarget,
  spec: SandboxSpec,
  labels: SandboxLabels,
  signal: AbortSignal,
  attach: ServiceAttachment,
  mounts: MountSpec[],
): Promise<DockerSandbox> {
  const main = await t.engine.start(spec, labels, signal, attach);
  try {
    for (const m of mounts)
      if (m.type === 'bind' && !isFolder(m.source))
        await main.copyIn(
          { [path.posix.basename(m.target)]: await readBoundFile(m.source) },
          path.posix.dirname(m.target),
        );
    return main;
  } catch (err) {
    await t.engine.stop(main, { interrupted: false }).catch(() => undefined);
    throw err;
  }
}

/**
 * The trial's networks (docs/sandboxes.md#networks-per-trial): each one a service joins, main's
 * first, each internal when the trial may not reach out or the file says `internal: true`.
 */
function networkPlan(
  env: EnvironmentSpec,
  internal: boolean,
): Array<{ name: string; internal: boolean; services: number }> {
  const on = env.order.filter((s) => !env.services[s].networkMode);
  const names = [...new Set([env.main, ...on].flatMap((s) => Object.keys(env.services[s].networks)))];
  return names.map((name) => ({
    name,
    internal: internal || (env.networks[name]?.internal ?? false),
    services: on.filter((s) => name in env.services[s].networks).length,
  }));
}

/** On each of its networks under its name and the aliases it has there, with its volumes. */
function attachmentOf(
  scope: DockerTrialScope,
  name: string,
  svc: ServiceSpec,
  env: EnvironmentSpec,
  names: EngineApi['names'],
): ServiceAttachment {
  const fixed = names === 'hosts';
  const joins = Object.entries(svc.networks).flatMap(([n, { aliases }]) => {
    const network = scope.networks[n];
    const address = fixed ? fixedAddress(scope, env, n, name) : undefined;
    return network
      ? [{ network: network.name, aliases: [...new Set([name, ...aliases])], ...(address ? { address } : {}) }]
      : [];
  });
  const [first = { network: scope.network.name, aliases: [name] }, ...more] = joins;
  const anon = anonymousVolumes(env).filter((a) => a.service === name);
  const volumes = svc.mounts.flatMap((m, i) => {
    if (m.type === 'bind' && !isFolder(m.source)) return [];
    const scopeName =
      m.type === 'bind' ? bindVolumeName(m.source) : (m.source ?? anon.find((a) => a.index === i)?.name);
    const volume = scope.volumes.find((v) => v.name === scopeName);
    if (!volume) throw new Error(`internal: volume ${String(scopeName)} of service ${name} is not the trial's`);
    return [{ source: volume.source, target: m.target, readOnly: m.readOnly }];
  });
  const hosts = fixed ? hostEntries(scope, env, name) : [];
  return { ...first, ...(more.length ? { more } : {}), ...(hosts.length ? { hosts } : {}), volumes };
}

/** Anonymous volumes (`- /data`): one trial volume each, named after its service and place. */
function anonymousVolumes(env: EnvironmentSpec): Array<{ name: string; service: string; index: number }> {
  return Object.entries(env.services).flatMap(([service, s]) =>
    s.mounts.flatMap((m: MountSpec, index) =>
      m.type === 'volume' && m.source === undefined ? [{ name: `anon.${service}.${index}`, service, index }] : [],
    ),
  );
}

const isFolder = (p: string) => statSync(p).isDirectory();
const bindVolumeName = (source: string) =>
  `bind.${path.basename(source).slice(0, 20)}.${createHash('sha256').update(source).digest('hex').slice(0, 8)}`;

/** Each folder of the task a service binds: one trial volume, filled with a copy of it, shared by every service that binds it. */
function bindVolumes(env: EnvironmentSpec): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of Object.values(env.services))
    for (const m of s.mounts) if (m.type === 'bind' && isFolder(m.source)) out.set(bindVolumeName(m.source), m.source);
  return out;
}
