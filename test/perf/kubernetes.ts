// The Kubernetes row (`k8s_overhead_ratio`, docs/performance.md; only with `npm run perf -- --k8s`):
// one-command trials of the sandbox benchmark through benchrig with `[run] provider = "kubernetes"`
// (the sandbox-echo agent, threads, `concurrency` at a time) against the same objects made by hand
// with client-node (k8s-raw.ts), alternating, medians over the rounds. Both sides must complete every
// trial and cycle. The cluster is the one KUBECONFIG names, else the local one of scripts/k8s-up.sh;
// when none answers the row is skipped with the reason, not measured.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiStatus, connect, type Cluster } from '../../src/sandbox/kubernetes/client.ts';
import { ensureToolboxImage } from '../../src/sandbox/kubernetes/toolbox.ts';
import { perfSpec, PERF_IMAGE } from './docker-raw.ts';
import { rawK8sLoop, removeRawK8s } from './k8s-raw.ts';
import type { ChildReport, RunSpec } from './child.ts';

export interface K8sSizes {
  trials: number;
  concurrency: number;
}

/** The suite's own namespace: other users of the cluster (test:k8s's sweeps) never touch its pods. */
export const PERF_NAMESPACE = process.env.BENCHRIG_PERF_NAMESPACE ?? 'benchrig-perf';
const LOCAL_STATE = process.env.BENCHRIG_K8S_STATE ?? '/var/lib/benchrig-k8s';
const REGISTRY = process.env.BENCHRIG_K8S_REGISTRY ?? '127.0.0.1:5100';

