// The disk measurement in a pod (docs/kubernetes.md#disk) on the local cluster: what the image
// brought is not counted, even when the node pulls it only for this pod (after the toolbox's init
// container has run); what the sandbox writes is; the start mark is read once, so an agent that
// writes to the termination-message file later cannot move it past its own files.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitExceeded } from '../../../../src/errors.ts';
import { KubernetesEnvironments } from '../../../../src/sandbox/kubernetes/provider.ts';
import { ensureToolboxImage } from '../../../../src/sandbox/kubernetes/toolbox.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import { TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';
import { K8S_NAMESPACE, K8S_REGISTRY, KUBECONFIG, pushImage, requireCluster } from '../../../support/kubernetes.ts';
import { tempDir } from '../../../support/cli.ts';

const runId = testRunId('k8s-disk');
const MiB = 1024 ** 2;

/** An image with an 8 MiB layer no node has: the pod's start pulls and unpacks it. */
function freshImage(): string {
  const dir = tempDir('k8s-disk-image-');
  writeFileSync(join(dir, 'blob'), randomBytes(8 * MiB));
  writeFileSync(join(dir, 'Dockerfile'), `FROM ${TEST_IMAGE}\nCOPY blob /blob\n`);
  const tag = `benchrig-test/fresh:${randomBytes(6).toString('hex')}`;
  execFileSync('docker', ['build', '-q', '-t', tag, dir]);
  pushImage(tag);
  return tag;
}

describe('the disk measurement in a pod', () => {
  let provider: KubernetesEnvironments;
  let env: Environment | undefined;

  beforeAll(async () => {
    await requireCluster();
    process.env.KUBECONFIG = KUBECONFIG; // the provider reads the kubeconfig as a run does
    const settings = { namespace: K8S_NAMESPACE, registry: K8S_REGISTRY, push: false, deadlineSeconds: 600 };
    provider = new KubernetesEnvironments(settings);
    await ensureToolboxImage(K8S_REGISTRY);
    const image = freshImage();
    env = await provider.start(testSpec({ image, disk: '4m' }), { runId, sessionId: `${runId}-1` });
  }, 300_000);
  afterAll(async () => {
    if (env) await provider.stop(env);
  });

  const measured = async (): Promise<unknown> => {
    const main = env?.main;
    if (!main) throw new Error('no environment');
    const watch = provider.watchDisk(main, '4m');
    if (!watch) throw new Error('no disk watch for a pod with the toolbox');
    try {
      await watch.check();
      return null;
    } catch (err) {
      return err;
    } finally {
      watch.stop();
    }
  };

  it("does not count the image's files, pulled for this pod", async () => {
    expect(await env?.main.exec('test -f /blob && echo there')).toMatchObject({ stdout: 'there\n' });
    expect(await measured()).toBeNull(); // the image's 8 MiB layer is under the 4 MiB bound's count
  });

  it('counts what the sandbox writes, even after it rewrites the termination-message file', async () => {
    await env?.main.exec('dd if=/dev/zero of=/workspace/data bs=1M count=5 2>/dev/null');
    await env?.main.exec('sleep 1; echo later > /dev/termination-log'); // its ctime now after the data's
    const err = await measured();
    expect(err).toBeInstanceOf(LimitExceeded);
    expect((err as LimitExceeded).value).toBeGreaterThanOrEqual(5 * MiB);
    expect((err as LimitExceeded).value).toBeLessThan(7 * MiB); // not the image's blob
  });
});
