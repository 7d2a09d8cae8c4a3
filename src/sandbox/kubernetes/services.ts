// A multi-service environment on Kubernetes (docs/kubernetes.md#services): the trial's NetworkPolicy
// and headless Service, then a pod per service in `order`, each created once what it depends on is
// started, healthy or completed; main idles for the agent as a lone environment's pod does. What
// a step made is removed if a later one throws. Not here yet: volumes shared between services, bind
// mounts, a service on another's network stack (refused), aliases (ignored): docs/kubernetes.md#services.
import { SandboxError } from '../../errors.ts';
import type { V1Pod } from '@kubernetes/client-node';
import type { EnvironmentSpec, MountSpec } from '../../environment/spec.ts';
import type { Environment } from '../provider.ts';
import type { Sandbox, SandboxLabels, SandboxSpec } from '../types.ts';
import type { Cluster } from './client.ts';
import { clusterDns } from './dns.ts';
import { track, type KubeStartOptions } from './environments.ts';
import { headlessService, networkPolicy, podFor, podName, type PodInput } from './objects.ts';
import { createPod, removeTrial, trialName } from './pods.ts';
import { PodSandbox } from './sandbox.ts';
import { servicePod, waitForPod } from './service-pods.ts';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,30}[a-z0-9])?$/;

/** Why this environment cannot run on Kubernetes yet, or null. */
function unsupported(env: EnvironmentSpec): string | null {
  const users = new Map<string, string[]>();
  for (const [name, s] of Object.entries(env.services)) {
    if (!DNS_LABEL.test(name)) return `the service name "${name}" (a pod's hostname: lowercase letters, digits and -)`;
    if (s.networkMode) return `network_mode of service ${name}`;
    for (const m of s.mounts) {
      if (m.type === 'bind') return `the bind mount ${m.target} of service ${name}`;
      if (m.source) users.set(m.source, [...(users.get(m.source) ?? []), name]);
    }
  }
  const shared = [...users].find(([, by]) => new Set(by).size > 1);
  return shared ? `the volume ${shared[0]}, shared by services ${[...new Set(shared[1])].join(', ')}` : null;
}

/** A service's volumes as folders of its own pod (emptyDir): a volume only one service mounts needs no more. */
function withMounts(pod: V1Pod, mounts: MountSpec[]): V1Pod {
  const c = pod.spec?.containers[0];
  if (!pod.spec || !c || mounts.length === 0) return pod;
  pod.spec.volumes = [...(pod.spec.volumes ?? []), ...mounts.map((_, i) => ({ name: `v${i}`, emptyDir: {} }))];
  c.volumeMounts = [
    ...(c.volumeMounts ?? []),
    ...mounts.map((m, i) => ({ name: `v${i}`, mountPath: m.target, readOnly: m.readOnly })),
  ];
  return pod;
}

export async function startServices(
  cluster: Cluster,
  spec: SandboxSpec,
  env: EnvironmentSpec,
  labels: SandboxLabels,
  opts: Omit<KubeStartOptions, 'image'> & { image: (image: string) => string },
): Promise<Environment> {
  const why = unsupported(env);
  if (why)
    throw new SandboxError(`${why}: not supported on Kubernetes yet (docs/kubernetes.md#services)`, undefined, false);
  const trial = trialName();
  const namespace = cluster.namespace;
  const network = env.internet && spec.network !== 'none' ? 'bridge' : 'none';
  const made: string[] = [];
  const sandboxes: Record<string, Sandbox> = {};
  try {
    await cluster.net.createNamespacedNetworkPolicy({
      namespace,
      body: networkPolicy(trial, labels, network, { dns: await clusterDns(cluster) }),
    });
    await cluster.core.createNamespacedService({ namespace, body: headlessService(trial, labels) });
    for (const name of env.order) {
      const svc = env.services[name];
      for (const [dep, d] of Object.entries(svc.dependsOn))
        await waitForPod(
          cluster,
          podName(trial, dep),
          { name: dep, spec: env.services[dep] },
          d.condition,
          opts.signal,
        );
      const image = opts.image(name === env.main ? spec.image : (svc.image ?? ''));
      const input: PodInput = {
        trial,
        service: name,
        spec,
        labels,
        image,
        deadlineSeconds: opts.deadlineSeconds,
        ...(opts.runtimeClass ? { runtimeClass: opts.runtimeClass } : {}),
        ...(opts.toolbox ? { toolbox: opts.toolbox } : {}),
        namespace,
      };
      const pod = withMounts(name === env.main ? podFor(input) : servicePod(input, svc), svc.mounts);
      made.push(podName(trial, name));
      if (name === env.main) await createPod(cluster, pod, opts.startTimeoutMs ?? 120_000, opts.signal);
      else await cluster.core.createNamespacedPod({ namespace, body: pod });
      const workdir = name === env.main ? spec.workdir : (svc.workingDir ?? '/');
      sandboxes[name] = new PodSandbox(cluster, podName(trial, name), image, { ...spec, workdir }, !!opts.toolbox);
    }
  } catch (err) {
    await removeTrial(cluster, trial, made).catch(() => undefined);
    throw err;
  }
  const { [env.main]: main, ...services } = sandboxes;
  const out: Environment = { main, services };
  track(out, trial, made);
  return out;
}
