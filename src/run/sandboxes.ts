// What every sandboxed trial of a run shares: a reachable daemon, the image (built offline when
// missing), a sweep of what dead runs left, and the run's read-only shared volume. On a fleet of
// Docker hosts: every host answering, the image on each (built there before its first sandbox),
// the sweep and the cleanup on each, and the Fleet that places the sandboxes.
import type { Config } from '../config/schema.ts';
import { BenchrigError } from '../errors.ts';
import { checkDocker, withDeadline } from '../sandbox/client.ts';
import { unreachableMessage } from '../sandbox/diagnose.ts';
import { Fleet, DEFAULT_COOLDOWN_MS, registerFleet, unregisterFleet } from '../sandbox/fleet.ts';
import { clientFor, fleetHosts, parseDockerHostFlag, resolveTls, type DockerHostSpec } from '../sandbox/hosts.ts';
import { ensureImage } from '../sandbox/images.ts';
import { createSharedVolume, removeVolume, sharedVolumeName } from '../sandbox/shared.ts';
import { sweep } from '../sandbox/sweep.ts';
import { sweepBuildDirs } from '../sandbox/build-dirs.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import { defaultMaxSandboxes } from '../pool/semaphore.ts';
import type { TrialResult } from '../types.ts';
import type { RunConsole } from './console.ts';

export interface SharedResources {
  createVolume(runId: string, sourceDir: string): Promise<string>;
  cleanup(runId: string, volume: string | null): Promise<void>;
  /** On a fleet: the placement, registered for the run by `bind`. */
  fleet?: Fleet;
  bind?(runId: string): void;
  /** On a fleet: its health checks stopped and its registration removed. Idempotent. */
  close?: () => void;
}

export interface FleetSettings {
  maxSandboxes?: number;
  cooldownMs?: number;
  /** false: every sample brings its own sandbox image (see environments.ts), so the run's is not needed. */
  ensureImage?: boolean;
  /** Ctrl-C while the image builds: the build stops and leaves nothing behind. */
  signal?: AbortSignal;
}

// The run's own image: its build folder is the benchmark's `[sandbox] build`, whose prepare.sh may
// run here (trusted: true), as its hook and check modules do.
export async function prepareSandboxes(
  spec: SandboxSpec,
  console: RunConsole,
  fleet: FleetSettings = {},
): Promise<SharedResources> {
  if (spec.fleet?.length) return prepareFleet(spec, spec.fleet, console, fleet);
  await checkDocker();
  await sweepLeftBuilds(console);
  if (fleet.ensureImage !== false)
    await ensureImage(
      { image: spec.image, build: spec.build, trusted: true },
      { onProgress: (line: string) => console.info(line), signal: fleet.signal },
    );
  const removed = await sweep({ onLeft: (line) => console.warn(line) });
  if (removed > 0) console.info(`removed ${removed} sandbox(es) left by runs that are gone`);
  return {
    createVolume: (runId, sourceDir) => createSharedVolume(runId, sourceDir, spec.image),
    async cleanup(runId, volume) {
      await sweep({ runId });
      if (volume) await removeVolume(volume);
    },
  };
}

/** Build folders of image builds whose process is gone (killed mid-build). */
async function sweepLeftBuilds(console: RunConsole): Promise<void> {
  const n = await sweepBuildDirs();
  if (n > 0) console.info(`removed ${n} image build folder(s) left by runs that are gone`);
}

/** Throws BenchrigError naming the host (exit 3) when it does not answer, TLS problems included. */
export async function checkHost(host: DockerHostSpec, timeoutMs = 5_000): Promise<void> {
  const client = clientFor(host); // unreadable TLS files: a config error (exit 2)
  try {
    await withDeadline(client.ping(), timeoutMs, `ping ${host.url}`);
  } catch (err) {
    const address = { url: host.url, source: host.source ?? 'a Docker host of the run' };
    throw new BenchrigError('docker_unavailable', unreachableMessage(address, err, timeoutMs));
  }
}

