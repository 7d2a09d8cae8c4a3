// What the cluster says of a service's pod after a failure (types.ts SandboxHealth), for blame
// (docs/kubernetes.md#status): the API server not answering is the infrastructure's; a container
// that ended (OOM-killed, or its pod evicted past the disk bound) is read from its status.
import type { V1Pod } from '@kubernetes/client-node';
import type { SandboxHealth } from '../types.ts';
import type { Cluster } from './client.ts';
import { apiStatus } from './client.ts';
import { CONTAINER } from './objects.ts';

/** The health in a pod's status. */
export function healthOf(pod: V1Pod): SandboxHealth {
  const c = pod.status?.containerStatuses?.find((s) => s.name === CONTAINER);
  const ended = c?.state?.terminated;
  if (ended)
    return { daemon: true, state: 'stopped', exitCode: ended.exitCode, oomKilled: ended.reason === 'OOMKilled' };
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
