// Environments on a fleet of Docker engines (docs/fleet.md): a provider that wraps one Docker provider
// per host and places a whole environment on one host. The run's Fleet (fleet.ts) lives in the main
// process; workers ask it for a slot through the trial's `acquire` (or, in single mode, directly).
import type { EnvironmentSpec } from '../../environment/spec.ts';
import { startOnFleet, Fleet, DEFAULT_COOLDOWN_MS, registerFleet, unregisterFleet } from './fleet.ts';
import { DockerEnvironments, sweepLeftBuilds } from '../docker/environments.ts';
import { dockerKeptLines } from '../docker/kept.ts';
import { startDiskWatch } from '../docker/disk.ts';
import type { DockerHostSpec } from '../docker/hosts.ts';
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
import { createSharedVolume, removeVolume, sharedVolumeName } from '../docker/shared.ts';
import { subnetPool } from '../docker/subnet-pool.ts';
import { sweep } from '../docker/sweep.ts';
import type { Sandbox, SandboxLabels, SandboxSpec } from '../types.ts';

export class FleetEnvironments implements EnvironmentProvider {
  readonly #hosts: Map<string, DockerEnvironments>;

  constructor(readonly hosts: DockerHostSpec[]) {
    this.#hosts = new Map(hosts.map((h) => [h.url, new DockerEnvironments(h)]));
  }

  /** The Docker provider of a host (the first one when it is not known: as a lone start did before). */
  #on(url: string | undefined): DockerEnvironments {
    const found = url ? this.#hosts.get(url) : undefined;
    return found ?? new DockerEnvironments(this.hosts[0]);
  }

  async prepare(run: RunSpec): Promise<PreparedEnvironments> {
    subnetPool(process.env, run.spec.subnetPool); // a bad $BENCHRIG_SUBNET_POOL is refused (exit 2) before anything starts
    const engines = [...this.#hosts.values()];
    await Promise.all(engines.map((e) => e.check()));
    // The first host builds now, so a broken Dockerfile stops the run before its folder exists (exit 2).
    await sweepLeftBuilds(run);
    if (run.buildImage)
      await ensureImage(
        { image: run.spec.image, build: run.spec.build, trusted: true },
        {
          client: engines[0].client,
          onProgress: (line: string) => run.info(line),
          signal: run.signal,
          network: buildNetworkOf(run.spec),
          ...(run.pull ? { pull: run.pull } : {}),
        },
      );
    let removed = 0;
    for (const e of engines) removed += await e.sweepDead((line) => run.warn(line));
    if (removed > 0) run.info(`removed ${removed} sandbox(es) left by runs that are gone`);
    return this.#prepared(run, engines);
  }

  #prepared(run: RunSpec, engines: DockerEnvironments[]): PreparedEnvironments {
    let shared: { runId: string; sourceDir: string } | null = null;
    const fleet = new Fleet(
      this.hosts.map((h) => ({ ...h, capacity: h.capacity ?? run.hostCapacity })),
      {
        limit: run.maxSandboxes,
        cooldownMs: run.cooldownMs ?? DEFAULT_COOLDOWN_MS,
        log: (line) => run.info(line),
        // Once per host and run, under the Fleet's lock: the image built there from the build context, the shared volume filled.
        async prepareHost(host, client) {
          const built =
            run.buildImage &&
            (await ensureImage(
              { image: run.spec.image, build: run.spec.build, trusted: true },
              { client, network: buildNetworkOf(run.spec), ...(run.pull ? { pull: run.pull } : {}) },
            ));
          if (built) run.info(`built ${run.spec.image} on ${host.url}`);
          if (shared) await createSharedVolume(shared.runId, shared.sourceDir, run.spec.image, client);
        },
      },
    );
    let boundRunId: string | undefined;
    return {
      limit: fleet.limit,
      images: sampleImages(engines.map((e) => e.client)),
      bind(runId) {
        boundRunId = runId;
        registerFleet(runId, fleet);
      },
      close() {
        fleet.close();
        if (boundRunId) unregisterFleet(boundRunId);
      },
      hosts: () => fleet.summary(),
      // The volume is filled on each host by prepareHost, before that host's first sandbox.
      async createSharedVolume(runId, sourceDir) {
        shared = { runId, sourceDir };
        return sharedVolumeName(runId);
      },
      async cleanup(runId, volume) {
        // Every host, each on its own: a host that is down keeps its leftovers for a later run's sweep.
        await Promise.all(
          engines.map(async (e) => {
            await sweep({ runId }, e.client).catch(() => {});
            if (volume) await removeVolume(volume, e.client).catch(() => {});
          }),
        );
      },
    };
  }

  /**
   * Placed on a host (a slot from the run's Fleet), and moved to another when that host fails to
   * start it; a fresh copy for grading goes where the environment it copies runs.
   */
  async start(spec: SandboxSpec, labels: SandboxLabels, opts: StartOptions = {}): Promise<Environment> {
    const signal = opts.signal ?? new AbortController().signal;
    const environment = opts.environment ? { environment: opts.environment } : {};
    if (opts.beside) return this.#on(opts.beside.main.host).start(spec, labels, { signal, ...environment });
    // The whole environment on the placed host: its services, network and volumes with main.
    const { sandbox: env, slot } = await startOnFleet(
      labels.runId,
      spec,
      opts.acquire,
      (placed) => this.#on(placed.host).start(placed, labels, { signal, ...environment }),
      signal,
    );
    return { ...env, ...(slot ? { slot } : {}) };
  }

  restart(env: Environment, opts: { environment?: EnvironmentSpec; signal?: AbortSignal }): Promise<string[]> {
    return this.#on(env.main.host).restart(env, opts);
  }

  stop(env: Environment, opts: { interrupted: boolean }): Promise<void> {
    return this.#on(env.main.host).stop(env, opts);
  }

  async sweep(opts?: { all?: boolean; kept?: boolean; runId?: string }): Promise<number> {
    let n = 0;
    for (const e of this.#hosts.values()) n += await e.sweep(opts);
    return n;
  }

  remove(id: string, host?: string): Promise<void> {
    return this.#on(host).remove(id);
  }

  keptLines(env: Environment, runDir: string): string[] {
    return dockerKeptLines(env, runDir);
  }

  watchDisk(sandbox: Sandbox, setting: string): DiskWatch | null {
    return startDiskWatch(sandbox, setting);
  }
}
