// Where the trial's pods may send DNS queries (docs/kubernetes.md#the-provider): the `kube-dns`
// Service's EndpointSlices (addresses and ports after its DNAT, which NetworkPolicies see), read once
// per process; port 53 to any address when they cannot be read (RBAC for one namespace).
import { DiscoveryV1Api } from '@kubernetes/client-node';
import type { Cluster } from './client.ts';
import type { ClusterDns } from './objects.ts';

const known = new WeakMap<Cluster, Promise<ClusterDns>>();

async function read(cluster: Cluster): Promise<ClusterDns> {
  try {
    const slices = await cluster.config.makeApiClient(DiscoveryV1Api).listNamespacedEndpointSlice({
      namespace: 'kube-system',
      labelSelector: 'kubernetes.io/service-name=kube-dns',
    });
    const ips = slices.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses));
    const ports = slices.items.flatMap((s) => (s.ports ?? []).flatMap((p) => (p.port ? [p.port] : [])));
    if (ips.length && ports.length) return { ips: [...new Set(ips)], ports: [...new Set(ports)] };
  } catch {
    // not readable here: the default below
  }
  return { ips: [], ports: [53] };
}

export function clusterDns(cluster: Cluster): Promise<ClusterDns> {
  let p = known.get(cluster);
  if (!p) {
    p = read(cluster);
    known.set(cluster, p);
  }
  return p;
}
