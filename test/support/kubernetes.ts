// The local cluster of scripts/k8s-up.sh (docs/kubernetes.md#a-local-cluster) for tests: started when
// it is not up, its namespace and registry, and images pushed there from the Docker daemon.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { connect, type Cluster } from '../../src/sandbox/kubernetes/client.ts';

const state = process.env.BENCHRIG_K8S_STATE ?? '/var/lib/benchrig-k8s';
export const KUBECONFIG = path.join(state, 'admin.kubeconfig');
export const K8S_NAMESPACE = process.env.BENCHRIG_K8S_NAMESPACE ?? 'benchrig-test';
export const K8S_REGISTRY = process.env.BENCHRIG_K8S_REGISTRY ?? '127.0.0.1:5100';
/** The kubectl that scripts/k8s-build.sh built (scripts/k8s-env.sh), for what a user would type. */
export const KUBECTL = path.join(
  process.env.BENCHRIG_CACHE ?? '/var/cache/benchrig',
  'k8s',
  process.env.K8S_VERSION ?? 'v1.34.12',
  'bin/kubectl',
);

/** The cluster, started by scripts/k8s-up.sh if it does not answer (idempotent: a running one is kept). */
export async function requireCluster(): Promise<Cluster> {
  const cluster = () => connect({ kubeconfig: KUBECONFIG, namespace: K8S_NAMESPACE });
  if (fs.existsSync(KUBECONFIG)) {
    try {
      const c = cluster();
      await c.core.readNamespace({ name: K8S_NAMESPACE });
      return c;
    } catch {
      // not up: started below
    }
  }
  execFileSync('bash', [path.resolve('scripts/k8s-up.sh')], { stdio: 'inherit', timeout: 15 * 60_000 });
  return cluster();
}

/** Pushes a local Docker image to the cluster's registry; the reference the cluster pulls. */
export function pushImage(image: string): string {
  const ref = `${K8S_REGISTRY}/${image}`;
  execFileSync('docker', ['tag', image, ref]);
  execFileSync('docker', ['push', '--quiet', ref], { timeout: 120_000 });
  return ref;
}
