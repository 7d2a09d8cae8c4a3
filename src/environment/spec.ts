// The environment of one trial, whatever runs it (docs/sandboxes.md#multi-service-environments): one
// or more services on the trial's own networks, with the volumes they share. Plain JSON (it crosses
// workers); durations in milliseconds, sizes in bytes, paths absolute. Made from a compose task
// (compose/load.ts) or from benchmark.toml's [sandbox.services] (from-config.ts); a provider starts it.

export interface EnvironmentSpec {
  /** The service the agent works in (`ctx.sandbox`); the others are `ctx.services.<name>`. */
  main: string;
  services: Record<string, ServiceSpec>;
  /** Named volumes of the environment (created with it, removed with it). */
  volumes: Record<string, VolumeSpec>;
  /** Networks of the environment; a service with no `networks` of its own is on `default`. */
  networks: Record<string, NetworkSpec>;
  /** Whether the environment may reach outside it; false: every network is internal. */
  internet: boolean;
  /** Service names in start order: each after every service it depends on (stop in reverse). */
  order: string[];
}

export interface ServiceSpec {
  /** A local image, pulled only with --pull; with `build`: the tag the build gets. */
  image?: string;
  build?: BuildSpec;
  /** Replaces the image's CMD (argv; a compose string is split as a shell would, without running one). */
  command?: string[];
  /** Replaces the image's ENTRYPOINT; [] clears it. */
  entrypoint?: string[];
  /** The container's environment: `env_file` contents first, `environment` over them. */
  env: Record<string, string>;
  workingDir?: string;
  user?: string;
  /** An init process as PID 1 (reaps zombies). */
  init?: boolean;
  shmSizeBytes?: number;
  /** `nofile`, `nproc`…: soft and hard limits. */
  ulimits: Record<string, { soft: number; hard: number }>;
  /** A tmpfs mount per path: its options as written (`size=64m,mode=1777`), '' for none. */
  tmpfs: Record<string, string>;
  /** Unset: the benchmark's default bound (every service is bounded). */
  memoryBytes?: number;
  cpus?: number;
  pids?: number;
  stdinOpen: boolean;
  tty: boolean;
  /** How long a stop waits before SIGKILL. */
  stopGracePeriodMs?: number;
  labels: Record<string, string>;
  healthcheck?: HealthcheckSpec;
  /** Services this one waits for, and for what. */
  dependsOn: Record<string, DependencySpec>;
  mounts: MountSpec[];
  /** The networks it joins, with the extra names it has there; empty when `networkMode` is set. */
  networks: Record<string, { aliases: string[] }>;
  /** none: no network at all; service: the named service's network stack (reach it as localhost). */
  networkMode?: { kind: 'none' } | { kind: 'service'; service: string };
  /** Ports other services may use (documentation: services on one network reach each other anyway). */
  expose: string[];
  /** Capabilities granted back after dropping them all (only from the allow-list: compose/refusals.ts). */
  capAdd: string[];
}

export interface BuildSpec {
  /** Absolute path of the build context, inside the task or benchmark folder. */
  context: string;
  /** Relative to the context. */
  dockerfile: string;
  target?: string;
  args: Record<string, string>;
}

export interface HealthcheckSpec {
  /** Docker's form: ['CMD', argv…] or ['CMD-SHELL', command]. */
  test: string[];
  /** Compose's defaults when unset: 30 s, 30 s, 3, 0. */
  intervalMs: number;
  timeoutMs: number;
  retries: number;
  startPeriodMs: number;
}

export type DependencyCondition = 'service_started' | 'service_healthy' | 'service_completed_successfully';

export interface DependencySpec {
  condition: DependencyCondition;
  /** false: a dependency that fails to start is skipped, not a failure (compose's `required`). */
  required: boolean;
}

/** volume: a named volume of the environment, or an anonymous one (no `source`); bind: a folder or file of the task. */
export type MountSpec =
  | { type: 'volume'; source?: string; target: string; readOnly: boolean }
  | { type: 'bind'; source: string; target: string; readOnly: boolean };

export interface VolumeSpec {
  labels: Record<string, string>;
}

export interface NetworkSpec {
  /** No route out, whatever `internet` says. */
  internal: boolean;
  labels: Record<string, string>;
}

/** Compose's healthcheck defaults (docs/benchmarks.md#compose-tasks). */
export const HEALTHCHECK_DEFAULTS = { intervalMs: 30_000, timeoutMs: 30_000, retries: 3, startPeriodMs: 0 };

/** The longest a provider waits for `service_healthy` (start_period + retries × (interval + timeout)). */
export const healthBudgetMs = (h: HealthcheckSpec): number =>
  h.startPeriodMs + h.retries * (h.intervalMs + h.timeoutMs);
