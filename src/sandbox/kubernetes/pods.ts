// A trial's objects created and removed (docs/kubernetes.md#the-provider): the NetworkPolicy first
// (so no pod of the trial ever runs unfenced), the headless Service, then the pods, each waited
// for until Running; removal by name in `finally`, every object tolerated gone.
import { randomBytes } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import { SandboxError } from '../../errors.ts';
import type { Cluster } from './client.ts';
import { apiStatus, goneIsFine } from './client.ts';
import { K8S_LABEL } from './objects.ts';

/** A fresh trial name: a DNS label unique in the namespace, short enough for `<trial>-<service>`. */
export const trialName = (): string => `br-${randomBytes(5).toString('hex')}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Why a pod that is not Running will not get there (a pull that failed, a container that exited). */
function podProblem(pod: V1Pod): string | null {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded')
    return `pod ended (${phase}${pod.status?.reason ? `: ${pod.status.reason}` : ''})`;
  for (const c of pod.status?.containerStatuses ?? []) {
    const waiting = c.state?.waiting;
    if (
      waiting?.reason &&
      /ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainerError|CreateContainerConfigError/.test(
        waiting.reason,
      )
    )
      return `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
  }
  return null;
}

/** Creates the pod and waits until its container runs; removes it and throws when it will not. */
export async function createPod(cluster: Cluster, pod: V1Pod, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const name = pod.metadata?.name ?? '';
  await cluster.core.createNamespacedPod({ namespace: cluster.namespace, body: pod });
  const until = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    const now = await cluster.core.readNamespacedPod({ namespace: cluster.namespace, name });
    if (now.status?.phase === 'Running' && now.status.containerStatuses?.every((c) => c.ready)) return;
    const problem = podProblem(now);
    if (problem) throw new SandboxError(`pod ${name} did not start: ${problem}`, undefined, !/Image/.test(problem));
    if (Date.now() > until)
      throw new SandboxError(
        `pod ${name} was not running after ${Math.round(timeoutMs / 1000)}s (phase ${now.status?.phase ?? '?'})`,
      );
    await sleep(250);
  }
}

/** Deletes the trial's pods, Service and NetworkPolicy by name; waits (bounded) until the pods are gone. */
export async function removeTrial(cluster: Cluster, trial: string, pods: string[], waitMs = 30_000): Promise<void> {
  const namespace = cluster.namespace;
  const results = await Promise.allSettled([
    ...pods.map((name) =>
      goneIsFine(() => cluster.core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 0 })),
    ),
    goneIsFine(() => cluster.core.deleteNamespacedService({ namespace, name: trial })),
    goneIsFine(() => cluster.net.deleteNamespacedNetworkPolicy({ namespace, name: trial })),
  ]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw new SandboxError(`removing trial ${trial}: ${String(failed.reason)}`, failed.reason);
  const until = Date.now() + waitMs;
  for (const name of pods) {
    while (Date.now() < until) {
      try {
        await cluster.core.readNamespacedPod({ namespace, name });
      } catch (err) {
        if (apiStatus(err) === 404) break;
        throw err;
      }
      await sleep(250);
    }
  }
}

/** Everything of the trial a pod belongs to (a dead worker's environment, from its main pod's name). */
export async function removeTrialOfPod(cluster: Cluster, pod: string): Promise<void> {
  const namespace = cluster.namespace;
  let trial: string | undefined;
  try {
    trial = (await cluster.core.readNamespacedPod({ namespace, name: pod })).metadata?.labels?.[K8S_LABEL.trial];
  } catch (err) {
    if (apiStatus(err) === 404) return;
    throw err;
  }
  if (!trial) return;
  const pods = await cluster.core.listNamespacedPod({ namespace, labelSelector: `${K8S_LABEL.trial}=${trial}` });
  await removeTrial(
    cluster,
    trial,
    pods.items.flatMap((p) => (p.metadata?.name ? [p.metadata.name] : [])),
  );
}
