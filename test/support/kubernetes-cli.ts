// The real CLI on the local cluster (test/e2e/kubernetes-*.test.ts): a config layer that puts a run
// on it, the run's pods, and a run on either provider with its verdicts.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster } from '../../src/sandbox/kubernetes/client.ts';
import type { TrialResult } from '../../src/types.ts';
import { readJson, results, runCli, tempDir } from './cli.ts';
import { K8S_NAMESPACE, K8S_REGISTRY, KUBECONFIG } from './kubernetes.ts';

export const clusterEnv = { KUBECONFIG };

/** A config layer that puts the run on the cluster (its [run] keys as given). */
export function clusterConfig(
  keys: Record<string, string> = { namespace: K8S_NAMESPACE, registry: K8S_REGISTRY },
): string {
  const file = join(tempDir('k8s-config-'), 'k8s.toml');
  const lines = Object.entries(keys).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
  writeFileSync(file, ['[run]', 'provider = "kubernetes"', ...lines, ''].join('\n'));
  return file;
}

/** The pods of a run still in the namespace. */
export const runPods = async (cluster: Cluster, runId: string) =>
  (await cluster.core.listNamespacedPod({ namespace: cluster.namespace, labelSelector: `benchrig.run=${runId}` }))
    .items;

/** The one run folder under `out`, whatever its agent and benchmark. */
export function runDirIn(out: string): string {
  const [agentDir] = readdirSync(out);
  const [bench] = readdirSync(join(out, agentDir));
  const [stamp] = readdirSync(join(out, agentDir, bench));
  return join(out, agentDir, bench, stamp);
}

/** A run through the CLI on `provider`: its exit code, results and statuses by task, and run id. */
export async function runOn(
  provider: 'docker' | 'kubernetes',
  benchmark: string,
  agent: string,
  mode: string,
  extra: string[] = [],
) {
  const out = tempDir();
  // 4 at a time: a trial mostly waits on the kubelet (its pod's start is most of it), not on the 2 cores.
  const args = ['run', benchmark, '--agent', agent, '--mode', mode, '--workers', '4', '--output', out, ...extra];
  const r = await runCli(
    provider === 'kubernetes' ? [...args, '--config', clusterConfig(), '--provider', 'kubernetes', '--push'] : args,
    { env: clusterEnv, timeoutMs: 600_000 },
  );
  const dir = runDirIn(out);
  const all: TrialResult[] = results(dir);
  return {
    code: r.code,
    stdout: r.stdout,
    stderr: r.stderr,
    results: Object.fromEntries(all.map((x) => [x.task_id, x])),
    statuses: Object.fromEntries(all.map((x) => [x.task_id, x.status])),
    runId: readJson<{ run_id: string }>(join(dir, 'run.json')).run_id,
  };
}
