// A service beside main as a pod (docs/kubernetes.md#services): the image's own process (compose's
// `entrypoint` as the container's command, `command` as its args), its environment, bounds (its
// own, else the benchmark's) and the same hardening as main; and what depends_on waits for, read
// from the pod's status or, for `service_healthy`, the healthcheck run by exec as Docker runs it.
import type { V1Pod } from '@kubernetes/client-node';
import { SandboxError } from '../../errors.ts';
import {
  HEALTHCHECK_DEFAULTS,
  healthBudgetMs,
  type DependencyCondition,
  type ServiceSpec,
} from '../../environment/spec.ts';
import type { SandboxSpec } from '../types.ts';
import type { Cluster } from './client.ts';
import { execInPod } from './exec.ts';
import { CONTAINER, podFor, type PodInput } from './objects.ts';

/** A service's pod: main's pod with the service's process, environment and bounds. */
export function servicePod(input: PodInput, svc: ServiceSpec): V1Pod {
  const spec: SandboxSpec = {
    ...input.spec,
    env: svc.env,
    capAdd: svc.capAdd,
    ...(svc.memoryBytes ? { memory: String(svc.memoryBytes) } : {}),
    ...(svc.cpus ? { cpus: svc.cpus } : {}),
  };
  const pod = podFor({ ...input, spec });
  const c = pod.spec?.containers[0];
  if (c) {
    delete c.command;
    if (svc.stdinOpen)
      c.stdin = true; // compose's stdin_open; main's keep-alive has its own
    else delete c.stdin;
    delete c.workingDir;
    if (svc.entrypoint) c.command = svc.entrypoint;
    if (svc.command) c.args = svc.command;
    if (svc.workingDir) c.workingDir = svc.workingDir;
    const uid = /^(\d+)(?::(\d+))?$/.exec(svc.user ?? '');
    if (uid && c.securityContext) {
      c.securityContext.runAsUser = Number(uid[1]);
      if (uid[2]) c.securityContext.runAsGroup = Number(uid[2]);
    }
  }
  return pod;
}

interface PodState {
  running: boolean;
  exitCode?: number;
  reason?: string;
  problem?: string;
}

async function stateOf(cluster: Cluster, name: string): Promise<PodState> {
  let pod: V1Pod;
  try {
    pod = await cluster.core.readNamespacedPod({ namespace: cluster.namespace, name });
  } catch (err) {
    throw new SandboxError(`service pod ${name}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  const c = pod.status?.containerStatuses?.find((s) => s.name === CONTAINER);
  const ended = c?.state?.terminated;
  if (ended) return { running: false, exitCode: ended.exitCode, reason: ended.reason };
  const waiting = c?.state?.waiting;
  if (waiting?.reason && /ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainer/.test(waiting.reason))
    return { running: false, problem: `${waiting.reason}: ${waiting.message ?? ''}`.trim() };
  return { running: !!c?.state?.running };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason as Error)), { once: true });
  });

/** Resolves once `condition` holds for the service's pod; a SandboxError (not retried) says why it never will. */
export async function waitForPod(
  cluster: Cluster,
  pod: string,
  svc: { name: string; spec: ServiceSpec },
  condition: DependencyCondition,
  signal?: AbortSignal,
): Promise<void> {
  const h = svc.spec.healthcheck ?? { test: [], ...HEALTHCHECK_DEFAULTS };
  const until = Date.now() + healthBudgetMs(h) + 120_000; // and the image's pull
  const fail = (why: string) => new SandboxError(`service ${svc.name} ${why}`, undefined, false);
  let probes = 0;
  for (;;) {
    signal?.throwIfAborted();
    const s = await stateOf(cluster, pod);
    if (s.problem) throw fail(`did not start: ${s.problem}`);
    if (condition === 'service_completed_successfully') {
      if (s.exitCode === 0) return;
    } else if (s.exitCode !== undefined)
      throw fail(`exited ${s.exitCode}${s.reason === 'OOMKilled' ? ' (killed: out of memory)' : ''}`);
    else if (s.running && condition === 'service_started') return;
    else if (s.running && condition === 'service_healthy') {
      if (!svc.spec.healthcheck) throw fail('has no healthcheck, so it cannot turn healthy');
      if (await probe(cluster, pod, h.test, h.timeoutMs)) return;
      if (++probes >= h.retries + Math.ceil(h.startPeriodMs / Math.max(1, h.intervalMs)))
        throw fail('turned unhealthy');
      await sleep(h.intervalMs, signal);
      continue;
    }
    if (s.exitCode !== undefined) throw fail(`exited ${s.exitCode}`);
    if (Date.now() > until) throw fail(`was not ready within ${Math.round((healthBudgetMs(h) + 120_000) / 1000)} s`);
    await sleep(250, signal);
  }
}

/** One run of Docker's healthcheck test in the pod: CMD argv, or CMD-SHELL through sh. */
async function probe(cluster: Cluster, pod: string, test: string[], timeoutMs: number): Promise<boolean> {
  const [kind, ...rest] = test;
  const argv = kind === 'CMD-SHELL' ? ['sh', '-c', rest.join(' ')] : kind === 'CMD' ? rest : test;
  if (argv.length === 0) return false;
  const res = await execInPod(
    { cluster, pod, workdir: '/', execTimeoutMs: timeoutMs, maxOutputBytes: 4096 },
    argv,
  ).catch(() => null);
  return res?.exitCode === 0;
}
