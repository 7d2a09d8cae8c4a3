// The end before grading's killer (src/sandbox/docker/kill-all.ts) with each provider's parameters,
// run as the providers run it (as root, from the toolbox's untraceable shell) in a real container
// whose PID 1 never reaps, so that a zombie stays: Kubernetes lets it be after ~1 s (a pod cannot be
// restarted whole), Docker waits for it as for any process (and restarts the container when it is
// not reaped). A live process the killer may not signal fails the end. endInPlace itself, the
// per-uid pass and Kubernetes' end are in toolbox.test.ts and kubernetes/grading.test.ts.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { killAllScript } from '../../../../src/sandbox/docker/kill-all.ts';
import { createOptions, DockerSandbox } from '../../../../src/sandbox/docker/sandbox.ts';
import { ensureToolbox, TOOLBOX_INIT, untraceableArgv } from '../../../../src/sandbox/docker/toolbox.ts';
import { benchrigContainers, requireDocker, TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('kill-all');
const KUBERNETES = killAllScript({ otherUids: 'wait', zombies: 'grace' });
const DOCKER = killAllScript({ otherUids: 'report', zombies: 'wait' });

describe.skipIf(!ok)("the end before grading's killer, around a PID 1 that never reaps", () => {
  const containers: Docker.Container[] = [];

  /** A container whose PID 1 is a plain `sleep` from the toolbox: an orphan that exits there stays a zombie. */
  async function start(session: string): Promise<DockerSandbox> {
    const spec = testSpec();
    const options = createOptions(spec, { runId, sessionId: `${runId}-${session}` }, await ensureToolbox(TEST_IMAGE));
    const container = await docker().createContainer({ ...options, Entrypoint: [TOOLBOX_INIT, 'sleep', '3600'] });
    containers.push(container);
    await container.start();
    return new DockerSandbox(container, spec.image, spec.workdir, spec);
  }

  /** The killer as endInPlace and PodSandbox run it: root, the untraceable shell, not under `timeout`. */
  async function kill(sb: DockerSandbox, script: string) {
    const t0 = Date.now();
    const r = await sb.exec(untraceableArgv(script), { trusted: true, cwd: '/', user: '0:0', timeoutMs: 15_000 });
    return { ...r, ms: Date.now() - t0 };
  }

  /** Every process but PID 1 and the listing's own shell, as `pid uid state`. */
  const processes = async (sb: DockerSandbox) =>
    (
      await sb.exec(
        'for d in /proc/[0-9]*; do p=${d#/proc/}; { [ $p = 1 ] || [ $p = $$ ]; } && continue; read -r s < $d/stat 2>/dev/null || continue; set -- ${s##*) }; [ $2 = $$ ] && continue; while read -r k v _; do [ "$k" = Uid: ] && break; done < $d/status; echo "$p $v $1"; done',
        { trusted: true, cwd: '/' },
      )
    ).stdout
      .trim()
      .split('\n')
      .filter(Boolean);

  let zombie: string;
  let sb: DockerSandbox;

  beforeAll(async () => {
    sb = await start('zombie');
    // The subshell exits at once: its sleep, handed to PID 1, exits 0.1 s later and is never reaped.
    await sb.exec('(sleep 0.1 &); exit 0');
    await new Promise((done) => setTimeout(done, 500));
    const left = await processes(sb);
    expect(left).toEqual([expect.stringMatching(/^\d+ 0 Z$/)]);
    zombie = left[0].split(' ')[0];
  }, 120_000);

  afterAll(async () => {
    for (const c of containers) await c.remove({ force: true });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it("Kubernetes' killer lets a zombie be after ~1 s and ends with PID 1 left", async () => {
    const r = await kill(sb, KUBERNETES);
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(r.ms).toBeGreaterThanOrEqual(1_000);
    expect(r.ms).toBeLessThan(4_000);
    expect(await processes(sb)).toEqual([`${zombie} 0 Z`]);
  });

  it("Docker's killer waits for a zombie as for any process: not reaped in ~5 s, the end fails (endInPlace then restarts the container whole)", async () => {
    const r = await kill(sb, DOCKER);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`still running: ${zombie}\n`);
    expect(r.ms).toBeGreaterThanOrEqual(5_000);
  }, 30_000);

  it("a live process the killer may not signal fails Kubernetes' end after ~5 s, named; the root ones it ends", async () => {
    const other = await start('other-uid');
    await other.exec('sleep 300 >/dev/null 2>&1 &', { user: '1000' });
    await other.exec('sleep 301 >/dev/null 2>&1 &');
    await new Promise((done) => setTimeout(done, 300));
    const before = await processes(other);
    expect(before.map((l) => l.split(' ').slice(1).join(' ')).sort()).toEqual(['0 S', '1000 S']);
    const r = await kill(other, KUBERNETES);
    const live = before.find((l) => l.endsWith(' 1000 S'))?.split(' ')[0];
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`still running: ${live}\n`);
    expect(r.ms).toBeGreaterThanOrEqual(5_000);
    // The root sleep was killed (a zombie now: this PID 1 does not reap); uid 1000's runs on.
    const after = await processes(other);
    expect(after).toContain(`${live} 1000 S`);
    expect(after.filter((l) => !l.startsWith(`${live} `))).toEqual([expect.stringMatching(/^\d+ 0 Z$/)]);
  }, 30_000);
});
