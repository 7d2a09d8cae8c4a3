// Environments on one Docker engine (docs/sandboxes.md): the local daemon, or one fleet host when the
// fleet provider (fleet/environments.ts) wraps one per host. An environment is its main container,
// and, with services beside it, their own network and shared volumes (trial-scope.ts).
import type Docker from 'dockerode';
import type { EnvironmentSpec } from '../../environment/spec.ts';
import { DEFAULT_DEADLINE_MS, withDeadline } from './client.ts';
import { DOCKER_API, localDocker, type DockerEngine } from './engine.ts';
import { restartEnvironment } from './environment-restart.ts';
import { hasServices, startServices } from './environment-start.ts';
import { sweepBuildDirs } from '../build-dirs.ts';
import { dockerKeptLines } from './kept.ts';
import { startDiskWatch } from './disk.ts';
import { DockerProvider } from './sandbox.ts';
import { checkHost } from './host-check.ts';
import { clientFor, type DockerHostSpec } from './hosts.ts';
import { buildNetworkOf, ensureImage } from './images.ts';
import type { DiskWatch, Environment, EnvironmentProvider, ProviderRun, RunSpec, StartOptions } from '../provider.ts';
import { sampleImages } from './sample-images.ts';
import { createSharedVolume, removeVolume } from './shared.ts';
import { subnetPool } from './subnet-pool.ts';
import { LABEL } from './labels.ts';
import { removeContainer } from './remove-container.ts';
import { sweep } from './sweep.ts';
import {
  attachment,
  closeTrialScope,
  openTrialScope,
  type DockerTrialScope,
  type ScopeRequest,
} from './trial-scope.ts';
import type { Sandbox, SandboxLabels, SandboxSpec } from '../types.ts';

/** How long removing a dead worker's environment may take; the run's end-of-run sweep is the backstop. */
const REMOVE_BUDGET_MS = 30_000;

export class DockerEnvironments implements EnvironmentProvider {
  readonly #engine: DockerProvider;
  /** The engine without a fleet: the local Docker daemon, or another that speaks its API (engine.ts). */
  readonly #local: DockerEngine;

  /**
   * `host`: a fleet host (its client, its URL on the sandboxes); absent: `engine`, by default the
   * local Docker daemon (DOCKER_HOST).
   */
  constructor(
    readonly host?: DockerHostSpec,
    engine: DockerEngine = localDocker(),
  ) {
    this.#local = engine;
    this.#engine = new DockerProvider(engine);
  }

  get client(): Docker {
    return this.host ? clientFor(this.host) : this.#local.client();
  }

  /** The engine answers, build folders of dead builds are gone, the run's image is here, dead runs are swept. */
  async prepare(run: RunSpec): Promise<ProviderRun> {
    subnetPool(process.env, run.spec.subnetPool); // a bad $BENCHRIG_SUBNET_POOL is refused (exit 2) before anything starts
    await this.check();
    await sweepLeftBuilds(run);
    if (run.buildImage)
      await ensureImage(
        { image: run.spec.image, build: run.spec.build, trusted: true }, // the run's own spec: its prepare.sh may run
        {
          client: this.client,
          onProgress: (line: string) => run.info(line),
          signal: run.signal,
          network: buildNetworkOf(run.spec),
          ...(run.pull ? { pull: run.pull } : {}),
        },
      );
    const removed = await this.sweepDead((line) => run.warn(line));
    if (removed > 0) run.info(`removed ${removed} sandbox(es) left by runs that are gone`);
    return {
      images: sampleImages([this.client]),
      createSharedVolume: (runId, sourceDir) => createSharedVolume(runId, sourceDir, run.spec.image, this.client),
      cleanup: async (runId, volume) => {
        await sweep({ runId }, this.client);
        if (volume) await removeVolume(volume, this.client);
      },
    };
  }

  /** Throws BenchrigError('docker_unavailable') naming the engine when it does not answer. */
  check(): Promise<void> {
    return this.host ? checkHost(this.host) : this.#local.check();
  }

  /** The start-up sweep of what dead runs left here; tolerant, reporting what it left on `warn`. */
  sweepDead(warn: (line: string) => void): Promise<number> {
    return sweep({ onLeft: (line) => warn(this.host ? `${this.host.url}: ${line}` : line) }, this.client);
  }

