import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxError } from '../../../src/errors.ts';
import { docker } from '../../../src/sandbox/docker/client.ts';
import { DockerProvider } from '../../../src/sandbox/docker/sandbox.ts';
import { createSharedVolume, removeVolume } from '../../../src/sandbox/docker/shared.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec } from '../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('provider');

describe.skipIf(!ok)('DockerProvider', () => {
  const provider = new DockerProvider();

  afterAll(async () => {
    await provider.sweep({ runId });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('labels the container with run, session, pid and host', async () => {
    const sb = await provider.start(testSpec(), { runId, sessionId: 'labels-1' });
    try {
      const info = await docker().getContainer(sb.id).inspect();
      expect(info.Config.Labels).toMatchObject({
        benchrig: '1',
        'benchrig.run': runId,
        'benchrig.session': 'labels-1',
        'benchrig.pid': String(process.pid),
        'benchrig.host': os.hostname(),
      });
      expect((await benchrigContainers(runId)).map((c) => c.Id)).toEqual([sb.id]);
    } finally {
      await provider.stop(sb, { interrupted: false });
    }
  });

  it('applies the security defaults, and the sandbox really has no network or capabilities', async () => {
    const sb = await provider.start(testSpec({ memory: '300m', pids: 77, cpus: 0.5 }), { runId, sessionId: 'sec-1' });
    try {
      const { HostConfig: hc, Mounts } = await docker().getContainer(sb.id).inspect();
      expect(hc.NetworkMode).toBe('none');
      expect(hc.CapDrop).toEqual(['ALL']);
      expect(hc.SecurityOpt).toEqual(['no-new-privileges']);
      expect(hc.Memory).toBe(300 * 1024 * 1024);
      expect(hc.MemorySwap).toBe(300 * 1024 * 1024);
      expect(hc.NanoCpus).toBe(5e8);
      expect(hc.PidsLimit).toBe(77);
      expect(hc.Init).toBe(false); // its PID 1 is the toolbox's keep-alive, which only SIGKILL stops
      const { Config } = await docker().getContainer(sb.id).inspect();
      expect((Config as { StopSignal?: string }).StopSignal).toBe('SIGKILL');
      expect(hc.Binds ?? []).toEqual([]);
      // Nothing from the host: only the harness's own toolbox volume, read-only.
      expect(Mounts).toMatchObject([{ Type: 'volume', Destination: '/.benchrig', RW: false }]);
      expect(Mounts[0].Name).toMatch(/^benchrig-toolbox-/);

      // nc, not busybox's wget: the static busybox's wget segfaults, which would pass for the wrong reason
      const net = await sb.exec('ls /sys/class/net; nc -w 3 1.1.1.1 80 </dev/null 2>&1', { timeoutMs: 15_000 });
      expect(net.stdout.split('\n')[0]).toBe('lo');
      expect(net.exitCode).not.toBe(0);
      expect(net.stdout).toMatch(/unreachable/i);
      expect(net.timedOut).toBe(false);
      const status = (await sb.exec('grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status')).stdout;
      expect(status).toMatch(/CapEff:\s+0000000000000000/);
      expect(status).toMatch(/NoNewPrivs:\s+1/);
      // Docker's default seccomp profile (Kubernetes pods ask for the runtime's: test/integration/sandbox/kubernetes/environment.test.ts).
      expect(status).toMatch(/Seccomp:\s+2/);
      expect((await sb.exec('unshare -U true')).stderr).toContain('Operation not permitted');
    } finally {
      await provider.stop(sb, { interrupted: false });
    }
  });

  it('runs setup in order in the workdir (created if missing)', async () => {
    const sb = await provider.start(testSpec({ workdir: '/work/here', setup: ['echo one > log', 'echo two >> log'] }), {
      runId,
      sessionId: 'setup-ok',
    });
    try {
      expect(await sb.readFile('log')).toBe('one\ntwo\n');
      expect((await sb.exec('pwd')).stdout).toBe('/work/here\n');
    } finally {
      await provider.stop(sb, { interrupted: false });
    }
  });

  it('a failing setup command is a SandboxError naming it and its stderr, with the container removed', async () => {
    const spec = testSpec({ setup: ['true', 'echo broken thing >&2; exit 7'] });
    const err = await provider.start(spec, { runId, sessionId: 'setup-bad' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as Error).message).toContain('echo broken thing >&2; exit 7');
    expect((err as Error).message).toContain('exited 7');
    expect((err as Error).message).toContain('broken thing');
    expect((await benchrigContainers(runId)).filter((c) => c.Labels['benchrig.session'] === 'setup-bad')).toEqual([]);
  });

  it('retries a Docker failure to start, then reports it as a SandboxError with the cause', async () => {
    const spec = testSpec({ image: 'benchrig-test/no-such-image:0' });
    const started = Date.now();
    const err = await provider.start(spec, { runId, sessionId: 'retry' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as Error).message).toMatch(/after 3 attempts: .*no such image/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400); // backoff 500 ms + 1000 ms between attempts
  });

  it('stops waiting when the abort signal fires', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('trial cancelled')), 200);
    const err = await provider
      .start(testSpec({ image: 'benchrig-test/no-such-image:0' }), { runId, sessionId: 'abort' }, ac.signal)
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('trial cancelled');
  });

  it('stop tolerates a container that is already gone', async () => {
    const sb = await provider.start(testSpec(), { runId, sessionId: 'gone' });
    await docker().getContainer(sb.id).remove({ force: true });
    await expect(provider.stop(sb, { interrupted: true })).resolves.toBeUndefined();
    await expect(provider.stop(sb, { interrupted: false })).resolves.toBeUndefined();
  });

  it("stop returns once the container is gone, also when another caller's removal was under way", async () => {
    const sb = await provider.start(testSpec(), { runId, sessionId: 'racing' });
    const other = docker()
      .getContainer(sb.id)
      .remove({ force: true })
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 10));
    await provider.stop(sb, { interrupted: true });
    const left = await docker()
      .getContainer(sb.id)
      .inspect()
      .then(
        (i) => i.State.Status,
        () => 'gone',
      );
    expect(left).toBe('gone');
    await other;
  });

  it('mounts the shared volume read-only, filled from a host folder', async () => {
    const src = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-shared-'));
    fs.mkdirSync(path.join(src, 'data'));
    fs.writeFileSync(path.join(src, 'data/answer.txt'), '42\n');
    const volume = await createSharedVolume(runId, src, testSpec().image);
    try {
      const vol = await docker().getVolume(volume).inspect();
      expect(vol.Labels).toMatchObject({ 'benchrig.run': runId, 'benchrig.pid': String(process.pid) });
      const sb = await provider.start(testSpec({ shared: { volume, mount: '/shared' } }), {
        runId,
        sessionId: 'shared',
      });
      try {
        expect((await sb.exec('cat /shared/data/answer.txt')).stdout).toBe('42\n');
        const write = await sb.exec('touch /shared/new');
        expect(write.exitCode).not.toBe(0);
        expect(write.stderr).toMatch(/read-only/i);
        const { Mounts } = await docker().getContainer(sb.id).inspect();
        expect(Mounts.find((m) => m.Destination === '/shared')).toMatchObject({
          Type: 'volume',
          Name: volume,
          RW: false,
        });
      } finally {
        await provider.stop(sb, { interrupted: false });
      }
    } finally {
      await removeVolume(volume);
      await removeVolume(volume); // tolerates gone
      fs.rmSync(src, { recursive: true, force: true });
    }
  });
});
