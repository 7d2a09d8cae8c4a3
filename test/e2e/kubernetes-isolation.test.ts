// A fixture agent on the local cluster tries what isolation forbids (docs/kubernetes.md#the-provider):
// another trial's pod, the host's loopback services, the API server. Through the real CLI.
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/sandbox/kubernetes/client.ts';
import { startEnvironment, stopEnvironment } from '../../src/sandbox/kubernetes/environments.ts';
import type { Environment } from '../../src/sandbox/provider.ts';
import { TEST_IMAGE, testRunId, testSpec } from '../support/docker.ts';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';
import { K8S_NAMESPACE, K8S_REGISTRY, KUBECONFIG, pushImage, requireCluster } from '../support/kubernetes.ts';

describe('a trial on Kubernetes reaches nothing outside it', () => {
  let cluster: Cluster;
  let victim: Environment | undefined;
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    cluster = await requireCluster();
    const image = pushImage(TEST_IMAGE);
    const runId = testRunId('k8s-victim');
    victim = await startEnvironment(
      cluster,
      testSpec({ image }),
      { runId, sessionId: `${runId}-1` },
      { image, deadlineSeconds: 600 },
    );
    await victim.main.exec('echo secret > index.html && (httpd -p 8080 -h /workspace >/dev/null 2>&1 &)');
    server = createServer((_req, res) => res.end('host secret'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  }, 300_000);
  afterAll(async () => {
    if (victim) await stopEnvironment(cluster, victim);
    server.close();
  });

  it("refuses another trial's pod, the host's loopback services and the API server", async () => {
    const victimPod = await cluster.core.readNamespacedPod({
      namespace: cluster.namespace,
      name: victim?.main.id ?? '',
    });
    const node = await cluster.core.readNode({ name: victimPod.spec?.nodeName ?? '' });
    const nodeIp = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    const targets = {
      otherTrial: `${victimPod.status?.podIP} 8080`,
      hostLoopbackByNode: `${nodeIp} ${port}`,
      apiServerService: 'kubernetes.default.svc.cluster.local 443',
      apiServerNode: `${nodeIp} 6443`,
      registry: `${nodeIp} 5100`,
    };
    expect(victimPod.status?.podIP).toBeTruthy();
    // The other trial's httpd answers inside its own pod: a refusal from the prober is the policy's.
    expect((await victim?.main.exec('nc -w 3 127.0.0.1 8080 </dev/null && echo reached'))?.stdout).toContain('reached');
    const dir = tempDir('k8s-probe-');
    const config = join(dir, 'k8s.toml');
    writeFileSync(
      config,
      `[run]\nprovider = "kubernetes"\nnamespace = "${K8S_NAMESPACE}"\nregistry = "${K8S_REGISTRY}"\n`,
    );
    const r = await runCli(
      [
        'run',
        join(FIXTURES, 'benchmarks/mini-shell'),
        '--agent',
        join(FIXTURES, 'agents/k8s-prober.ts'),
        '--mode',
        'threads',
        '--limit',
        '1',
        '--output',
        tempDir(),
        '--config',
        config,
        '--push',
        '--quiet',
      ],
      { env: { KUBECONFIG, PROBE_DIR: dir, PROBE_TARGETS: JSON.stringify(targets) }, timeoutMs: 300_000 },
    );
    expect(r.stderr).not.toMatch(/benchrig: /);
    const written = readdirSync(dir).find((f) => f.endsWith('.json'));
    expect(written, 'the agent wrote what it saw').toBeDefined();
    expect(JSON.parse(readFileSync(join(dir, written ?? ''), 'utf8'))).toEqual({
      control: 'reached',
      otherTrial: 'refused',
      hostLoopbackByNode: 'refused',
      apiServerService: 'refused',
      apiServerNode: 'refused',
      registry: 'refused',
    });
  }, 400_000);
});
