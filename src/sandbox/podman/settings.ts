// The run's choice of Podman made the spec's (provider-settings.ts `withProvider`): where its service
// listens, from Podman's own configuration (CONTAINER_HOST, else its rootful socket), checked at load.
import { BenchrigError } from '../../errors.ts';
import { fromEnv } from '../docker/diagnose.ts';
import type { PodmanSpec, SandboxSpec } from '../types.ts';
import { DEFAULT_PODMAN_URL } from './client.ts';

/** The spec on Podman's service; throws a config error (exit 2) when it cannot be. */
export function withPodman(spec: SandboxSpec, env: NodeJS.ProcessEnv): SandboxSpec {
  // DOCKER_HOST names the Docker daemon, not Podman: only hosts named for the run make a fleet here.
  const fleet = (spec.fleet ?? []).filter((h) => h.source !== fromEnv(h.url));
  if (fleet.length)
    throw new BenchrigError(
      'usage',
      '[run] provider = "podman" and a fleet of Docker hosts ([[sandbox.hosts]] / --docker-host) exclude each other: keep one',
    );
  return { ...spec, fleet: null, podman: podmanSettings(env) };
}

/** Where Podman's service listens: CONTAINER_HOST (a unix socket: else exit 2), else its rootful socket. */
export function podmanSettings(env: NodeJS.ProcessEnv): PodmanSpec {
  const set = env.CONTAINER_HOST?.trim();
  if (set && !/^unix:\/\/\/.+/.test(set))
    throw new BenchrigError(
      'config',
      `environment CONTAINER_HOST: "${set}" is not a unix:///path socket; benchrig reaches Podman's service on this machine only (docs/podman.md)`,
    );
  return set
    ? { url: set, source: `from the environment variable CONTAINER_HOST=${set}` }
    : { url: DEFAULT_PODMAN_URL, source: "Podman's rootful socket; CONTAINER_HOST is not set" };
}
