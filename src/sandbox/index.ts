// The entry of sandbox/ for the rest of src/ (ARCHITECTURE.md: nothing outside sandbox/ imports its
// Docker modules): the provider of a run's spec, chosen from a typed map, and the few provider-neutral
// helpers callers need. Providers load lazily: a run without a [sandbox] never loads Docker's client.
import type { EnvironmentProvider } from './provider.ts';
import type { SandboxSpec } from './types.ts';

/** Every provider, by kind; a new one (Kubernetes) is one more entry here. */
const PROVIDERS = {
  docker: async (): Promise<EnvironmentProvider> => new (await import('./docker/environments.ts')).DockerEnvironments(),
  fleet: async (spec: SandboxSpec): Promise<EnvironmentProvider> =>
    new (await import('./fleet/environments.ts')).FleetEnvironments(spec.fleet ?? []),
  kubernetes: async (spec: SandboxSpec): Promise<EnvironmentProvider> =>
    new (await import('./kubernetes/provider.ts')).KubernetesEnvironments(spec.kubernetes),
  podman: async (spec: SandboxSpec): Promise<EnvironmentProvider> =>
    (await import('./podman/provider.ts')).podmanEnvironments(spec.podman ?? missing('podman')),
} satisfies Record<string, (spec: SandboxSpec) => Promise<EnvironmentProvider>>;

export type ProviderKind = keyof typeof PROVIDERS;

/**
 * Which provider a spec asks for: `[run] provider = "kubernetes"` a cluster (docs/kubernetes.md),
 * `"podman"` Podman's service (docs/podman.md), `[[sandbox.hosts]]` / `--docker-host` a fleet
 * (docs/fleet.md), else one engine.
 */
export const providerKind = (spec: SandboxSpec): ProviderKind =>
  spec.kubernetes ? 'kubernetes' : spec.podman ? 'podman' : spec.fleet?.length ? 'fleet' : 'docker';

const missing = (kind: string): never => {
  throw new Error(`internal: a ${kind} provider without its settings`);
};

const made = new Map<string, Promise<EnvironmentProvider>>();

/** This process's provider for a spec (plain JSON, so a worker makes the same one from the run context). */
export function providerFor(spec: SandboxSpec): Promise<EnvironmentProvider> {
  const kind = providerKind(spec);
  const key = `${kind}:${JSON.stringify(spec.kubernetes ?? spec.podman ?? spec.fleet ?? null)}`;
  let p = made.get(key);
  if (!p) {
    p = PROVIDERS[kind](spec);
    made.set(key, p);
    p.catch(() => made.delete(key));
  }
  return p;
}

export type {
  DiskWatch,
  Environment,
  EnvironmentProvider,
  PreparedEnvironments,
  RunSpec,
  SampleImages,
  StartOptions,
  TrialNetwork,
  TrialVolume,
} from './provider.ts';
export type { HostFailure, Placement, SandboxSlot } from './slots.ts';
export { placementFor } from './slots.ts';
export type { DockerHostSpec as FleetHost } from './docker/hosts.ts';
export { fleetHostsOf } from './docker/hosts.ts';
export { processAlive } from './process-alive.ts';
export { checkHost } from './docker/host-check.ts';
// The run's provider from its [run] keys, and where an installed agent cannot run.
export {
  remoteSandboxes,
  sweepClusterOf,
  sweepPodmanOf,
  withProvider,
  type ProviderKeys,
} from './provider-settings.ts';
// What an installed agent runs inside its sandbox: the toolbox's shell, and the kill of what it started.
export { trustedArgv } from './docker/toolbox.ts';
export { killByMarkerScript } from './docker/exec.ts';
// The refusal of a missing image (run/environments.ts, at run time).
export { missingImageMessage } from './image-ref.ts';
// Whether a sample's or service's build may use the network (run/environments.ts).
export { buildNetworkOf } from './docker/images.ts';
