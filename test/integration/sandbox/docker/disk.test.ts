// `[sandbox] disk` against the real daemon: the watch sees a sandbox write past its bound (by the
// host walk on this machine, by Docker's SizeRw through a TCP endpoint as on a fleet host), kills
// it and aborts; a sandbox under its bound is left alone; a stopped watch does nothing more.
import { afterAll, describe, expect, it } from 'vitest';
import { Dockerode, docker } from '../../../../src/sandbox/docker/client.ts';
import { driverMayQuota, forgetQuotaAnswers, storageQuota } from '../../../../src/sandbox/docker/disk-quota.ts';
import { diskMeter } from '../../../../src/sandbox/docker/disk-usage.ts';
import { DiskLimitExceeded, startDiskWatch, watchContainer } from '../../../../src/sandbox/docker/disk.ts';
import { DockerProvider, type DockerSandbox } from '../../../../src/sandbox/docker/sandbox.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec, TEST_IMAGE } from '../../../support/docker.ts';
import { startDockerProxy, type DockerProxy } from '../../../support/docker-proxy.ts';
import { defined } from '../../../support/defined.ts';

const ok = await requireDocker();
const runId = testRunId('disk');
const MiB = 1024 ** 2;
const FAST = { walk: 200, size_rw: 300 };

const aborted = (signal: AbortSignal, ms: number) =>
  new Promise<unknown>((resolve, reject) => {
    if (signal.aborted) return resolve(signal.reason);
    const t = setTimeout(() => reject(new Error(`not aborted within ${ms} ms`)), ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve(signal.reason)), { once: true });
  });
const running = async (sb: DockerSandbox) => (await docker().getContainer(sb.id).inspect()).State.Running;

describe.skipIf(!ok)('the disk watch', () => {
  const provider = new DockerProvider();
  let proxy: DockerProxy | undefined;
  const started: DockerSandbox[] = [];
  const start = async (name: string) => {
    const sb = await provider.start(testSpec({ disk: '20m' }), { runId, sessionId: name });
    started.push(sb);
    return sb;
  };

  afterAll(async () => {
    await proxy?.close();
    for (const sb of started) await provider.stop(sb, { interrupted: false });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('walks the writable layer on the local daemon, kills a sandbox past its bound and aborts', async () => {
    const sb = await start('walk-over');
    expect((await diskMeter(sb.client, sb.container)).how).toBe('walk');
    const watch = defined(startDiskWatch(sb, '20m', { intervalMs: FAST }));
    try {
      const t0 = Date.now();
      // A writer that never stops on its own, as a greedy agent's would.
      const writer = sb.exec('while :; do dd if=/dev/zero bs=1M count=4 >> /workspace/fill 2>/dev/null; done', {
        timeoutMs: 60_000,
      });
      const reason = await aborted(watch.signal, 20_000);
      expect(reason).toBeInstanceOf(DiskLimitExceeded);
      expect((reason as DiskLimitExceeded).value).toBeGreaterThan(20 * MiB);
      expect(watch.exceeded).toBe(reason);
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(await running(sb)).toBe(false); // the writer was stopped with its container
      await writer.catch(() => undefined);
      await expect(watch.check()).rejects.toBe(reason);
    } finally {
      watch.stop();
    }
  });

  it('leaves a sandbox under its bound alone, and check() measures a burst just made', async () => {
    const sb = await start('walk-under');
    const watch = defined(startDiskWatch(sb, '20m', { intervalMs: FAST }));
    try {
      expect((await sb.exec('dd if=/dev/zero of=/workspace/ok bs=1M count=5')).exitCode).toBe(0);
      await new Promise((r) => setTimeout(r, 800));
      expect(watch.signal.aborted).toBe(false);
      await expect(watch.check()).resolves.toBeUndefined();
    } finally {
      watch.stop();
    }
    // a burst right before the phase ends, between two ticks (none comes: the interval is long)
    const late = defined(startDiskWatch(sb, '20m', { intervalMs: { walk: 600_000, size_rw: 600_000 } }));
    try {
      expect((await sb.exec('dd if=/dev/zero of=/workspace/burst bs=1M count=30')).exitCode).toBe(0);
      await expect(late.check()).rejects.toBeInstanceOf(DiskLimitExceeded);
    } finally {
      late.stop();
    }
  });

  it('once stopped, never measures or kills again', async () => {
    const sb = await start('stopped');
    const watch = defined(startDiskWatch(sb, '20m', { intervalMs: FAST }));
    watch.stop();
    expect((await sb.exec('dd if=/dev/zero of=/workspace/after bs=1M count=30')).exitCode).toBe(0);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(watch.signal.aborted).toBe(false);
    expect(await running(sb)).toBe(true);
  });

  it('asks Docker for SizeRw through a TCP endpoint (a fleet host) and stops the sandbox there too', async () => {
    proxy = await startDockerProxy();
    const port = Number(new URL(proxy.url.replace('tcp:', 'http:')).port);
    const remote = new (Dockerode())({ host: '127.0.0.1', port, protocol: 'http' });
    const sb = await start('size-rw');
    const container = remote.getContainer(sb.id);
    const meter = await diskMeter(remote, container);
    expect(meter.how).toBe('size_rw');
    expect((await sb.exec('dd if=/dev/zero of=/workspace/five bs=1M count=5')).exitCode).toBe(0);
    const five = await meter.measure();
    expect(five).toBeGreaterThanOrEqual(5 * MiB);
    expect(five).toBeLessThan(6 * MiB);
    const watch = watchContainer(remote, container, 20 * MiB, '20m', { intervalMs: FAST });
    try {
      void sb
        .exec('while :; do dd if=/dev/zero bs=1M count=4 >> /workspace/fill 2>/dev/null; done', { timeoutMs: 60_000 })
        .catch(() => undefined);
      expect(await aborted(watch.signal, 20_000)).toBeInstanceOf(DiskLimitExceeded);
      expect(await running(sb)).toBe(false);
    } finally {
      watch.stop();
    }
  });

  it('keeps no container log: what the agent writes to PID 1 never lands on the host', async () => {
    const sb = await start('log');
    const r = await sb.exec('dd if=/dev/zero bs=1M count=8 2>/dev/null | tr "\\0" a > /proc/1/fd/1; echo $?');
    // PID 1 is the toolbox's untraceable keep-alive: its descriptors are not even the agent's to open.
    expect(r.stdout.trim()).not.toBe('0');
    const info = await docker().getContainer(sb.id).inspect();
    expect(info.HostConfig.LogConfig).toMatchObject({ Type: 'none' });
    expect(info.LogPath).toBe('');
  });

  it('this daemon has no StorageOpt quota: it says so, and refuses a create that asks for one', async () => {
    const info = (await docker().info()) as { Driver: string; DriverStatus: [string, string][] };
    forgetQuotaAnswers();
    const quota = await storageQuota(docker(), 'local:test', TEST_IMAGE, { runId, sessionId: 'probe' });
    expect(quota).toBe(driverMayQuota(info) ? quota : false);
    if (!driverMayQuota(info)) {
      const refused = await docker()
        .createContainer({
          Image: TEST_IMAGE,
          Labels: { 'benchrig.run': runId },
          HostConfig: { StorageOpt: { size: '64m' } },
        })
        .then(
          async (c) => (await c.remove({ force: true }), null),
          (e: Error) => e,
        );
      expect(refused?.message).toMatch(/storage-opt/i);
    }
  });
});
