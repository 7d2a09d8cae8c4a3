// `[run] provider = "podman"` (docs/podman.md): the Docker provider (docker/environments.ts) on
// Podman's Docker-compatible service, with what Podman does its own way (api.ts) and its own client
// (client.ts). Nothing of the Docker provider is copied: every environment, image, sweep and disk
// watch is its code, on this engine.
import { DockerEnvironments } from '../docker/environments.ts';
import type { DockerEngine } from '../docker/engine.ts';
import type { EnvironmentProvider } from '../provider.ts';
import { shellWord } from '../docker/labels.ts';
import { sweep } from '../docker/sweep.ts';
import { DEFAULT_PODMAN_URL, type PodmanSpec } from './settings.ts';
import { PODMAN_API } from './api.ts';
import { checkPodman, podmanClient } from './client.ts';

const cleanup = (runDir: string) => `benchrig sandbox cleanup --run ${shellWord(runDir)} --provider podman`;

/** Podman's service as one engine of the Docker provider. */
function podmanEngine(spec: PodmanSpec): DockerEngine {
  const podman = spec.url === DEFAULT_PODMAN_URL ? 'podman' : `podman --url ${spec.url}`;
  return {
    key: `podman:${spec.url}`,
    client: () => podmanClient(spec),
    check: () => checkPodman(spec),
    api: PODMAN_API,
    kept: {
      line: (id, runDir) => {
        const short = id.slice(0, 12);
        return `sandbox kept: ${podman} exec -it ${short} sh   (remove it: ${podman} rm -f ${short}; this run's: ${cleanup(runDir)})`;
      },
      cleanup,
    },
  };
}

export const podmanEnvironments = (spec: PodmanSpec): EnvironmentProvider =>
  new DockerEnvironments(undefined, podmanEngine(spec));

/** `benchrig sandbox cleanup --provider podman`: what dead runs left on the service, by the sweep's rule; how many. */
export async function sweepPodman(spec: PodmanSpec, which: Parameters<typeof sweep>[0]): Promise<number> {
  await checkPodman(spec);
  return sweep(which, podmanClient(spec));
}
