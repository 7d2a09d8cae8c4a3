// Removes what dead runs left in the namespace (docs/kubernetes.md#the-provider), by label alone
// and by the same rule as Docker's sweep (sandbox/docker/sweep.ts `sweepSelects`): a live harness's objects
// of this host are never touched, kept ones only with `kept` or `all`. Pods, Services and
// NetworkPolicies each carry the owner labels, so each is judged on its own.
import { LABEL } from '../docker/labels.ts';
import { sweepSelects } from '../docker/sweep.ts';
import type { Cluster } from './client.ts';
import { goneIsFine } from './client.ts';

interface KubeSweepOptions {
  all?: boolean;
  kept?: boolean;
  runId?: string;
}

interface Listed {
  metadata?: { name?: string; labels?: Record<string, string> };
}

const names = (items: Listed[], opts: KubeSweepOptions): string[] =>
  items
    .filter((o) => sweepSelects(opts, o.metadata?.labels))
    .flatMap((o) => (o.metadata?.name ? [o.metadata.name] : []));

/** Deletes the selected pods, Services and NetworkPolicies; how many pods. Gone already is fine. */
export async function sweepNamespace(cluster: Cluster, opts: KubeSweepOptions = {}): Promise<number> {
  const namespace = cluster.namespace;
  const labelSelector = opts.runId ? `${LABEL.run}=${opts.runId}` : LABEL.marker;
  const [pods, services, policies] = await Promise.all([
    cluster.core.listNamespacedPod({ namespace, labelSelector }),
    cluster.core.listNamespacedService({ namespace, labelSelector }),
    cluster.net.listNamespacedNetworkPolicy({ namespace, labelSelector }),
  ]);
  const doomed = names(pods.items, opts);
  await Promise.all([
    ...doomed.map((name) =>
      goneIsFine(() => cluster.core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 0 })),
    ),
    ...names(services.items, opts).map((name) =>
      goneIsFine(() => cluster.core.deleteNamespacedService({ namespace, name })),
    ),
    ...names(policies.items, opts).map((name) =>
      goneIsFine(() => cluster.net.deleteNamespacedNetworkPolicy({ namespace, name })),
    ),
  ]);
  return doomed.length;
}
