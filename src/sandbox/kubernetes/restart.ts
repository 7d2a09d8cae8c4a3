// Before grading on Kubernetes (docs/kubernetes.md#grading; provider.ts `restart`): a container
// cannot start again in its pod (restartPolicy Never: the pod would end with it), so every process
// of every running pod but its PID 1 is killed (kill.ts) — main's PID 1 is the toolbox's untraceable
// keep-alive, a service's its own process as the image started it — and each service is waited for per
// `depends_on` as at start (what PID 1 started again may take its time). Untested on a cluster yet.
import type { EnvironmentSpec } from '../../environment/spec.ts';
import { SandboxError } from '../../errors.ts';
import type { Environment } from '../provider.ts';
import type { Cluster } from './client.ts';
import { PodSandbox } from './sandbox.ts';
import { waitForPod } from './service-pods.ts';

/** Resolves with a line per service that did not come back (graded as it is). */
export async function restartPods(
  cluster: Cluster,
  env: Environment,
  spec: EnvironmentSpec | undefined,
  signal?: AbortSignal,
): Promise<string[]> {
  const main = pod(env.main);
  const services = Object.entries(env.services).map(([name, box]) => [name, pod(box)] as const);
  const up = await Promise.all(services.map(async ([, box]) => (await box.health()).state === 'running'));
  const again = new Map(services.filter((_, i) => up[i]));
  await Promise.all([main.restart(), ...[...again.values()].map((box) => box.endBesideInit())]);
  const notes = new Map<string, string>();
  if (!spec) return [];
  for (const name of spec.order) {
    if (name !== spec.main && !again.has(name)) continue;
    for (const [dep, { condition }] of Object.entries(spec.services[name]?.dependsOn ?? {})) {
      const box = again.get(dep);
      if (!box || notes.has(dep)) continue;
      await waitForPod(cluster, box.id, { name: dep, spec: spec.services[dep] }, condition, signal).catch(
        (err: unknown) => {
          if (!(err instanceof SandboxError) || err.retryable || signal?.aborted) throw err;
          notes.set(
            dep,
            `service ${dep} did not come back after its processes were ended for grading (${err.message}); graded as it is`,
          );
        },
      );
    }
  }
  return [...notes.values()];
}

function pod(box: Environment['main']): PodSandbox {
  if (!(box instanceof PodSandbox))
    throw new Error('internal: a Kubernetes environment with a sandbox of another provider');
  return box;
}
