import { SandboxError } from '../../../../src/errors.ts';
import { blame } from '../../../../src/trial/blame.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../../src/sandbox/kubernetes/client.ts';
import { startEnvironment, stopEnvironment } from '../../../../src/sandbox/kubernetes/environments.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import { TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';
import { pushImage, requireCluster } from '../../../support/kubernetes.ts';

const runId = testRunId('k8s-limits');

describe('the memory limit and disk bound of a pod', () => {
  let cluster: Cluster;
  let env: Environment | undefined;

  beforeAll(async () => {
    cluster = await requireCluster();
    const image = pushImage(TEST_IMAGE);
    const spec = testSpec({ image, memory: '64m', disk: '50m' });
    env = await startEnvironment(cluster, spec, { runId, sessionId: `${runId}-1` }, { image, deadlineSeconds: 600 });
  }, 300_000);
  afterAll(async () => {
    if (env) await stopEnvironment(cluster, env);
  });

  it('a command that takes more memory than the limit is killed (OOM)', async () => {
    const main = env?.main;
    if (!main) throw new Error('no environment');
    // holds 200 MB in a shell variable
    const res = await main.exec('x=$(head -c 200000000 /dev/zero | tr "\\0" a); echo survived ${#x}', {
      timeoutMs: 60_000,
    });
    expect(res.stdout).not.toContain('survived');
    expect(res.exitCode).toBe(137); // SIGKILL from the OOM killer
    expect(await main.health()).toEqual({ daemon: true, state: 'running' }); // the pod lives on
  });

  it('a pod that writes past its disk bound is evicted', async () => {
    const main = env?.main;
    if (!main) throw new Error('no environment');
    await main.exec('head -c 120000000 /dev/zero > /workspace/big; sync', { timeoutMs: 60_000 });
    const status = async () => {
      const st = (await cluster.core.readNamespacedPod({ namespace: cluster.namespace, name: main.id })).status;
      return `${st?.phase ?? '?'} ${st?.reason ?? ''} ${st?.message ?? ''}`;
    };
    // the kubelet's eviction manager measures every 10 s
    await expect.poll(status, { timeout: 90_000, interval: 2_000 }).toMatch(/^Failed Evicted .*ephemeral/i);
    // The container's own status may still be missing when the pod is Failed; containerd may also call
    // it OOMKilled after the OOM kill of the test above in its cgroup (docs/kubernetes.md#status).
    const health = await main.health();
    expect(health).toMatchObject({ daemon: true, state: 'stopped' });
    expect(health.killedByDocker).toBeUndefined(); // its own disk bound: the agent's writing, not the cluster's doing
    // What blame reads (trial/blame.ts): the API server answered the failed exec, and the pod is not lost.
    const failed = await main.exec('true').then(
      () => null,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(SandboxError);
    expect((failed as SandboxError).daemon).toBe('answered');
    expect(await blame(failed as SandboxError, main)).toMatchObject({ kind: 'agent' });
  }, 120_000);
});
