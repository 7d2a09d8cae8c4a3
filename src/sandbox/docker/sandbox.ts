// Docker sandboxes: one locked-down, labelled container per service (docs/sandboxes.md).
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { SandboxError } from '../../errors.ts';
import type {
  CopyOutOptions,
  CopyOutReport,
  ExecOptions,
  ExecResult,
  Sandbox,
  TransferOptions,
  SandboxHealth,
  SandboxLabels,
  SandboxSpec,
} from '../types.ts';
import {
  DEFAULT_DEADLINE_MS,
  docker,
  dockerError,
  dockerFacts,
  dockerMessage,
  freshClient,
  sleep,
  statusOf,
  withDeadline,
} from './client.ts';
import { cancelOwnKill, expectOwnKill, killedByDocker, sameDaemon, timeMs, watchDaemon } from './daemon-watch.ts';
import { withStorageQuota } from './disk-quota.ts';
import { copyIn, copyOut, inContainer, readFile, writeFile } from './copy.ts';
import { runExec } from './exec.ts';
import { DOCKER_API, localDocker, type DockerEngine, type EngineApi } from './engine.ts';
import { inspectImage } from './images.ts';
import { clientFor, HostError } from './hosts.ts';
import { hardened, type Hardening } from './hardened.ts';
import { hostsOf } from '../fleet/settings.ts';
import { buildLabels } from './labels.ts';
import { sweep } from './sweep.ts';
import { removeContainer } from './remove-container.ts';
import { ensureToolbox, KEEP_ALIVE, TOOLBOX_BIN, toolboxMount, untraceableArgv } from './toolbox.ts';
import { KILL_OWN_UID, killAllScript, OTHER_UIDS } from './kill-all.ts';
import { connectNetworks, endpointConfig } from './networks.ts';
import type { ServiceAttachment } from './trial-scope.ts';
import { transferPath } from './transfer.ts';

const START_ATTEMPTS = 3;
const FLEET_START_ATTEMPTS = 2;
const BACKOFF_MS = 500;
const HEALTH_DEADLINE_MS = 5_000;
/** How long the signal of a graceful stop may take to send. */
const STEP_MS = 5_000;

export class DockerSandbox implements Sandbox {
  readonly id: string;
  /** The epoch of its daemon's events watch when it started (daemon-watch.ts); undefined: not watched. */
  daemonEpoch: number | undefined;
  /** A compose service's `stop_grace_period`, in seconds: `stop` sends SIGTERM and waits that long before removing it. */
  stopGraceS: number | undefined;
  constructor(
    readonly container: Docker.Container,
    readonly image: string,
    readonly workdir: string,
    private readonly spec: Pick<SandboxSpec, 'execTimeoutMs' | 'maxOutputBytes' | 'capAdd'>,
    /** The daemon it lives on, and that daemon's fleet URL (absent without a fleet). */
    readonly client: Docker = docker(),
    readonly host?: string,
    /** The image's PATH, after which the toolbox's applets come for trusted commands. */
    private readonly imagePath = DEFAULT_PATH,
  ) {
    this.id = container.id;
  }

  /** The shell of string commands that are not trusted: the image's sh, or its bash (SandboxSpec.shell). */
  shell = 'sh';

  exec(cmd: string | string[], opts?: ExecOptions): Promise<ExecResult> {
    return runExec(this.target(), cmd, opts);
  }

  private target() {
    return {
      container: this.container,
      workdir: this.workdir,
      ...this.spec,
      trustedPath: `${TOOLBOX_BIN}:${this.imagePath}`,
      shell: this.shell,
    };
  }
  readFile(file: string): Promise<string> {
    return readFile(this.container, inContainer(this.workdir, file));
  }
  writeFile(file: string, content: string | Uint8Array): Promise<void> {
    return writeFile(this.container, inContainer(this.workdir, file), content);
  }
  copyIn(src: string | Record<string, string | Uint8Array>, dest: string): Promise<void> {
    return copyIn(this.container, src, inContainer(this.workdir, dest));
  }
  /** Unsafe entries are skipped, never written; the report lists them and says if the copy stopped early. */
  copyOut(src: string, dest: string, opts?: CopyOutOptions): Promise<CopyOutReport> {
    return copyOut(this.container, inContainer(this.workdir, src), dest, opts);
  }

