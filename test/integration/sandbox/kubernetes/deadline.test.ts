// activeDeadlineSeconds, the backstop for a harness that died (docs/kubernetes.md): a pod nobody
// stops is ended by the kubelet itself once its deadline passes, its processes gone, and the next
// run's sweep deletes what is left of it.
import { afterAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../../src/sandbox/kubernetes/client.ts';
import { startEnvironment, stopEnvironment } from '../../../../src/sandbox/kubernetes/environments.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import { TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';
import { pushImage, requireCluster } from '../../../support/kubernetes.ts';

const runId = testRunId('k8s-deadline');

describe('a pod past its activeDeadlineSeconds', () => {
  let cluster: Cluster | undefined;
  let env: Environment | undefined;
  afterAll(async () => {
    if (cluster && env) await stopEnvironment(cluster, env);
  });

  it('is ended by the kubelet with no harness left to stop it (DeadlineExceeded)', async () => {
    cluster = await requireCluster();
    const image = pushImage(TEST_IMAGE);
    env = await startEnvironment(
      cluster,
      testSpec({ image }),
      { runId, sessionId: `${runId}-1` },
      { image, deadlineSeconds: 5 },
    );
    const name = env.main.id;
    expect((await env.main.exec(['echo', 'alive'])).stdout).toBe('alive\n');
    let pod = await cluster.core.readNamespacedPod({ name, namespace: cluster.namespace });
    for (let i = 0; i < 120 && pod.status?.phase === 'Running'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      pod = await cluster.core.readNamespacedPod({ name, namespace: cluster.namespace });
    }
    expect(pod.status).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded' });
    expect(await env.main.health()).toMatchObject({ state: expect.not.stringMatching(/^running$/) });
  }, 180_000);
});
