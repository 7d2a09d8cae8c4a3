// The environment provider seam (docs/sandboxes.md#providers): what run/, trial/, pool/ and worker/
// know of sandboxes. An environment is what one trial runs in: a main service (the agent's
// `ctx.sandbox`) and named services beside it, on the trial's own network, with the volumes they
// share. Docker on one engine is one provider, a fleet of engines another (sandbox/index.ts picks
// one from the run's spec); failures cross this seam as SandboxError values (errors.ts) that say
// what the provider knew, and as SandboxHealth.
import type { EnvironmentSpec } from '../environment/spec.ts';
import type { SandboxSlot } from './slots.ts';
import type { Sandbox, SandboxLabels, SandboxSpec } from './types.ts';

/** What one trial runs in. */
export interface Environment {
  /** The service the agent works in (`ctx.sandbox`). */
  readonly main: Sandbox;
  /** The other services, by name (docs/sandboxes.md#multi-service-environments). */
  readonly services: Readonly<Record<string, Sandbox>>;
  /** The run's slot this environment holds (`--max-sandboxes`, its fleet host); the trial releases it at cleanup. */
  readonly slot?: SandboxSlot;
  /** The trial's own network, when it has services beside main (its first, with several); `stop` removes it. */
  readonly network?: TrialNetwork;
  /** Every network of the trial, when its environment declares several (a compose file's `networks`); `stop` removes them. */
  readonly networks?: readonly TrialNetwork[];
  /** The volumes its services share; `stop` removes them. */
  readonly volumes?: readonly TrialVolume[];
}

/** A trial's own network (docs/sandboxes.md#networks-per-trial): its services reach each other on it by service name. */
export interface TrialNetwork {
  /** The provider's name for it (unique per trial). */
  readonly name: string;
  /** Nothing outside the trial's services is reachable from it (no route out, not the host). */
  readonly internal: boolean;
  /** Its IPv4 range, when the provider gives it one (Docker: a subnet of the pool). */
  readonly subnet?: string;
}

/** A volume a trial's services share: the name the environment gives it, and the provider's (unique per trial). */
export interface TrialVolume {
  readonly name: string;
  readonly source: string;
}

export interface StartOptions {
  /** Cancels the start (Ctrl-C, the trial's timeout). */
  signal?: AbortSignal;
  /** Asks the run for a slot, once per placement attempt; absent: no bound (tests, a fresh grading copy). */
  acquire?: (signal: AbortSignal) => Promise<SandboxSlot>;
  /** Start where this environment runs (its host), without a slot of its own: a fresh copy for grading. */
  beside?: Environment;
  /**
   * Services beside main (docs/sandboxes.md#multi-service-environments), every image resolved
   * (SampleImages): each started in `order` on the trial's network, waited for per `depends_on`.
   * `spec` is then the main service's sandbox.
   */
  environment?: EnvironmentSpec;
}

/** A disk bound watched while the agent works (docs/sandboxes.md#disk). */
export interface DiskWatch {
  /** Aborts with a LimitExceeded of kind `disk` when the bound is passed. */
  readonly signal: AbortSignal;
  readonly exceeded: (Error & { value: number; limit: number }) | null;
  /** One more measurement now; throws when past the bound. */
  check(): Promise<void>;
  /** Ends the watch: no timer, no measurement left running. */
  stop(): void;
}

/** What `prepare` needs: the run's `[sandbox]` and how the run reports and bounds it. */
export interface RunSpec {
  spec: SandboxSpec;
  /** false: every sample brings its own image, so the run's is not made. */
  buildImage: boolean;
  /** `--pull`: the run's image, when it is not here and has no build, is pulled under this deadline; absent: refused. */
  pull?: { timeoutMs: number };
  /** `--max-sandboxes`: environments at once (a fleet's placement; else the pool's semaphore). */
  maxSandboxes?: number;
  /** A fleet host's capacity when its `[[sandbox.hosts]]` entry sets none (`--max-sandboxes`, else its default). */
  hostCapacity: number;
  /** A fleet host that failed stays out of placement this long. */
  cooldownMs?: number;
  /** Ctrl-C while the image builds: the build stops and leaves nothing behind. */
  signal?: AbortSignal;
  info: (line: string) => void;
  warn: (line: string) => void;
}