  /** SIGKILL to the container's init ends every process in it at once; the start runs only the toolbox's keep-alive. */
  async restart(): Promise<void> {
    await this.end();
    await this.startAgain();
  }

  /**
   * Every process in the container but its PID 1, the toolbox's keep-alive, ends (SIGKILL, all at
   * once: END_IN_PLACE), and the container keeps running: what `restart` leaves, for one exec
   * instead of a stop and a start. Root without capabilities may signal only its own uid's
   * processes: those of another uid (the agent's commands may run as any) are killed by that uid
   * (which cannot make processes of another), then waited for. A container that is not running
   * (stopped from outside), or whose processes do not all end, is restarted.
   */
  async endInPlace(): Promise<void> {
    if (!sameDaemon(this.client, this.daemonEpoch))
      throw new SandboxError(`could not restart the sandbox for grading: ${LOST}`);
    // A capability the task added (`cap_add`) may let the agent trace, signal or outlive what grading
    // keeps: as before, restarted whole.
    if (this.spec.capAdd?.length) return this.restart();
    // From the untraceable shell: a process of the agent that attached to the killer as it started
    // could make it exit 0 without killing anything.
    const run = (script: string, user: string) =>
      runExec(this.target(), untraceableArgv(script), { trusted: true, cwd: '/', user, timeoutMs: END_IN_PLACE_MS });
    let r: ExecResult;
    try {
      r = await run(END_IN_PLACE, '0:0');
      for (let round = 0; r.exitCode === OTHER_UIDS && round < 2; round++) {
        const uids = [...new Set(r.stdout.split('\n').filter((u) => /^\d+$/.test(u)))];
        if (uids.length > MAX_OTHER_UIDS) break;
        for (const uid of uids) await run(KILL_OWN_UID, `${uid}:${uid}`);
        r = await run(END_IN_PLACE, '0:0');
      }
    } catch (err) {
      // Refused (not running: nothing of the agent is left in it), or no process can start in it (the
      // agent took every pid): as before, restarted.
      if (!(err instanceof SandboxError) || err.daemon !== 'answered') throw err;
      return this.restart();
    }
    if (r.exitCode !== 0) await this.restart();
  }

  /**
   * Ends every process in the container (it stops): at once (SIGKILL to its init), or, with
   * `graceS`, first as Docker's stop does — SIGTERM to its init, so that a service shuts down as it
   * would — then SIGKILL past the grace. Files stay; `startAgain` runs its own command again.
   */
  async end(graceS = 0): Promise<void> {
    const what = `restart ${this.id.slice(0, 12)}`;
    // Started bare on a daemon that came back since, it would be graded on work the daemon cut short.
    if (!sameDaemon(this.client, this.daemonEpoch))
      throw new SandboxError(`could not restart the sandbox for grading: ${LOST}`);
    try {
      if (graceS > 0 && (await this.terminated(graceS))) return;
      expectOwnKill(this.id);
      await withDeadline(this.container.kill(), DEFAULT_DEADLINE_MS, what).catch((err) => {
        cancelOwnKill(this.id);
        if (statusOf(err) !== 409) throw err; // 409: not running (the agent stopped it already)
      });
      await withDeadline(this.container.wait({ condition: 'not-running' }), DEFAULT_DEADLINE_MS, what);
    } catch (err) {
      if (err instanceof SandboxError) throw err;
      throw dockerError(`could not restart the sandbox for grading: ${dockerMessage(err)}`, err);
    }
  }

  /**
   * SIGTERM to the init from inside, with the toolbox's kill: Docker's own stop would log kill events
   * that blame reads as Docker killing the service (daemon-watch.ts). True once it stopped in time;
   * false when the signal could not be sent (then SIGKILL, from Docker, ends it).
   */
  private async terminated(graceS: number): Promise<boolean> {
    const sent = await this.exec('kill -TERM 1', { trusted: true, cwd: '/', timeoutMs: STEP_MS }).then(
      (r) => r.exitCode === 0,
      () => false,
    );
    if (!sent) return false;
    const stopped = this.container.wait({ condition: 'not-running' });
    return withDeadline(stopped, graceS * 1000, 'stop').then(
      () => true,
      () => false,
    );
  }

