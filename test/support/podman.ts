// Podman for tests (test/e2e/podman-run.test.ts): its service on the default socket, started by
// scripts/setup-podman.sh. A test that needs it fails when it does not answer; it never skips.
import { join } from 'node:path';
import { ensureImage } from '../../src/sandbox/docker/images.ts';
import { runFilter } from '../../src/sandbox/docker/labels.ts';
import { checkPodman, podmanClient } from '../../src/sandbox/podman/client.ts';
import { podmanSettings } from '../../src/sandbox/podman/settings.ts';
import { REPO } from './cli.ts';

export const PODMAN = podmanSettings({});
export const podman = () => podmanClient(PODMAN);

/** Throws (the test fails) when Podman's service does not answer; builds the busybox sandbox image in its store. */
export async function requirePodman(): Promise<void> {
  await checkPodman(PODMAN, 10_000); // "Podman is not reachable at …: run scripts/setup-podman.sh"
  await ensureImage(
    { image: 'benchrig/busybox:1', build: join(REPO, 'sandboxes/busybox'), trusted: true },
    { client: podman() },
  );
}

/** What a run left on Podman's service: its containers, networks and volumes, by name. */
export async function podmanLeftovers(runId: string): Promise<string[]> {
  const filters = JSON.stringify(runFilter(runId));
  const client = podman();
  const [containers, networks, volumes] = await Promise.all([
    client.listContainers({ all: true, filters }),
    client.listNetworks({ filters }),
    client.listVolumes({ filters }),
  ]);
  return [
    ...containers.map((c) => `container ${c.Names.join(',')}`),
    ...networks.map((n) => `network ${n.Name}`),
    ...(volumes.Volumes ?? []).map((v) => `volume ${v.Name}`),
  ];
}
