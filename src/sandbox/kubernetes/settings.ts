// The run's cluster (docs/kubernetes.md#running-on-a-cluster): `[run] provider = "kubernetes"` and its
// keys made the provider's settings, refused with the key's name when they do not fit. Nothing here connects.
import { BenchrigError } from '../../errors.ts';
import type { ProviderInput } from '../definition.ts';
import { refuseNamedHosts } from '../fleet/settings.ts';

/** Where a run's pods go: the spec's `provider.settings` on Kubernetes. */
export interface ClusterSpec {
  /** `[run] kube_context`; default: the kubeconfig's current context (KUBECONFIG, else ~/.kube/config). */
  context?: string;
  namespace: string;
  /** Where the cluster pulls the run's images from: `<registry>/<image's repository>:<tag>`. */
  registry: string;
  runtimeClass?: string;
  /** `--push`: images are pushed there from this machine's Docker before they are used. */
  push: boolean;
  /** `activeDeadlineSeconds` of every pod: the backstop for a harness that dies. */
  deadlineSeconds: number;
}

/** How long a pod may live past its trial's timeout (setup, grading, copies) before the cluster ends it. */
const DEADLINE_MARGIN_S = 1800;

/** The cluster `[run]`'s keys name; throws a config error (exit 2) naming the key that does not fit. */
export function clusterSettings(input: ProviderInput): ClusterSpec {
  const run = input.run as {
    kube_context?: string;
    namespace?: string;
    registry?: string;
    runtime_class?: string;
    push?: boolean;
  };
  for (const key of ['namespace', 'registry'] as const)
    if (!run[key])
      throw new BenchrigError('config', `[run] ${key} is required with provider = "kubernetes" (docs/kubernetes.md)`);
  refuseNamedHosts(input, 'kubernetes');
  const caps = input.sandbox.cap_add;
  if (Array.isArray(caps) && caps.length)
    // Docker restarts such a sandbox whole before grading; a container cannot be restarted in its pod.
    throw new BenchrigError(
      'config',
      `[sandbox] cap_add (${caps.join(', ')}) is refused with provider = "kubernetes": a capability can let the agent trace or outlive the process grading keeps in its pod (docs/kubernetes.md#grading); remove it, or run on Docker`,
    );
  return {
    ...(run.kube_context ? { context: run.kube_context } : {}),
    namespace: run.namespace ?? '',
    registry: (run.registry ?? '').replace(/\/+$/, ''),
    ...(run.runtime_class ? { runtimeClass: run.runtime_class } : {}),
    push: !!run.push,
    deadlineSeconds: Math.ceil(2 * input.trialTimeoutS) + DEADLINE_MARGIN_S,
  };
}
