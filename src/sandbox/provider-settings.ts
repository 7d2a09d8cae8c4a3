// The run's choice of provider as the rest of src/ hands it over (docs/kubernetes.md#running-on-a-cluster):
// `[run]`'s provider keys turned into the spec's own fields, refused with the key's name when they do
// not fit, and what an installed agent needs of its sandbox's provider. Nothing here connects.
import { BenchrigError } from '../errors.ts';
import { podmanSettings, withPodman } from './podman/settings.ts';
import type { SandboxSpec } from './types.ts';

/** The `[run]` keys that choose and place the provider (config/schema.ts). */
export interface ProviderKeys {
  provider: 'docker' | 'kubernetes' | 'podman';
  kube_context?: string;
  namespace?: string;
  registry?: string;
  runtime_class?: string;
  push: boolean;
}

/** How long a pod may live past its trial's timeout (setup, grading, copies) before the cluster ends it. */
const DEADLINE_MARGIN_S = 1800;

/** The spec on the provider the keys choose; throws a config error (exit 2) naming the key that does not fit. */
export function withProvider(
  spec: SandboxSpec,
  run: ProviderKeys,
  trialTimeoutS: number,
  env: NodeJS.ProcessEnv = process.env,
): SandboxSpec {
  if (run.provider === 'podman') return withPodman(spec, env);
  if (run.provider !== 'kubernetes') return spec; // the cluster's keys wait unused (a --provider docker run)
  for (const key of ['namespace', 'registry'] as const)
    if (!run[key])
      throw new BenchrigError('config', `[run] ${key} is required with provider = "kubernetes" (docs/kubernetes.md)`);
  if (spec.fleet?.length)
    throw new BenchrigError(
      'usage',
      '[run] provider = "kubernetes" and a fleet of Docker hosts ([[sandbox.hosts]] / --docker-host) exclude each other: keep one',
    );
  return {
    ...spec,
    kubernetes: {
      ...(run.kube_context ? { context: run.kube_context } : {}),
      namespace: run.namespace ?? '',
      registry: (run.registry ?? '').replace(/\/+$/, ''),
      ...(run.runtime_class ? { runtimeClass: run.runtime_class } : {}),
      push: run.push,
      deadlineSeconds: Math.ceil(2 * trialTimeoutS) + DEADLINE_MARGIN_S,
    },
  };
}

/**
 * What to change for an installed agent (`cli:`, which reaches the model gateway through a unix
 * socket on this machine) to run, or null when the spec's provider is the local Docker daemon.
 */
export function remoteSandboxes(spec: SandboxSpec): string | null {
  if (spec.kubernetes) return 'not on Kubernetes: set [run] provider = "docker" (or drop --provider kubernetes)';
  if (spec.podman)
    return 'not on Podman: set [run] provider = "docker" (or drop --provider podman; docs/podman.md#what-podman-does-not-do)';
  if (spec.fleet?.length) return 'remove [[sandbox.hosts]] / --docker-host';
  return null;
}

/**
 * `benchrig sandbox cleanup` on the cluster `[run]`'s keys name (its namespace, its context): what
 * dead runs left there (or one run's: `--run`), by the sweep's rule; how many pods.
 */
export async function sweepClusterOf(
  run: Pick<ProviderKeys, 'kube_context' | 'namespace'>,
  which: { all?: boolean; kept?: boolean; runId?: string },
): Promise<number> {
  if (!run.namespace)
    throw new BenchrigError(
      'usage',
      'sandbox cleanup --provider kubernetes needs --namespace (or [run] namespace in --config)',
    );
  const { KubernetesEnvironments } = await import('./kubernetes/provider.ts');
  const provider = new KubernetesEnvironments({
    namespace: run.namespace,
    ...(run.kube_context ? { context: run.kube_context } : {}),
    registry: '',
    push: false,
    deadlineSeconds: 0,
  });
  await provider.check();
  return provider.sweep(which);
}

/** `benchrig sandbox cleanup --provider podman`: what dead runs left on Podman's service (docs/podman.md); how many. */
export async function sweepPodmanOf(
  which: { all?: boolean; kept?: boolean; runId?: string },
  env = process.env,
): Promise<number> {
  const { sweepPodman } = await import('./podman/provider.ts');
  return sweepPodman(podmanSettings(env), which);
}
