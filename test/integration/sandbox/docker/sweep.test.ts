import os from 'node:os';
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { buildLabels } from '../../../../src/sandbox/docker/labels.ts';
import { sweep } from '../../../../src/sandbox/docker/sweep.ts';
import { benchrigContainers, requireDocker, TEST_IMAGE, testRunId } from '../../../support/docker.ts';
import { defined } from '../../../support/defined.ts';

const ok = await requireDocker();
const runId = testRunId('sweep');

/** A container labelled as if a harness with `pid` on `host` had made it (created, never started). */
async function leftover(sessionId: string, pid: number, host = os.hostname()): Promise<string> {
  const c = await docker().createContainer({
    Image: TEST_IMAGE,
    Cmd: ['true'],
    Labels: buildLabels({ runId, sessionId, pid, host }),
    HostConfig: { NetworkMode: 'none' },
  });
  return c.id;
}

const sessionsLeft = async () => (await benchrigContainers(runId)).map((c) => c.Labels['benchrig.session']).sort();

describe.skipIf(!ok)('sweep', () => {
  afterAll(async () => {
    await sweep({ runId });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('removes containers and volumes of dead harness processes on this host, and nothing else', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    await leftover('dead', deadPid);
    await leftover('live', process.pid);
    await leftover('other-host', deadPid, 'not-this-host');
    const vol = await docker().createVolume({
      Name: `${runId}-dead`,
      Labels: buildLabels({ runId, sessionId: 'shared', pid: deadPid }),
    });

    // No count here: a concurrent run's start-up sweep may remove our dead leftovers first (the
    // count is checked exactly below, with runId). What must hold is which ones survive.
    await sweep();
    expect(await sessionsLeft()).toEqual(['live', 'other-host']);
    await expect(docker().getVolume(vol.name).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });

  it("with runId, never what another live process of the same run id made (one run's cleanup, another's sandboxes)", async () => {
    const other = spawn('sleep', ['60'], { stdio: 'ignore' }); // stands for a second harness process
    try {
      await leftover('theirs', defined(other.pid));
      await sweep({ runId });
      expect(await sessionsLeft()).toEqual(['theirs']);
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
    }
    await sweep({ runId }); // its owner is gone now
    expect(await sessionsLeft()).toEqual([]);
    await leftover('live', process.pid);
    await leftover('other-host', spawnSync(process.execPath, ['-e', '0']).pid, 'not-this-host');
  });

  it('removes everything of one run with runId', async () => {
    expect(await sessionsLeft()).toEqual(['live', 'other-host']);
    expect(await sweep({ runId })).toBe(2);
    expect(await sessionsLeft()).toEqual([]);
    expect(await sweep({ runId })).toBe(0);
  });

  it("waits out another caller's removal of a container under way, then removes its volume", async () => {
    // Docker answers a second removal with 409 while the first is under way; the container still
    // holds its volume until that one ends. Three rounds: the race is the daemon's timing.
    for (let round = 0; round < 3; round++) {
      const labels = buildLabels({ runId, sessionId: `busy-${round}`, pid: process.pid });
      const vol = await docker().createVolume({ Name: `${runId}-busy-${round}`, Labels: labels });
      const c = await docker().createContainer({
        Image: TEST_IMAGE,
        Cmd: ['sleep', '60'],
        Labels: labels,
        HostConfig: { NetworkMode: 'none', Binds: [`${vol.name}:/data`] },
      });
      await c.start();
      const other = c.remove({ force: true }).catch((e: unknown) => e); // a trial's own cleanup, say
      await new Promise((r) => setTimeout(r, 10));
      await sweep({ runId });
      const volumeLeft = await docker()
        .getVolume(vol.name)
        .inspect()
        .then(
          () => true,
          () => false,
        );
      expect({ containers: await sessionsLeft(), volumeLeft }).toEqual({ containers: [], volumeLeft: false });
      await other;
    }
  });
});