  /** Starts the container again after `end`: main runs its keep-alive, a service its own command. */
  async startAgain(): Promise<void> {
    try {
      await withDeadline(this.container.start(), DEFAULT_DEADLINE_MS, `restart ${this.id.slice(0, 12)}`);
    } catch (err) {
      throw dockerError(`could not restart the sandbox for grading: ${dockerMessage(err)}`, err);
    }
  }

  /**
   * Asked on fresh connections: a daemon that is shutting down still answers kept-alive ones (its
   * ping, "exited 143" for the containers it is stopping) but no longer accepts new ones.
   */
  async health(): Promise<SandboxHealth> {
    const client = freshClient(this.client);
    try {
      await withDeadline(client.ping(), HEALTH_DEADLINE_MS, 'ping');
    } catch {
      return { daemon: false, lost: 'the daemon does not answer', state: 'unknown' };
    }
    let State: Docker.ContainerInspectInfo['State'];
    try {
      ({ State } = await withDeadline(client.getContainer(this.id).inspect(), HEALTH_DEADLINE_MS, 'inspect'));
    } catch (err) {
      if (statusOf(err) !== 404) return { daemon: false, lost: 'the daemon does not answer', state: 'unknown' };
      return this.sameDaemon() ?? { daemon: true, state: 'gone' };
    }
    const lost = this.sameDaemon(); // after the inspect: a daemon gone meanwhile counts
    if (lost) return { ...lost, state: 'unknown' };
    if (State.Dead) return { daemon: true, state: 'gone' }; // a removal that failed: never the agent's doing
    const killed = killedByDocker(this.client, this.id, timeMs(State.StartedAt));
    return {
      daemon: true,
      state: State.Running ? 'running' : 'stopped',
      exitCode: State.ExitCode,
      outOfMemory: State.OOMKilled,
      ...(killed ? { killedByInfrastructure: 'Docker' } : {}),
    };
  }

  /** undefined while the daemon is the one the sandbox started on, else why not. */
  private sameDaemon(): SandboxHealth | undefined {
    return sameDaemon(this.client, this.daemonEpoch) ? undefined : { daemon: false, lost: LOST, state: 'unknown' };
  }

  transfer(path: string, target: Sandbox, opts: TransferOptions = {}): Promise<void> {
    if (!(target instanceof DockerSandbox)) throw new Error('transfer: the target is not a Docker sandbox');
    return transferPath(this.container, target.container, inContainer(this.workdir, path), opts);
  }
}

const LOST = 'its Docker daemon went away during the trial (its events stream broke)';

