// Environments on a Kubernetes cluster (docs/kubernetes.md): the provider behind provider.ts's seam
// that `[run] provider = "kubernetes"` picks (sandbox/index.ts). `prepare` builds with this machine's
// Docker as the Docker provider does and pushes to the run's registry; each trial is a pod per
// service, a headless Service and a NetworkPolicy in the run's namespace (environments.ts).
import type { EnvironmentSpec } from '../../environment/spec.ts';
import { BenchrigError } from '../../errors.ts';
import { checkDocker, docker } from '../docker/client.ts';
import { sweepLeftBuilds } from '../docker/environments.ts';
import { hasServices } from '../docker/environment-start.ts';
import { buildNetworkOf, ensureImage } from '../docker/images.ts';
import type {
  DiskWatch,
  Environment,
  EnvironmentProvider,
  PreparedEnvironments,
  RunSpec,
  StartOptions,
} from '../provider.ts';
import { sampleImages } from '../docker/sample-images.ts';
import type { ClusterSpec, Sandbox, SandboxLabels, SandboxSpec } from '../types.ts';
import { apiStatus, connect, type Cluster } from './client.ts';
import { watchPodDisk } from './disk.ts';
import { startEnvironment, stopEnvironment } from './environments.ts';
import { podKeptLines } from './kept.ts';
import { clusterImage, clusterImages, pushImage } from './images.ts';
import { removeTrialOfPod } from './pods.ts';
import { restartPods } from './restart.ts';
import { PodSandbox } from './sandbox.ts';
import { startServices } from './services.ts';
import { sweepNamespace } from './sweep.ts';
import { ensureToolboxImage, toolboxImage } from './toolbox.ts';

export class KubernetesEnvironments implements EnvironmentProvider {
  #cluster: Cluster | undefined;
  readonly settings: ClusterSpec;

  constructor(settings: ClusterSpec | null | undefined) {
    if (!settings)
      throw new BenchrigError('config', '[run] provider = "kubernetes" needs [run] namespace and registry');
    this.settings = settings;
  }

  /** The cluster of the kubeconfig (KUBECONFIG, else ~/.kube/config) and `[run] kube_context`. */
  get cluster(): Cluster {
    this.#cluster ??= connectOrRefuse(this.settings);
    return this.#cluster;
  }

  /** The API server answers and the namespace is there; else exit 3 naming the cluster. */
  async check(): Promise<void> {
    const { namespace } = this.settings;
    try {
      await this.cluster.core.readNamespace({ name: namespace });
    } catch (err) {
      if (apiStatus(err) === 404)
        throw new BenchrigError(
          'config',
          `[run] namespace: the cluster has no namespace "${namespace}"; create it or name another`,
        );
      if (apiStatus(err) === 403) return; // RBAC for one namespace (docs/kubernetes.md#what-it-needs): reading it is not needed
      const server = this.cluster.config.getCurrentCluster()?.server ?? '?';
      throw new BenchrigError(
        'docker_unavailable',
        `the Kubernetes API server at ${server} did not answer: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  async prepare(run: RunSpec): Promise<PreparedEnvironments> {
    await this.check();
    await checkDocker(); // images are built (and pushed) by this machine's Docker
    await sweepLeftBuilds(run);
    if (run.buildImage) {
      await ensureImage(
        { image: run.spec.image, build: run.spec.build, trusted: true },
        {
          client: docker(),
          onProgress: (line: string) => run.info(line),
          signal: run.signal,
          network: buildNetworkOf(run.spec),
          ...(run.pull ? { pull: run.pull } : {}),
        },
      );
      if (this.settings.push) run.info(`pushed ${await pushImage(run.spec.image, this.settings.registry)}`);
    }
    run.info(`toolbox ${await ensureToolboxImage(this.settings.registry)}`); // pushed whatever --push says: it is benchrig's
    const removed = await sweepNamespace(this.cluster);
    if (removed > 0) run.info(`removed ${removed} pod(s) left by runs that are gone`);
    return {
      images: clusterImages(sampleImages([docker()]), this.settings),
      createSharedVolume: () =>
        Promise.reject(
          new BenchrigError('config', '[sandbox.shared] is not supported with provider = "kubernetes" yet'),
        ),
      cleanup: async (runId) => {
        await sweepNamespace(this.cluster, { runId });
      },
    };
  }

  async start(spec: SandboxSpec, labels: SandboxLabels, opts: StartOptions = {}): Promise<Environment> {
    const signal = opts.signal ?? new AbortController().signal;
    const slot = opts.beside ? undefined : await opts.acquire?.(signal);
    const s = this.settings;
    const base = {
      deadlineSeconds: s.deadlineSeconds,
      ...(s.runtimeClass ? { runtimeClass: s.runtimeClass } : {}),
      toolbox: toolboxImage(s.registry),
      signal,
    };
    try {
      const env = hasServices(opts.environment)
        ? await startServices(this.cluster, spec, opts.environment, labels, {
            ...base,
            image: (i) => clusterImage(s.registry, i),
          })
        : await startEnvironment(this.cluster, spec, labels, { ...base, image: clusterImage(s.registry, spec.image) });
      // The disk watch's start mark, read before the agent has the pod (kubernetes/disk.ts).
      if (spec.disk && !opts.beside && env.main instanceof PodSandbox)
        await env.main.markStart().catch(async (err: unknown) => {
          await stopEnvironment(this.cluster, env).catch(() => undefined);
          throw err;
        });
      return { ...env, ...(slot ? { slot } : {}) };
    } catch (err) {
      slot?.release();
      throw err;
    }
  }

  /** Every process but each pod's PID 1 killed, the services waited for again (restart.ts); untested on a cluster yet. */
  restart(env: Environment, opts: { environment?: EnvironmentSpec; signal?: AbortSignal }): Promise<string[]> {
    return restartPods(this.cluster, env, opts.environment, opts.signal);
  }

  stop(env: Environment): Promise<void> {
    return stopEnvironment(this.cluster, env);
  }

  sweep(opts?: { all?: boolean; kept?: boolean; runId?: string }): Promise<number> {
    return sweepNamespace(this.cluster, opts);
  }

  /** A dead worker's environment, from its main pod's name: everything of its trial. */
  remove(id: string): Promise<void> {
    return removeTrialOfPod(this.cluster, id);
  }

  keptLines(env: Environment, runDir: string): string[] {
    // The main pod is `<trial>-main` (objects.ts podName).
    return podKeptLines(env, env.main.id.replace(/-main$/, ''), this.settings, runDir);
  }

  /** Measured in the pod with the toolbox (kubernetes/disk.ts); the kubelet's eviction is the backstop. */
  watchDisk(sandbox: Sandbox, setting: string): DiskWatch | null {
    return sandbox instanceof PodSandbox ? watchPodDisk(sandbox, setting) : null;
  }
}

function connectOrRefuse(s: ClusterSpec): Cluster {
  try {
    return connect({ namespace: s.namespace, ...(s.context ? { context: s.context } : {}) });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new BenchrigError(
      'config',
      `${s.context ? '[run] kube_context: ' : ''}cannot use the kubeconfig (KUBECONFIG, else ~/.kube/config): ${why}`,
    );
  }
}
