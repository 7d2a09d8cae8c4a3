// What the cluster says of a service's pod after a failure (types.ts SandboxHealth), for blame
// (docs/kubernetes.md#blame): the API server not answering is the infrastructure's, and so is a pod
// the cluster ended (`killedByInfrastructure`: evicted for the node's sake, its node lost, its deadline); a
// container OOM-killed, or a pod evicted past its own disk bound, is what the agent did.
import type { V1Pod } from '@kubernetes/client-node';
import type { SandboxHealth } from '../types.ts';
import type { Cluster } from './client.ts';
import { apiStatus } from './client.ts';
import { CONTAINER } from './objects.ts';

/** Why the cluster itself ended a pod (not a process in it): an eviction but for its own disk bound, a lost node, a deadline. */
function endedByCluster(pod: V1Pod): boolean {
  const { reason, message } = pod.status ?? {};
  if (reason === 'Evicted') return !/ephemeral/i.test(message ?? ''); // past [sandbox] disk: the agent's writing
  return pod.status?.phase === 'Failed' && !!reason && reason !== 'OOMKilled';
}

/** The health in a pod's status. */
export function healthOf(pod: V1Pod): SandboxHealth {
  const c = pod.status?.containerStatuses?.find((s) => s.name === CONTAINER);
  const ended = c?.state?.terminated;
  if (endedByCluster(pod))
    return {
      daemon: true,
      state: 'stopped',
      killedByInfrastructure: 'Kubernetes',
      ...(ended ? { exitCode: ended.exitCode } : {}),
    };
  if (ended)
    return { daemon: true, state: 'stopped', exitCode: ended.exitCode, outOfMemory: ended.reason === 'OOMKilled' };
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') return { daemon: true, state: 'stopped' };
  if (c?.state?.running) return { daemon: true, state: 'running' };
  return { daemon: true, state: 'unknown' };
}

/** Asks the API server afresh; a pod it no longer has is gone, an API server that fails is lost. */
export async function podHealth(cluster: Cluster, name: string): Promise<SandboxHealth> {
  try {
    return healthOf(await cluster.core.readNamespacedPod({ namespace: cluster.namespace, name }));
  } catch (err) {
    if (apiStatus(err) === 404) return { daemon: true, state: 'gone' };
    return {
      daemon: false,
      lost: `the API server did not answer: ${err instanceof Error ? err.message : String(err)}`,
      state: 'unknown',
    };
  }
}
