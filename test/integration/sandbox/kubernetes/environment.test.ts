import { SandboxError } from '../../../../src/errors.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import type { Cluster } from '../../../../src/sandbox/kubernetes/client.ts';
import { startEnvironment, stopEnvironment } from '../../../../src/sandbox/kubernetes/environments.ts';
import { TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';
import { pushImage, requireCluster } from '../../../support/kubernetes.ts';

const runId = testRunId('k8s-env');

/** The pods of this run left in the namespace (the sweep's label). */
async function runPods(cluster: Cluster): Promise<string[]> {
  const list = await cluster.core.listNamespacedPod({
    namespace: cluster.namespace,
    labelSelector: `benchrig.run=${runId}`,
  });
  return list.items.map((p) => p.metadata?.name ?? '?');
}

describe('a single-service environment on the local Kubernetes cluster', () => {
  let cluster: Cluster;
  let image: string;
  let env: Environment | undefined;

  beforeAll(async () => {
    cluster = await requireCluster();
    image = pushImage(TEST_IMAGE);
    env = await startEnvironment(
      cluster,
      testSpec({ image }),
      { runId, sessionId: `${runId}-1` },
      { image, deadlineSeconds: 600 },
    );
  }, 300_000);
  afterAll(async () => {
    if (env) await stopEnvironment(cluster, env);
  });

  it('runs commands in the pod over the websocket: output, exit status, cwd, env, stdin', async () => {
    const main = env?.main;
    expect(main).toBeDefined();
    if (!main) return;
    const echo = await main.exec(['echo', 'hello from the pod']);
    expect(echo).toMatchObject({ exitCode: 0, stdout: 'hello from the pod\n', timedOut: false, truncated: false });
    const failing = await main.exec('echo oops >&2; exit 3', { env: { X: 'y' } });
    expect(failing).toMatchObject({ exitCode: 3, stderr: 'oops\n' });
    expect((await main.exec('pwd; echo $X', { env: { X: 'from env' } })).stdout).toBe('/workspace\nfrom env\n');
    // v5 closes stdin, so cat ends.
    expect((await main.exec(['cat'], { stdin: 'piped in' })).stdout).toBe('piped in');
  });

  it('kills a command past its timeout inside the pod and caps its output', async () => {
    const main = env?.main;
    if (!main) throw new Error('no environment');
    const t0 = Date.now();
    const slow = await main.exec('sleep 30', { timeoutMs: 1_500 });
    expect(slow).toMatchObject({ exitCode: 124, timedOut: true });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect((await main.exec('ps -o args | grep -c "^sleep 30"')).stdout.trim()).toBe('0');
    const loud = await main.exec('yes x | head -c 100000');
    expect(loud.truncated).toBe(true);
    // the cap (64 KiB of head and tail) and a line that says what was cut, not the 100 kB printed
    expect(loud.stdout.length).toBeLessThan(testSpec().maxOutputBytes + 200);
  });

  it('writes and reads files, relative to the workdir', async () => {
    const main = env?.main;
    if (!main) throw new Error('no environment');
    await main.writeFile('sub/note.txt', 'line one\nline two\n');
    expect(await main.readFile('/workspace/sub/note.txt')).toBe('line one\nline two\n');
    await expect(main.readFile('missing.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('runs unprivileged and bounded as the pod spec says', async () => {
    const main = env?.main;
    if (!main) throw new Error('no environment');
    const caps = await main.exec("grep -E '^(CapEff|NoNewPrivs)' /proc/self/status");
    expect(caps.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(caps.stdout).toMatch(/NoNewPrivs:\s+1/);
  });

  it("runs under the runtime's default seccomp profile, as Docker does: no user namespace for the agent", async () => {
    const main = env?.main;
    if (!main) throw new Error('no environment');
    expect((await main.exec("grep '^Seccomp:' /proc/self/status")).stdout).toMatch(/Seccomp:\s+2/); // 2: a filter
    // unshare(CLONE_NEWUSER) needs no capability; RuntimeDefault refuses it (without CAP_SYS_ADMIN), as Docker's does.
    const userns = await main.exec('unshare -U true');
    expect(userns.exitCode).not.toBe(0);
    expect(userns.stderr).toContain('Operation not permitted');
  });

  it("runs a command asked as the pod's own user, and refuses one asked as another rather than run it as root", async () => {
    const main = env?.main;
    if (!main) throw new Error('no environment');
    expect((await main.exec('id -u', { user: '0:0' })).stdout.trim()).toBe('0');
    expect((await main.exec('id -u', { user: 'root' })).stdout.trim()).toBe('0');
    const refused = await main.exec('touch /workspace/ran-as-1000', { user: '1000' }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(SandboxError);
    expect((refused as SandboxError).message).toMatch(/cannot exec as user 1000: the pod runs as 0:0/);
    expect((refused as SandboxError).retryable).toBe(false);
    expect((await main.exec('test -e /workspace/ran-as-1000; echo $?')).stdout.trim()).toBe('1');
  });

  it('removes the pod, its Service and NetworkPolicy when stopped', async () => {
    expect((await runPods(cluster)).length).toBe(1);
    if (env) await stopEnvironment(cluster, env);
    expect(await runPods(cluster)).toEqual([]);
    const services = await cluster.core.listNamespacedService({
      namespace: cluster.namespace,
      labelSelector: `benchrig.run=${runId}`,
    });
    const policies = await cluster.net.listNamespacedNetworkPolicy({
      namespace: cluster.namespace,
      labelSelector: `benchrig.run=${runId}`,
    });
    expect([...services.items, ...policies.items]).toEqual([]);
    env = undefined;
  });
});
