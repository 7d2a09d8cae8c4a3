// The floor the Kubernetes row is measured against (`k8s_overhead_ratio`, docs/performance.md): the
// same trial's objects through @kubernetes/client-node's own calls, no harness code — the
// NetworkPolicy (DNS egress to the kube-dns endpoints, read once), the headless Service and the pod
// benchrig's builders make (src/sandbox/kubernetes/objects.ts), created; the pod polled every 100 ms until its container is ready; one `echo` exec'd
// over the websocket (output read, exit status checked); the three deleted and the pod waited for until
// it is gone (benchrig's stop waits too), `concurrency` at a time.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Exec, type V1Status } from '@kubernetes/client-node';
import { apiStatus, type Cluster } from '../../src/sandbox/kubernetes/client.ts';
import { clusterDns } from '../../src/sandbox/kubernetes/dns.ts';
import {
  CONTAINER,
  headlessService,
  networkPolicy,
  podFor,
  podName,
  type ClusterDns,
} from '../../src/sandbox/kubernetes/objects.ts';
import type { SandboxSpec } from '../../src/sandbox/types.ts';

const POLL_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RawK8s {
  cluster: Cluster;
  spec: SandboxSpec;
  /** The image as the cluster pulls it (the registry's reference). */
  image: string;
  /** The harness's toolbox image, which benchrig's pods copy in with an init container (sandbox/kubernetes/toolbox.ts). */
  toolbox: string;
  runId: string;
}

/** A delete whose object may not have been created (a create that failed): 404 is fine. */
const gone = (p: Promise<unknown>) =>
  p.catch((err: unknown) => {
    if (apiStatus(err) !== 404) throw err;
  });

async function untilRunning(x: RawK8s, name: string): Promise<void> {
  const namespace = x.cluster.namespace;
  for (let i = 0; i < 1200; i++) {
    const pod = await x.cluster.core.readNamespacedPod({ namespace, name });
    if (pod.status?.phase === 'Running' && pod.status.containerStatuses?.every((c) => c.ready)) return;
    if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded')
      throw new Error(`raw pod ${name} ended (${pod.status.phase})`);
    await sleep(POLL_MS);
  }
  throw new Error(`raw pod ${name}: not running within two minutes`);
}

async function untilGone(x: RawK8s, name: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      await x.cluster.core.readNamespacedPod({ namespace: x.cluster.namespace, name });
    } catch (err) {
      if (apiStatus(err) === 404) return;
      throw err;
    }
    await sleep(POLL_MS);
  }
  throw new Error(`raw pod ${name}: still there a minute after its deletion`);
}

/** `echo` in the pod over the websocket; resolves when the socket closes, with the output and status. */
async function execEcho(x: RawK8s, pod: string, i: number): Promise<void> {
  let out = '';
  let status: V1Status | null = null;
  const stdout = new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) });
  const stderr = new Writable({ write: (_c, _e, done) => done() });
  const ws = await new Exec(x.cluster.config).exec(
    x.cluster.namespace,
    pod,
    CONTAINER,
    ['echo', `ping ${i}`],
    stdout,
    stderr,
    null,
    false,
    (s) => void (status = s),
  );
  const socket = ws as unknown as { readyState: number; once(event: 'close', listener: () => void): unknown };
  await new Promise<void>((resolve) => (socket.readyState === 3 ? resolve() : socket.once('close', () => resolve())));
  const done = status as V1Status | null;
  if (done?.status !== 'Success') throw new Error(`raw echo in ${pod}: ${JSON.stringify(done)}`);
  if (out !== `ping ${i}\n`) throw new Error(`raw echo in ${pod} printed ${JSON.stringify(out)}`);
}

async function oneCycle(x: RawK8s, dns: ClusterDns, i: number): Promise<void> {
  const namespace = x.cluster.namespace;
  const trial = `brraw-${randomBytes(4).toString('hex')}`;
  const labels = { runId: x.runId, sessionId: `${x.runId}.k8s${i}` };
  const name = podName(trial, 'main');
  const pod = podFor({
    trial,
    service: 'main',
    spec: x.spec,
    labels,
    image: x.image,
    toolbox: x.toolbox,
    deadlineSeconds: 600,
    namespace,
  });
  try {
    await x.cluster.net.createNamespacedNetworkPolicy({
      namespace,
      body: networkPolicy(trial, labels, x.spec.network, { dns }),
    });
    await x.cluster.core.createNamespacedService({ namespace, body: headlessService(trial, labels) });
    await x.cluster.core.createNamespacedPod({ namespace, body: pod });
    await untilRunning(x, name);
    await execEcho(x, name, i);
  } finally {
    await Promise.all([
      gone(x.cluster.core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 0 })),
      gone(x.cluster.core.deleteNamespacedService({ namespace, name: trial })),
      gone(x.cluster.net.deleteNamespacedNetworkPolicy({ namespace, name: trial })),
    ]);
    await untilGone(x, name);
  }
}

/** Wall time of `n` cycles, `concurrency` at a time; every cycle must complete (it throws otherwise). */
export async function rawK8sLoop(x: RawK8s, n: number, concurrency: number): Promise<{ ms: number; cycles: number }> {
  // Read once before timing, as benchrig reads it once per process (sandbox/kubernetes/dns.ts).
  const dns = await clusterDns(x.cluster);
  let next = 0;
  let cycles = 0;
  const t0 = performance.now();
  const lane = async () => {
    for (let i = next++; i < n; i = next++) {
      await oneCycle(x, dns, i);
      cycles++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { ms: performance.now() - t0, cycles };
}

/** Removes every pod, Service and NetworkPolicy labelled with `runId` (a failed measurement leaves nothing). */
export async function removeRawK8s(cluster: Cluster, runId: string): Promise<number> {
  const namespace = cluster.namespace;
  const labelSelector = `benchrig.run=${runId}`;
  const [pods, svcs, pols] = await Promise.all([
    cluster.core.listNamespacedPod({ namespace, labelSelector }),
    cluster.core.listNamespacedService({ namespace, labelSelector }),
    cluster.net.listNamespacedNetworkPolicy({ namespace, labelSelector }),
  ]);
  const names = (l: { items: Array<{ metadata?: { name?: string } }> }) =>
    l.items.flatMap((o) => o.metadata?.name ?? []);
  const quiet = (p: Promise<unknown>) => p.catch(() => undefined);
  await Promise.all([
    ...names(pods).map((name) => quiet(cluster.core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 0 }))),
    ...names(svcs).map((name) => quiet(cluster.core.deleteNamespacedService({ namespace, name }))),
    ...names(pols).map((name) => quiet(cluster.net.deleteNamespacedNetworkPolicy({ namespace, name }))),
  ]);
  return pods.items.length + svcs.items.length + pols.items.length;
}
