// What a run left on a Docker engine: its containers (stopped ones too), networks and volumes, by the run's label.
import type Docker from 'dockerode';
import { docker } from '../../src/sandbox/docker/client.ts';
import { runFilter } from '../../src/sandbox/docker/labels.ts';

export async function leftovers(runId: string, client: Docker = docker()): Promise<string[]> {
  const filters = JSON.stringify(runFilter(runId));
  const c = await client.listContainers({ all: true, filters });
  const n = await client.listNetworks({ filters });
  const v = (await client.listVolumes({ filters })).Volumes ?? [];
  return [
    ...c.map((x) => `container ${x.Names[0]}`),
    ...n.map((x) => `network ${x.Name}`),
    ...v.map((x) => `volume ${x.Name}`),
  ];
}
