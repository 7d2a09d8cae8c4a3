// The run's choice of Podman made the provider's settings: where its service listens, from Podman's
// own configuration (CONTAINER_HOST, else its rootful socket), checked at load.
import { BenchrigError } from '../../errors.ts';
import type { ProviderInput } from '../definition.ts';
import { refuseNamedHosts } from '../fleet/settings.ts';

/** Podman's rootful socket, where `podman system service` and its systemd socket listen by default. */
export const DEFAULT_PODMAN_URL = 'unix:///run/podman/podman.sock';

/** Where a run's containers go with `[run] provider = "podman"`: the spec's `provider.settings`. */
export interface PodmanSpec {
  /** The service's unix socket: CONTAINER_HOST (Podman's own variable), else unix:///run/podman/podman.sock. */
  url: string;
  /** Who chose it, for messages. */
  source: string;
}

/** The run's Podman service; throws a config error (exit 2) when it cannot be. */
export function runPodmanSettings(input: ProviderInput): PodmanSpec {
  refuseNamedHosts(input, 'podman');
  return podmanSettings(input.env);
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
