// A network Docker 20.10 refuses to remove with "has active endpoints" while nothing is attached (its
// endpoint count out of step until the daemon restarts) must not fail a sweep: `sandbox cleanup` and
// the start-of-run sweep go on with the rest and say what they left (src/sandbox/docker/sweep.ts).
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { sweep } from '../../../../src/sandbox/docker/sweep.ts';

const DEAD = { 'benchrig.run': 'r-dead', 'benchrig.host': 'elsewhere', 'benchrig.pid': '1' };

/** The few calls a sweep makes, answering as Docker 20.10 does for one stuck and one ordinary network. */
function daemon(removed: string[]): Docker {
  const stale = Object.assign(
    new Error('(HTTP code 403) unexpected - error while removing network: network stuck id 1 has active endpoints'),
    {
      statusCode: 403,
      json: { message: 'error while removing network: network stuck id 1 has active endpoints' },
    },
  );
  const network = (id: string) => ({
    remove: () => (id === 'stuck' ? Promise.reject(stale) : (removed.push(id), Promise.resolve())),
    inspect: () => Promise.resolve({ Containers: {} }),
    disconnect: () => Promise.resolve(),
  });
  return {
    listContainers: () => Promise.resolve([]),
    listNetworks: () =>
      Promise.resolve([
        { Id: 'stuck', Name: 'benchrig-r-dead.stuck', Labels: DEAD },
        { Id: 'plain', Name: 'benchrig-r-dead.plain', Labels: DEAD },
      ]),
    listVolumes: () => Promise.resolve({ Volumes: [{ Name: 'vol', Labels: DEAD }] }),
    getNetwork: (id: string) => network(id),
    getVolume: (name: string) => ({ remove: () => (removed.push(name), Promise.resolve()) }),
  } as unknown as Docker;
}

describe('sweep and a network the daemon will not let go', () => {
  it('removes the rest and reports the stuck one as left, with onLeft', async () => {
    const removed: string[] = [];
    const left: string[] = [];
    const n = await sweep({ all: true, onLeft: (l) => left.push(l) }, daemon(removed));
    expect(removed.sort()).toEqual(['plain', 'vol']);
    expect(n).toBe(2);
    expect(left).toEqual([expect.stringMatching(/network benchrig-r-dead\.stuck not removed: .*restarting dockerd/)]);
  });

  it('does not throw without onLeft (sandbox cleanup goes on)', async () => {
    const removed: string[] = [];
    await expect(sweep({ all: true }, daemon(removed))).resolves.toBe(2);
    expect(removed.sort()).toEqual(['plain', 'vol']);
  });
});
