import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import type { Cluster } from '../../../../src/sandbox/kubernetes/client.ts';
import { startEnvironment, stopEnvironment } from '../../../../src/sandbox/kubernetes/environments.ts';
import { TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';
import { pushImage, requireCluster } from '../../../support/kubernetes.ts';

const runId = testRunId('k8s-iso');

async function podIp(cluster: Cluster, env: Environment): Promise<string> {
  const pod = await cluster.core.readNamespacedPod({ namespace: cluster.namespace, name: env.main.id });
  return pod.status?.podIP ?? '';
}

describe("a trial's NetworkPolicy on the local cluster", () => {
  let cluster: Cluster;
  const envs: Environment[] = [];

  beforeAll(async () => {
    cluster = await requireCluster();
    const image = pushImage(TEST_IMAGE);
    for (const i of [1, 2])
      envs.push(
        await startEnvironment(
          cluster,
          testSpec({ image }),
          { runId, sessionId: `${runId}-${i}` },
          { image, deadlineSeconds: 600 },
        ),
      );
    for (const env of envs) {
      await env.main.exec('echo served > index.html && setsid httpd -p 8080 -h /workspace </dev/null >/dev/null 2>&1');
    }
  }, 300_000);
  afterAll(async () => {
    await Promise.all(envs.map((env) => stopEnvironment(cluster, env)));
  });

  it("a pod reaches its own service by name, and not another trial's pod", async () => {
    const [a, b] = envs;
    const own = await a.main.exec('nslookup main; printf "GET / HTTP/1.0\\r\\n\\r\\n" | nc -w 3 main 8080', {
      timeoutMs: 15_000,
    });
    expect(own.stdout).toContain('served');
    const other = await a.main.exec(`printf "GET / HTTP/1.0\\r\\n\\r\\n" | nc -w 3 ${await podIp(cluster, b)} 8080`, {
      timeoutMs: 15_000,
    });
    expect(other.stdout).not.toContain('served');
  });

  it('a pod without network reaches neither the API server nor the internet', async () => {
    const [a] = envs;
    const api = await a.main.exec('nc -w 3 kubernetes.default.svc.cluster.local 443 </dev/null && echo reached', {
      timeoutMs: 15_000,
    });
    expect(api.stdout).not.toContain('reached');
    const out = await a.main.exec('nc -w 3 1.1.1.1 80 </dev/null && echo reached', { timeoutMs: 15_000 });
    expect(out.stdout).not.toContain('reached');
  });
});
