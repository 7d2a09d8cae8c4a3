import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../../src/sandbox/kubernetes/client.ts';
import { startEnvironment, stopEnvironment } from '../../../../src/sandbox/kubernetes/environments.ts';
import { sweepNamespace } from '../../../../src/sandbox/kubernetes/sweep.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import { TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';
import { pushImage, requireCluster } from '../../../support/kubernetes.ts';

const runId = testRunId('k8s-sweep');

describe('the sweep of the namespace', () => {
  let cluster: Cluster;
  const envs: Environment[] = [];

  const left = async (kind: 'pods' | 'services' | 'policies'): Promise<string[]> => {
    const q = { namespace: cluster.namespace, labelSelector: `benchrig.run=${runId}` };
    const list =
      kind === 'pods'
        ? await cluster.core.listNamespacedPod(q)
        : kind === 'services'
          ? await cluster.core.listNamespacedService(q)
          : await cluster.net.listNamespacedNetworkPolicy(q);
    return list.items.map((o) => o.metadata?.labels?.['benchrig.session'] ?? '?').sort();
  };

  beforeAll(async () => {
    cluster = await requireCluster();
    const image = pushImage(TEST_IMAGE);
    // a harness that is gone: a process that has exited
    const dead = spawnSync('true').pid;
    const start = (session: string, pid: number, keep = false) =>
      startEnvironment(
        cluster,
        testSpec({ image }),
        { runId, sessionId: session, pid, keep },
        { image, deadlineSeconds: 600 },
      );
    for (const [session, pid, keep] of [
      ['dead', dead],
      ['live', process.pid],
      ['kept', dead, true],
    ] as const)
      envs.push(await start(session, pid, keep));
  }, 300_000);
  afterAll(async () => {
    await Promise.all(envs.map((env) => stopEnvironment(cluster, env)));
  });

  it("removes a dead harness's pod, Service and NetworkPolicy; leaves a live one's and a kept one", async () => {
    expect(await left('pods')).toEqual(['dead', 'kept', 'live']);
    expect(await sweepNamespace(cluster)).toBeGreaterThanOrEqual(1);
    for (const kind of ['services', 'policies'] as const) expect(await left(kind)).toEqual(['kept', 'live']);
    await expect.poll(() => left('pods'), { timeout: 30_000, interval: 500 }).toEqual(['kept', 'live']);
  });

  it('with kept, removes the kept one of a dead harness too; with the run id, the rest of the run', async () => {
    await sweepNamespace(cluster, { kept: true });
    await expect.poll(() => left('pods'), { timeout: 30_000, interval: 500 }).toEqual(['live']);
    expect(await sweepNamespace(cluster, { runId })).toBe(1);
    await expect.poll(() => left('pods'), { timeout: 30_000, interval: 500 }).toEqual([]);
    expect([...(await left('services')), ...(await left('policies'))]).toEqual([]);
  });
});
