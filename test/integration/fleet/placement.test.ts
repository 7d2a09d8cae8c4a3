// The Fleet against the real local daemon and a host whose daemon is gone (a socket nobody
// listens on): real pings, real starts, a real image build under the once-per-host lock.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docker } from '../../../src/sandbox/docker/client.ts';
import { DockerProvider } from '../../../src/sandbox/docker/sandbox.ts';
import { Fleet, registerFleet, startOnFleet, unregisterFleet } from '../../../src/sandbox/fleet/fleet.ts';
import { ensureImage } from '../../../src/sandbox/docker/images.ts';
import { tempDir } from '../../support/cli.ts';
import { benchrigContainers, requireDocker, TEST_IMAGE, testRunId, testSpec } from '../../support/docker.ts';

const ok = await requireDocker();
const LOCAL = 'unix:///var/run/docker.sock';
const GONE = `unix:///tmp/benchrig-no-daemon-${process.pid}.sock`;
const runId = testRunId('fleet-placement');
const tag = `benchrig/fleet-lock-test:${runId}`;
const fleets: Fleet[] = [];

describe.skipIf(!ok)('Fleet on real Docker hosts', () => {
  afterAll(async () => {
    for (const f of fleets) f.close();
    await new DockerProvider().sweep({ runId });
    await docker()
      .getImage(tag)
      .remove({ force: true })
      .catch(() => {});
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('a sandbox placed on a host whose daemon is gone starts on the other host, and the dead one cools down', async () => {
    const lines: string[] = [];
    // The gone host has the most free capacity, so it is tried first.
    const fleet = new Fleet(
      [
        { url: GONE, capacity: 4 },
        { url: LOCAL, capacity: 1 },
      ],
      { cooldownMs: 60_000, log: (l) => lines.push(l) },
    );
    fleets.push(fleet);
    registerFleet(runId, fleet);
    const provider = new DockerProvider();
    const spec = testSpec({
      fleet: [
        { url: GONE, capacity: 4 },
        { url: LOCAL, capacity: 1 },
      ],
    });
    try {
      const { sandbox, slot: placed } = await startOnFleet(
        runId,
        spec,
        undefined,
        (s) => provider.start(s, { runId, sessionId: 'fleet-1' }),
        new AbortController().signal,
      );
      try {
        expect(placed?.host).toBe(LOCAL);
        expect((await sandbox.exec('echo placed')).stdout.trim()).toBe('placed');
        expect((await benchrigContainers(runId)).map((c) => c.Id)).toEqual([sandbox.id]);
      } finally {
        await provider.stop(sandbox, { interrupted: false });
        placed?.release();
      }
      expect(fleet.summary()[GONE]).toMatchObject({ infra_errors: 1, cooldowns: 1 });
      expect(lines.join('\n')).toContain(`Docker host ${GONE} taken out of placement`);
      // While the gone host cools down, the next sandbox goes straight to the local one.
      const slot = await fleet.acquire();
      expect(slot.host).toBe(LOCAL);
      slot.release();
    } finally {
      unregisterFleet(runId);
    }
  }, 120_000);

  it('concurrent first sandboxes on a host build its image there once; a host that cannot build is passed over', async () => {
    const context = tempDir('benchrig-fleet-ctx-');
    writeFileSync(join(context, 'Dockerfile'), `FROM ${TEST_IMAGE}\nLABEL benchrig.test="${runId}"\n`);
    await docker()
      .getImage(tag)
      .remove({ force: true })
      .catch(() => {});
    const builds: Array<[string, boolean]> = [];
    const fleet = new Fleet(
      [
        { url: GONE, capacity: 3 },
        { url: LOCAL, capacity: 3 },
      ],
      {
        cooldownMs: 60_000,
        prepareHost: async (host, client) => {
          try {
            builds.push([host.url, await ensureImage({ image: tag, build: context }, { client })]);
          } catch (err) {
            builds.push([host.url, false]);
            throw err;
          }
        },
      },
    );
    fleets.push(fleet);
    const slots = await Promise.all([fleet.acquire(), fleet.acquire(), fleet.acquire()]);
    expect(slots.map((s) => s.host)).toEqual([LOCAL, LOCAL, LOCAL]);
    // One build on the local daemon (the lock), one failed attempt on the gone host.
    expect(builds.filter(([url]) => url === LOCAL)).toEqual([[LOCAL, true]]);
    expect(builds.filter(([url]) => url === GONE)).toHaveLength(1);
    expect((await docker().getImage(tag).inspect()).Config.Labels['benchrig.test']).toBe(runId);
    expect(fleet.summary()[GONE].cooldowns).toBe(1);
    for (const s of slots) s.release();
  }, 180_000);
});