export interface K8sTarget {
  cluster: Cluster;
  kubeconfig: string;
  registry: string;
  /** The perf image as the cluster pulls it. */
  image: string;
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000}s`)), ms)),
  ]);

/** The kubeconfig the row uses: KUBECONFIG, else the local cluster's admin kubeconfig, else ~/.kube/config. */
function kubeconfigPath(): { path: string } | { missing: string } {
  const env = process.env.KUBECONFIG?.split(':')[0];
  if (env) return existsSync(env) ? { path: env } : { missing: `KUBECONFIG names ${env}, which does not exist` };
  const local = join(LOCAL_STATE, 'admin.kubeconfig');
  if (existsSync(local)) return { path: local };
  const home = join(process.env.HOME ?? '/root', '.kube/config');
  if (existsSync(home)) return { path: home };
  return { missing: `KUBECONFIG unset, no ${local} (start one with scripts/k8s-up.sh), no ${home}` };
}

/** The cluster to measure on, with its namespace made and the perf image pushed; or why there is none. */
export async function k8sTarget(): Promise<K8sTarget | { skipped: string }> {
  const found = kubeconfigPath();
  if ('missing' in found) return { skipped: `no cluster: no kubeconfig (${found.missing})` };
  const kubeconfig = found.path;
  let cluster: Cluster;
  try {
    cluster = connect({ kubeconfig, namespace: PERF_NAMESPACE });
    await withTimeout(ensureNamespace(cluster), 15_000, 'the API server');
  } catch (err) {
    const server = safeServer(kubeconfig);
    return { skipped: `no cluster reachable through ${kubeconfig} (${server}): ${message(err)}` };
  }
  const image = `${REGISTRY}/${PERF_IMAGE}`;
  try {
    execFileSync('docker', ['tag', PERF_IMAGE, image]);
    execFileSync('docker', ['push', '--quiet', image], { timeout: 120_000, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    return {
      skipped: `the cluster answers but its registry ${REGISTRY} took no push of ${PERF_IMAGE}: ${message(err)}`,
    };
  }
  return { cluster, kubeconfig, registry: REGISTRY, image };
}

async function ensureNamespace(cluster: Cluster): Promise<void> {
  try {
    await cluster.core.readNamespace({ name: cluster.namespace });
  } catch (err) {
    if (apiStatus(err) !== 404) throw err;
    await cluster.core.createNamespace({ body: { metadata: { name: cluster.namespace } } });
  }
}

function safeServer(kubeconfig: string): string {
  try {
    return connect({ kubeconfig, namespace: PERF_NAMESPACE }).config.getCurrentCluster()?.server ?? 'no server';
  } catch {
    return 'unreadable kubeconfig';
  }
}

/** The error's first lines, with its cause's (fetch's "fetch failed" says why only there: ECONNREFUSED …). */
function message(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return (text + cause).split('\n').slice(0, 3).join(' ').slice(0, 400);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export interface K8sRowInput {
  target: K8sTarget;
  sizes: K8sSizes;
  reps: number;
  /** The generated sandbox benchmark of `sizes.trials` samples and the sandbox-echo agent (fixtures.ts). */
  benchmark: string;
  agent: string;
  /** One `benchrig run` in the perf child (suite.ts's `run`). */
  runBenchrig: (spec: Omit<RunSpec, 'cwd' | 'output' | 'modelUrl'>) => Promise<ChildReport>;
  say: (line: string) => void;
}

/** The measurement: the ratio of the medians and every figure it came from. */
export async function measureK8sOverhead(x: K8sRowInput): Promise<{ value: number; raw: Record<string, unknown> }> {
  const { trials, concurrency } = x.sizes;
  const runId = `perf-k8s-${process.pid}-${Date.now().toString(36)}`;
  // The toolbox image benchrig's pods start with, built and pushed as benchrig's prepare does (not timed).
  const toolbox = await ensureToolboxImage(x.target.registry);
  const rawSide = { cluster: x.target.cluster, spec: perfSpec(), image: x.target.image, toolbox, runId };
  const spec = {
    benchmark: x.benchmark,
    agent: x.agent,
    mode: 'threads' as const,
    workers: concurrency,
    perWorker: 1,
    maxSandboxes: concurrency,
    provider: {
      provider: 'kubernetes' as const,
      namespace: PERF_NAMESPACE,
      registry: x.target.registry,
      kubeconfig: x.target.kubeconfig,
    },
  };
  const harness: number[] = [];
  const raw: number[] = [];
  const runs: Record<string, unknown>[] = [];
  try {
    await rawK8sLoop(rawSide, Math.min(concurrency, trials), concurrency); // warm-up: the image on the node
    for (let i = 0; i < x.reps; i++) {
      // Alternate which side goes first, so that neither always meets the cluster right after the other.
      const benchrigFirst = i % 2 === 0;
      const sides = [() => benchrigSide(x, spec, trials), () => rawK8sLoop(rawSide, trials, concurrency)] as const;
      let r: ChildReport | undefined;
      let rawRound: { ms: number; cycles: number } | undefined;
      if (benchrigFirst) {
        r = await sides[0]();
        rawRound = await sides[1]();
      } else {
        rawRound = await sides[1]();
        r = await sides[0]();
      }
      if (rawRound.cycles !== trials) throw new Error(`raw k8s: ${rawRound.cycles} of ${trials} cycles completed`);
      harness.push(r.schedule_ms);
      raw.push(rawRound.ms);
      runs.push({ first: benchrigFirst ? 'benchrig' : 'raw', ...summary(r), raw_cycles: rawRound.cycles });
      x.say(
        `  k8s rep ${i + 1}: benchrig ${Math.round(r.schedule_ms)} ms, raw client-node ${Math.round(rawRound.ms)} ms`,
      );
    }
  } finally {
    await removeRawK8s(x.target.cluster, runId).catch(() => 0);
  }
  return {
    value: median(harness) / median(raw),
    raw: {
      trials,
      concurrency,
      namespace: PERF_NAMESPACE,
      server: x.target.cluster.config.getCurrentCluster()?.server ?? null,
      image: x.target.image,
      compared:
        'scheduling phase of `benchrig run` ([run] provider = "kubernetes", threads, workers = concurrency) vs raw client-node NetworkPolicy+Service+pod (with the toolbox init container) create → Running (polled every 100 ms) → exec echo → delete all three → pod gone (polled every 100 ms)',
      benchrig_schedule_ms: harness.map(Math.round),
      raw_client_node_ms: raw.map(Math.round),
      benchrig_median_ms: Math.round(median(harness)),
      raw_median_ms: Math.round(median(raw)),
      runs,
    },
  };
}

async function benchrigSide(
  x: K8sRowInput,
  spec: Omit<RunSpec, 'cwd' | 'output' | 'modelUrl'>,
  trials: number,
): Promise<ChildReport> {
  const r = await x.runBenchrig(spec);
  if (r.n_trials !== trials || r.n_passed !== trials)
    throw new Error(
      `k8s run: ${r.n_passed}/${r.n_trials} of ${trials} trials passed: ${JSON.stringify(r.status_counts)}`,
    );
  const pods = podsOfRun(r.run_dir);
  if (pods !== trials) throw new Error(`k8s run: ${pods} of ${trials} trials ran in a pod (${r.run_dir})`);
  return r;
}

/** Trials of the run whose sandbox was a pod (`br-<10 hex>-main`, sandbox/kubernetes/pods.ts), not a container. */
function podsOfRun(runDir: string): number {
  const dir = join(runDir, 'results');
  return readdirSync(dir).filter((f) => {
    const result = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
      metadata?: { sandbox?: { container?: string } };
    };
    return /^br-[0-9a-f]{10}-main$/.test(result.metadata?.sandbox?.container ?? '');
  }).length;
}

const summary = (r: ChildReport) => ({
  wall_ms: Math.round(r.wall_ms),
  schedule_ms: Math.round(r.schedule_ms),
  cpu_ms: Math.round(r.cpu_ms),
  n_trials: r.n_trials,
  n_passed: r.n_passed,
});