/** The killer of the end in place (kill-all.ts): live processes of other uids reported, zombies waited for. */
const END_IN_PLACE = killAllScript({ otherUids: 'report', zombies: 'wait' });
const END_IN_PLACE_MS = 15_000;
const MAX_OTHER_UIDS = 8;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** bash when the image has it (asked with the toolbox's test, before the agent ran anything), else sh. */
async function shellOf(sandbox: DockerSandbox): Promise<string> {
  const r = await sandbox.exec('test -x /bin/bash || test -x /usr/bin/bash', { trusted: true, cwd: '/' });
  return r.exitCode === 0 ? 'bash' : 'sh';
}
const imagePaths = new WeakMap<Docker, Map<string, Promise<string>>>();

/** The PATH the image sets (once per image and daemon), so trusted commands still find its tools after ours. */
function imagePath(client: Docker, image: string): Promise<string> {
  let known = imagePaths.get(client);
  if (!known) imagePaths.set(client, (known = new Map<string, Promise<string>>()));
  const byImage = known;
  let p = byImage.get(image);
  if (!p) {
    p = inspectImage(client, image).then(
      (info) => (info.Config?.Env ?? []).find((e) => e.startsWith('PATH='))?.slice(5) || DEFAULT_PATH,
    );
    byImage.set(image, p);
    p.catch(() => byImage.delete(image));
  }
  return p;
}

/**
 * Containers on Docker (one engine per start, placed by the spec's host): the building block of the
 * environment providers (docker/environments.ts, fleet/environments.ts).
 */
export class DockerProvider {
  /** `engine`: where a start goes without a fleet (the local Docker daemon, or another engine: engine.ts). */
  constructor(private readonly engine: DockerEngine = localDocker()) {}

  /** `attach`: a service of a multi-service trial, on its network and with its volumes (trial-scope.ts). */
  async start(
    spec: SandboxSpec,
    labels: SandboxLabels,
    signal?: AbortSignal,
    attach?: ServiceAttachment,
  ): Promise<DockerSandbox> {
    const { client, host, api } = placement(spec, this.engine);
    // On a fleet a failing host gives way to another one soon: fewer attempts on the same host.
    const attempts = host ? FLEET_START_ATTEMPTS : START_ATTEMPTS;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      signal?.throwIfAborted();
      let container: Docker.Container | undefined;
      try {
        // The daemon is watched from before the container exists, so that nothing it does to it goes unseen.
        const [toolbox, path, epoch] = await Promise.all([
          ensureToolbox(spec.image, client),
          imagePath(client, spec.image),
          watchDaemon(client),
        ]);
        const options = await withStorageQuota(
          createOptions(spec, labels, toolbox, attach),
          client,
          host ?? this.engine.key,
          spec.disk ? parseMemory(spec.disk) : null,
          labels,
        );
        container = await withDeadline(client.createContainer(options), DEFAULT_DEADLINE_MS, 'create container');
        if (attach?.more?.length) await connectNetworks(client, container.id, attach.more);
        await api.beforeStart?.(container);
        await withDeadline(container.start(), DEFAULT_DEADLINE_MS, 'start container');
        const sandbox = new DockerSandbox(container, spec.image, spec.workdir, spec, client, host, path);
        sandbox.daemonEpoch = epoch;
        if (spec.shell === 'auto') sandbox.shell = await shellOf(sandbox);
        await runSetup(this, sandbox, spec.setup ?? []);
        return sandbox;
      } catch (err) {
        if (err instanceof SetupFailed) throw err.error; // deterministic: a fresh container would fail the same way
        lastError = err;
        if (container) await removeQuietly(container);
        if (attempt < attempts) await sleep(BACKOFF_MS * 2 ** (attempt - 1), signal);
      }
    }
    const message = `could not start a sandbox from ${spec.image}${host ? ` on ${host}` : ''} after ${attempts} attempts: ${dockerMessage(lastError)}`;
    throw host
      ? new HostError(host, message, lastError)
      : new SandboxError(message, lastError, true, dockerFacts(lastError));
  }

  async stop(sandbox: Sandbox, opts: { interrupted: boolean }): Promise<void> {
    const client = sandbox instanceof DockerSandbox ? sandbox.client : docker();
    const container = client.getContainer(sandbox.id);
    const grace = sandbox instanceof DockerSandbox && !opts.interrupted ? sandbox.stopGraceS : undefined;
    if (grace !== undefined)
      await withDeadline(container.stop({ t: grace }), (grace + 10) * 1000, `stop ${sandbox.id.slice(0, 12)}`).catch(
        () => undefined, // stopped or gone already; the removal below decides
      );
    let lastError: unknown;
    for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      try {
        // Gone when this returns (another removal under way is waited for): its trial's volumes go next.
        await removeContainer(client, sandbox.id);
        return;
      } catch (err) {
        // Still being removed by another caller after the wait: its removal is the daemon's to finish.
        if (statusOf(err) === 409) return;
        lastError = err;
        if (attempt < START_ATTEMPTS) await sleep(BACKOFF_MS * 2 ** (attempt - 1));
      }
    }
    const why = opts.interrupted ? ' (while interrupted; `benchrig sandbox cleanup` removes it)' : '';
    throw new SandboxError(
      `could not remove sandbox ${sandbox.id.slice(0, 12)}${why}: ${dockerMessage(lastError)}`,
      lastError,
      true,
      dockerFacts(lastError),
    );
  }

  sweep(opts?: { all?: boolean; kept?: boolean; runId?: string }): Promise<number> {
    return sweep(opts, this.engine.client());
  }
}

