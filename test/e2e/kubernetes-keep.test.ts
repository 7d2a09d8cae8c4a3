// `--keep-sandbox` on Kubernetes through the real CLI (docs/kubernetes.md#kept-pods): kubectl lines
// that reach each service's pod as the trial left it, pods that later runs and the plain cleanup
// leave alone, and the printed cleanup that removes them.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/sandbox/kubernetes/client.ts';
import { FIXTURES, runCli } from '../support/cli.ts';
import { defined } from '../support/defined.ts';
import { K8S_NAMESPACE, KUBECONFIG, KUBECTL, requireCluster } from '../support/kubernetes.ts';
import { clusterEnv, runOn, runPods } from '../support/kubernetes-cli.ts';

const compose = join(FIXTURES, 'harbor-compose-k8s/sidecar');

/** Runs a printed `kubectl … exec -it POD -- sh` with `cmd` (no terminal here: -i). */
function viaPrinted(line: string, cmd: string): string {
  const printed = defined(/sandbox kept: (kubectl .* -- sh)/.exec(line)?.[1], line).split(' ');
  const argv = printed.slice(1).map((a) => (a === '-it' ? '-i' : a));
  return execFileSync(KUBECTL, [...argv, '-c', cmd], { env: { ...process.env, KUBECONFIG }, stdio: 'pipe' })
    .toString()
    .trim();
}

/** Runs the printed `benchrig sandbox cleanup …` as typed. */
const printedCleanup = (line: string) =>
  defined(/this run's: benchrig (sandbox cleanup [^)]*)\)/.exec(line)?.[1], line).split(' ');

describe('kept pods', () => {
  let cluster: Cluster;
  let runId = '';
  beforeAll(async () => {
    cluster = await requireCluster();
  }, 900_000);
  afterAll(async () => {
    if (runId)
      await runCli(['sandbox', 'cleanup', '--provider', 'kubernetes', '--namespace', K8S_NAMESPACE, '--all'], {
        env: clusterEnv,
      });
  });

  it('print kubectl lines that reach each service, survive later runs, and go with the printed cleanup', async () => {
    const kept = await runOn('kubernetes', compose, 'oracle', 'single', ['--keep-sandbox']);
    runId = kept.runId;
    expect(kept.code, kept.stderr).toBe(0);
    const lines = kept.stderr.split('\n').filter((l) => /kept/.test(l));
    expect(lines.join('\n')).not.toMatch(/docker/);
    const main = defined(
      lines.find((l) => / sandbox kept: kubectl -n \S+ exec -it \S+-main -- sh {3}\(remove the trial: /.test(l)),
      kept.stderr,
    );
    const db = defined(
      lines.find((l) => / service db: sandbox kept: kubectl /.test(l)),
      kept.stderr,
    );
    expect(lines.some((l) => / service web: sandbox kept: kubectl /.test(l))).toBe(true);
    expect(lines.some((l) => /also kept: service \S+ \(headless\), networkpolicy \S+/.test(l))).toBe(true);
    // The result records what was printed.
    const result = Object.values(kept.results)[0];
    expect(result.metadata.sandbox?.kept_lines?.[0]).toBe(main.replace(/^ {2}\S+: /, ''));
    // Each printed command reaches its own service's pod.
    expect(viaPrinted(main, 'hostname')).toBe('main');
    expect(viaPrinted(db, 'cat /www/answer')).toBe('42');

    const pods = await runPods(cluster, runId);
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.metadata?.labels?.['benchrig.keep']).toBe('1');
      expect(pod.spec?.activeDeadlineSeconds).toBeUndefined(); // kept until removed, as on Docker
    }
    // Another run's sweeps and the plain cleanup leave them.
    const other = await runOn('kubernetes', join(FIXTURES, 'harbor'), 'oracle', 'single');
    expect(other.code, other.stderr).toBe(0);
    const plain = await runCli(['sandbox', 'cleanup', '--provider', 'kubernetes', '--namespace', K8S_NAMESPACE], {
      env: clusterEnv,
    });
    expect(plain.code, plain.stderr).toBe(0);
    expect(await runPods(cluster, runId)).toHaveLength(3);

    const cleanup = await runCli(printedCleanup(main), { env: clusterEnv });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    expect(await runPods(cluster, runId)).toEqual([]);
    const selector = `benchrig.run=${runId}`;
    const ns = cluster.namespace;
    expect((await cluster.core.listNamespacedService({ namespace: ns, labelSelector: selector })).items).toEqual([]);
    expect((await cluster.net.listNamespacedNetworkPolicy({ namespace: ns, labelSelector: selector })).items).toEqual(
      [],
    );
  }, 900_000);
});
