// Start and stop of a single-service environment on Kubernetes (docs/kubernetes.md#the-provider): the
// trial's NetworkPolicy and headless Service, then its main pod; removed by name in `finally`
// (services beside main: services.ts, tracked here for their removal too).
import type { Environment } from '../provider.ts';
import type { Sandbox, SandboxLabels, SandboxSpec } from '../types.ts';
import type { Cluster } from './client.ts';
import { clusterDns } from './dns.ts';
import { headlessService, networkPolicy, podFor, podName } from './objects.ts';
import { createPod, removeTrial, trialName } from './pods.ts';
import { PodSandbox } from './sandbox.ts';

export interface KubeStartOptions {
  /** The image as the cluster pulls it (pushed to the run's registry). */
  image: string;
  /** `activeDeadlineSeconds` of every pod: the backstop for a harness that dies. */
  deadlineSeconds: number;
  /** How long a pod may take to run (image pull included). */
  startTimeoutMs?: number;
  runtimeClass?: string;
  /** The toolbox image (toolbox.ts); absent: the pods run the image's own shell and tools. */
  toolbox?: string;
  signal?: AbortSignal;
}

/** The trial a Kubernetes environment belongs to, for its removal: by its main sandbox, which copies of the environment (with its slot) share. */
const trials = new WeakMap<Sandbox, { trial: string; pods: string[] }>();

/** Records what `stopEnvironment` removes for an environment made elsewhere (services.ts). */
export function track(env: Environment, trial: string, pods: string[]): void {
  trials.set(env.main, { trial, pods });
}

export async function startEnvironment(
  cluster: Cluster,
  spec: SandboxSpec,
  labels: SandboxLabels,
  opts: KubeStartOptions,
): Promise<Environment> {
  const trial = trialName();
  const namespace = cluster.namespace;
  const pod = podFor({
    trial,
    service: 'main',
    spec,
    labels,
    image: opts.image,
    deadlineSeconds: opts.deadlineSeconds,
    runtimeClass: opts.runtimeClass,
    ...(opts.toolbox ? { toolbox: opts.toolbox } : {}),
    namespace,
  });
  const name = podName(trial, 'main');
  try {
    await cluster.net.createNamespacedNetworkPolicy({
      namespace,
      body: networkPolicy(trial, labels, spec.network, { dns: await clusterDns(cluster) }),
    });
    await cluster.core.createNamespacedService({ namespace, body: headlessService(trial, labels) });
    await createPod(cluster, pod, opts.startTimeoutMs ?? 120_000, opts.signal);
  } catch (err) {
    await removeTrial(cluster, trial, [name]).catch(() => undefined);
    throw err;
  }
  const env: Environment = { main: new PodSandbox(cluster, name, opts.image, spec, !!opts.toolbox), services: {} };
  trials.set(env.main, { trial, pods: [name] });
  return env;
}

/** Removes everything of the environment's trial; gone already is fine. */
export async function stopEnvironment(cluster: Cluster, env: Environment): Promise<void> {
  const t = trials.get(env.main);
  if (!t) return;
  await removeTrial(cluster, t.trial, t.pods);
  trials.delete(env.main);
}