/** Images for the samples that bring their own sandbox (run/environments.ts schedules the builds). */
export interface SampleImages {
  /** The image is present wherever an environment may start. */
  exists(image: string): Promise<boolean>;
  /** Builds `tag` from the (untrusted) folder `dir` wherever an environment may start, the run's own image first when `base` has a build. */
  build(
    tag: string,
    dir: string,
    opts: {
      timeoutMs: number;
      benchmark: string;
      base?: { image: string; build?: string; network?: boolean };
      onProgress: (line: string) => void;
      /** The build may use the network (images.ts buildNetworkOf); false: `networkmode none`. */
      network: boolean;
      /** A compose service's build: its Dockerfile (relative to `dir`), stage and args. */
      dockerfile?: string;
      target?: string;
      args?: Record<string, string>;
    },
  ): Promise<void>;
  /** `--pull`: fetches the image wherever an environment may start (sandbox/docker/pull.ts: its errors say whose they are). */
  pull(
    image: string,
    opts: { timeoutMs: number; signal?: AbortSignal; onProgress?: (line: string) => void },
  ): Promise<void>;
  /** The image's working directory ('/' when it sets none). */
  workdir(image: string): Promise<string>;
  /** The image has this file (read from the image, nothing run). */
  hasFile(image: string, path: string): Promise<boolean>;
}

/** A run's prepared environments, in the main process: released by `close` and `cleanup` on the run's stack. */
export interface PreparedEnvironments {
  /** Environments at once, when the provider bounds them itself (a fleet's capacity). */
  readonly limit?: number;
  readonly images: SampleImages;
  /** The run id is known: the provider places this run's environments from here on. */
  bind?(runId: string): void;
  /** The run-wide read-only volume filled from `sourceDir` (`[sandbox.shared]`); its name. */
  createSharedVolume(runId: string, sourceDir: string): Promise<string>;
  /** The backstop at the run's end: whatever of the run is left, and the shared volume. */
  cleanup(runId: string, volume: string | null): Promise<void>;
  /** Per host, on a fleet: capacity and what happened there (the report's `hosts`). */
  hosts?(): Record<string, { capacity: number; sandboxes: number; infra_errors: number; cooldowns: number }>;
  /** Stops what the preparation keeps running (a fleet's health checks); absent when nothing runs. Idempotent. */
  close?(): void;
}

export interface EnvironmentProvider {
  /** Once per run, in the main process: the engine checked, images built, leftovers of dead runs swept. */
  prepare(run: RunSpec): Promise<PreparedEnvironments>;
  /** One trial's environment, started bare (the trial copies files in and runs setup). */
  start(spec: SandboxSpec, labels: SandboxLabels, opts?: StartOptions): Promise<Environment>;
  /**
   * Before grading (docs/sandboxes.md#how-grading-is-isolated-from-the-agent): every process the
   * agent could have started, in main and in every service beside it, ends — in a way that no
   * process can dodge — and each running service runs again bare (main idle, a service its own
   * process), waited for per `depends_on` as at start; a service that is not running stays as it is.
   * Resolves with a line per service that did not come back (graded as it is); a failure throws a
   * SandboxError for blame.
   */
  restart(env: Environment, opts: { environment?: EnvironmentSpec; signal?: AbortSignal }): Promise<string[]>;
  /** Always called in `finally`; tolerates services already gone. Does not release the slot. */
  stop(env: Environment, opts: { interrupted: boolean }): Promise<void>;
  /** Removes what runs whose harness process is gone left (`kept`: kept ones too; `all`: everything; `runId`: that run's); how many. */
  sweep(opts?: { all?: boolean; kept?: boolean; runId?: string }): Promise<number>;
  /** Removes a dead worker's environment (from the main process), found from its main service's id: every service, network and volume of its trial; gone already is fine. */
  remove(id: string, host?: string): Promise<void>;
  /** What `--keep-sandbox` prints for a kept environment: how to enter each service, and to remove it all (with its run's, `runDir`). */
  keptLines(env: Environment, runDir: string): string[];
  /** Watches what a service writes against `[sandbox] disk`; null when the provider cannot measure it. */
  watchDisk(sandbox: Sandbox, setting: string): DiskWatch | null;
}