/** The daemon a start goes to: the placed fleet host's, else the provider's engine (no fleet: as before). */
function placement(spec: SandboxSpec, engine: DockerEngine): { client: Docker; host?: string; api: EngineApi } {
  const hosts = hostsOf(spec);
  if (!hosts.length) return { client: engine.client(), api: engine.api };
  const host = hosts.find((h) => h.url === spec.host) ?? hosts[0];
  return { client: clientFor(host), host: host.url, api: DOCKER_API };
}

class SetupFailed extends Error {
  constructor(readonly error: SandboxError) {
    super(error.message);
  }
}

async function runSetup(provider: DockerProvider, sandbox: DockerSandbox, setup: string[]): Promise<void> {
  for (const cmd of setup) {
    const res = await sandbox.exec(cmd); // a Docker failure throws: start() retries with a fresh container
    if (res.exitCode !== 0) {
      await provider.stop(sandbox, { interrupted: false }).catch(() => undefined);
      const detail = (res.stderr || res.stdout).trim();
      const why = res.timedOut ? 'timed out' : `exited ${res.exitCode}`;
      throw new SetupFailed(
        new SandboxError(`sandbox setup command ${JSON.stringify(cmd)} ${why}${detail ? `: ${detail}` : ''}`),
      );
    }
  }
}

async function removeQuietly(container: Docker.Container): Promise<void> {
  await withDeadline(container.remove({ force: true, v: true }), DEFAULT_DEADLINE_MS, 'remove').catch(() => undefined);
}

/**
 * The container's create options: every default of docs/sandboxes.md, and nothing from the host but the shared
 * volume and the harness's read-only toolbox volume (`toolbox`, see toolbox.ts), whose shell keeps
 * the container alive. `attach`: on its trial's network instead of `spec.network`, with its volumes.
 */
export function createOptions(
  spec: SandboxSpec,
  labels: SandboxLabels,
  toolbox: string,
  attach?: ServiceAttachment,
): Docker.ContainerCreateOptions {
  const slug = labels.sessionId.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, 60);
  const hardening: Hardening = {
    labels: buildLabels(labels),
    memoryBytes: parseMemory(spec.memory),
    cpus: spec.cpus,
    pids: spec.pids,
    ...(attach || spec.network ? { network: attach?.network ?? spec.network } : {}),
    ...(spec.capAdd?.length ? { capAdd: spec.capAdd } : {}),
    writableRoot: true, // the agent works in it
    noInit: true, // its keep-alive is PID 1 (toolbox.ts KEEP_ALIVE), which grading keeps (endInPlace)
  };
  return hardened(
    {
      name: `benchrig-${slug}-${randomBytes(3).toString('hex')}`,
      Image: spec.image,
      Entrypoint: KEEP_ALIVE,
      Cmd: [],
      // The keep-alive waits on its stdin, kept open by the engine and written by no one, and only
      // SIGKILL ends it from outside (toolbox.ts KEEP_ALIVE): a stop or the daemon's shutdown sends it.
      OpenStdin: true,
      StopSignal: 'SIGKILL',
      WorkingDir: spec.workdir, // Docker creates it when the image lacks it
      ...(spec.env ? { Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`) } : {}),
      ...(attach ? { NetworkingConfig: { EndpointsConfig: { [attach.network]: endpointConfig(attach) } } } : {}),
      HostConfig: {
        ...(attach?.hosts?.length ? { ExtraHosts: attach.hosts } : {}),
        Mounts: [
          toolboxMount(toolbox),
          ...(spec.shared
            ? [{ Type: 'volume' as const, Source: spec.shared.volume, Target: spec.shared.mount, ReadOnly: true }]
            : []),
          ...(spec.mounts ?? []).map((m) => ({
            Type: 'bind' as const,
            Source: m.source,
            Target: m.target,
            ReadOnly: m.readOnly,
          })),
          ...(attach?.volumes ?? []).map((v) => ({
            Type: 'volume' as const,
            Source: v.source,
            Target: v.target,
            ReadOnly: v.readOnly,
          })),
        ],
      },
    },
    hardening,
  );
}

/** "512m" / "1g" / "1.5G" / "1048576" -> bytes. */
export function parseMemory(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$/i.exec(text);
  if (!m) throw new SandboxError(`invalid memory size ${JSON.stringify(text)} (use e.g. "512m" or "2g")`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[
    m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'
  ];
  return Math.round(parseFloat(m[1]) * unit);
}