async function prepareFleet(
  spec: SandboxSpec,
  hosts: DockerHostSpec[],
  console: RunConsole,
  settings: FleetSettings,
): Promise<SharedResources> {
  await Promise.all(hosts.map((h) => checkHost(h)));
  // The first host builds now, so a broken Dockerfile stops the run before its folder exists (exit 2).
  await sweepLeftBuilds(console);
  if (settings.ensureImage !== false)
    await ensureImage(
      { image: spec.image, build: spec.build, trusted: true },
      { client: clientFor(hosts[0]), onProgress: (line: string) => console.info(line), signal: settings.signal },
    );
  let removed = 0;
  for (const h of hosts) removed += await sweep({ onLeft: (line) => console.warn(`${h.url}: ${line}`) }, clientFor(h));
  if (removed > 0) console.info(`removed ${removed} sandbox(es) left by runs that are gone`);

  let shared: { runId: string; sourceDir: string } | null = null;
  const fallback = settings.maxSandboxes ?? defaultMaxSandboxes();
  const fleet = new Fleet(
    hosts.map((h) => ({ ...h, capacity: h.capacity ?? fallback })),
    {
      limit: settings.maxSandboxes,
      cooldownMs: settings.cooldownMs ?? DEFAULT_COOLDOWN_MS,
      log: (line) => console.info(line),
      // Once per host and run, under the Fleet's lock: the image built there from the build context, the shared volume filled.
      async prepareHost(host, client) {
        const built =
          settings.ensureImage !== false &&
          (await ensureImage({ image: spec.image, build: spec.build, trusted: true }, { client }));
        if (built) console.info(`built ${spec.image} on ${host.url}`);
        if (shared) await createSharedVolume(shared.runId, shared.sourceDir, spec.image, client);
      },
    },
  );
  let boundRunId: string | undefined;
  return {
    fleet,
    bind(runId) {
      boundRunId = runId;
      registerFleet(runId, fleet);
    },
    close() {
      fleet.close();
      if (boundRunId) unregisterFleet(boundRunId);
    },
    // The volume is filled on each host by prepareHost, before that host's first sandbox.
    async createVolume(runId, sourceDir) {
      shared = { runId, sourceDir };
      return sharedVolumeName(runId);
    },
    async cleanup(runId, volume) {
      // Every host, each on its own: a host that is down keeps its leftovers for a later run's sweep.
      await Promise.all(
        hosts.map(async (h) => {
          await sweep({ runId }, clientFor(h)).catch(() => {});
          if (volume) await removeVolume(volume, clientFor(h)).catch(() => {});
        }),
      );
    },
  };
}

/**
 * The run's fleet (null: none, the local daemon as before). The TLS paths of [[sandbox.hosts]] are
 * absolute already: loadBenchmark resolved them against the file that set them.
 */
export async function resolveFleet(
  cfg: Config,
  // configFile and flags are no longer read (loadBenchmark resolves the TLS paths); still accepted from callers.
  from: {
    benchmarkDir: string;
    env: NodeJS.ProcessEnv;
    dockerHosts?: string[];
    configFile?: string;
    flags?: Record<string, unknown>;
  },
): Promise<DockerHostSpec[] | null> {
  if (!cfg.sandbox) return null;
  const flagHosts = from.dockerHosts?.map((v) => parseDockerHostFlag(v, from.env));
  const configHosts = cfg.sandbox.hosts?.map((h): DockerHostSpec => ({
    url: h.url,
    capacity: h.capacity,
    tls: resolveTls(h.tls, from.benchmarkDir),
    source: 'from [[sandbox.hosts]] of the configuration',
  }));
  return fleetHosts(configHosts, flagHosts, from.env);
}

export interface HostReport {
  capacity: number;
  /** Trials whose result ran on this host. */
  trials: number;
  /** Sandboxes placed there during this run (retries included). */
  sandboxes: number;
  /** Failed starts and Docker errors while a trial ran there. */
  infra_errors: number;
  /** Times the host was taken out of placement. */
  cooldowns: number;
}

/** The report's `hosts` section: per fleet host, what ran there and what failed. */
export async function hostsReport(
  fleet: Fleet,
  results: AsyncIterable<TrialResult>,
): Promise<Record<string, HostReport>> {
  const out: Record<string, HostReport> = {};
  for (const [url, s] of Object.entries(fleet.summary()))
    out[url] = {
      capacity: s.capacity,
      trials: 0,
      sandboxes: s.sandboxes,
      infra_errors: s.infra_errors,
      cooldowns: s.cooldowns,
    };
  for await (const r of results) {
    const host = r.metadata.sandbox?.host;
    if (host && out[host]) out[host].trials++;
  }
  return out;
}