  async start(spec: SandboxSpec, labels: SandboxLabels, opts: StartOptions = {}): Promise<Environment> {
    const signal = opts.signal ?? new AbortController().signal;
    const slot = opts.beside ? undefined : await opts.acquire?.(signal);
    try {
      if (hasServices(opts.environment)) {
        const target = {
          engine: this.#engine,
          client: this.client,
          api: this.host ? DOCKER_API : this.#local.api,
          hostKey: this.host?.url ?? this.#local.key,
        };
        const env = await startServices(
          this.host ? { ...target, host: this.host.url } : target,
          spec,
          opts.environment,
          labels,
          signal,
        );
        return { ...env, ...(slot ? { slot } : {}) };
      }
      const main = await this.#engine.start(this.host ? { ...spec, host: this.host.url } : spec, labels, signal);
      return { main, services: {}, ...(slot ? { slot } : {}) };
    } catch (err) {
      slot?.release();
      throw err;
    }
  }

  /**
   * A multi-service trial's own network and shared volumes on this engine, before its services start
   * (docs/sandboxes.md#networks-per-trial). The environment made from it carries them (`network`,
   * `volumes`) so that `stop` removes them; until then the caller closes it on failure (`closeScope`).
   */
  openScope(labels: SandboxLabels, req: ScopeRequest): Promise<DockerTrialScope> {
    return openTrialScope(this.client, labels, req);
  }

  closeScope(scope: Pick<Environment, 'network' | 'networks' | 'volumes'>): Promise<void> {
    return closeTrialScope(this.client, scope);
  }

  /**
   * One service of a multi-service trial (main included): hardened like every sandbox, on the scope's
   * network where the others reach it as `service`, with the trial's volumes of `mounts` (name → path).
   */
  startService(
    spec: SandboxSpec,
    labels: SandboxLabels,
    opts: {
      scope: DockerTrialScope;
      service: string;
      mounts?: Record<string, string | { target: string; readOnly?: boolean }>;
      signal?: AbortSignal;
    },
  ): Promise<Sandbox> {
    const placed = this.host ? { ...spec, host: this.host.url } : spec;
    return this.#engine.start(placed, labels, opts.signal, attachment(opts.scope, opts.service, opts.mounts));
  }

  restart(env: Environment, opts: { environment?: EnvironmentSpec; signal?: AbortSignal }): Promise<string[]> {
    return restartEnvironment(env, opts.environment, opts.signal);
  }

  /** The services, main, then the trial's network and volumes: each tried whatever happened before. */
  async stop(env: Environment, opts: { interrupted: boolean }): Promise<void> {
    try {
      // All at once (each has its own deadline); main's failure is the one that counts, the run's sweep is the backstop.
      const [main] = await Promise.allSettled([
        this.#engine.stop(env.main, opts),
        ...Object.values(env.services).map((service) => this.#engine.stop(service, opts).catch(() => undefined)),
      ]);
      if (main.status === 'rejected') throw main.reason;
    } finally {
      if (env.network || env.networks?.length || env.volumes?.length) await this.closeScope(env);
    }
  }

  sweep(opts?: { all?: boolean; kept?: boolean; runId?: string }): Promise<number> {
    return sweep(opts, this.client);
  }

  /**
   * A dead worker's environment, from its main service's id: that container, then whatever else its
   * trial made here (its services, network and volumes, a fresh grading copy), found by the trial's
   * labels. Gone already is fine; what is left is the run's end-of-run sweep's.
   */
  async remove(id: string): Promise<void> {
    const container = this.client.getContainer(id);
    const what = `remove ${id.slice(0, 12)}`;
    const labels = await withDeadline(container.inspect(), DEFAULT_DEADLINE_MS, what).then(
      (info) => info.Config.Labels,
      () => null,
    );
    await removeContainer(this.client, id).catch(() => {});
    const runId = labels?.[LABEL.run];
    const session = labels?.[LABEL.session];
    if (runId && session)
      await sweep({ runId, session, onLeft: () => {}, budgetMs: REMOVE_BUDGET_MS }, this.client).catch(() => 0);
  }

  keptLines(env: Environment, runDir: string): string[] {
    return dockerKeptLines(env, runDir, this.host ? undefined : this.#local.kept);
  }

  watchDisk(sandbox: Sandbox, setting: string): DiskWatch | null {
    return startDiskWatch(sandbox, setting);
  }
}

/** Build folders of image builds whose process is gone (killed mid-build). */
export async function sweepLeftBuilds(run: RunSpec): Promise<void> {
  const n = await sweepBuildDirs();
  if (n > 0) run.info(`removed ${n} image build folder(s) left by runs that are gone`);
}
