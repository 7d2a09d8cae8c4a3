// The one place the hardening of a container benchrig creates is written (docs/sandboxes.md): main
// sandboxes and their grading copies (sandbox.ts), a trial's services (service-container.ts) and
// throwaway helpers (helper-container.ts) all take their create options from here. Every container
// gets all of it; what a kind relaxes is a named field of `Hardening`, never an option of its own.
import type Docker from 'dockerode';

export interface Hardening {
  /** benchrig's labels (labels.ts): the sweep and `sandbox cleanup` find the container by them. */
  labels: Record<string, string>;
  /** Memory in bytes; swap is held to it (none beyond). */
  memoryBytes: number;
  cpus: number;
  pids: number;
  // What a kind relaxes, each by name (absent: the strict default).
  /** A network to join (`container:<id>` for a compose `network_mode: service:`); default none. */
  network?: string;
  /** Capabilities given back (`[sandbox] cap_add`, a service's allowed `cap_add`); default none. */
  capAdd?: string[];
  /** No init as PID 1 (a compose service's `init: false`); default an init. */
  noInit?: boolean;
  /** A json-file log bounded to 1 MB (a service's, read for the reason of a failed start); default none. */
  boundedLog?: boolean;
  /** A writable root filesystem (a sandbox or service works in it); default read-only. */
  writableRoot?: boolean;
}

/** What the builder sets: a caller's HostConfig cannot carry any of them. */
type HardenedKey =
  | 'NetworkMode'
  | 'CapDrop'
  | 'CapAdd'
  | 'SecurityOpt'
  | 'Privileged'
  | 'Memory'
  | 'MemorySwap'
  | 'NanoCpus'
  | 'PidsLimit'
  | 'Init'
  | 'LogConfig'
  | 'ReadonlyRootfs'
  | 'Binds'
  | 'Devices'
  | 'PidMode'
  | 'IpcMode'
  | 'UsernsMode';

export type ContainerOptions = Omit<Docker.ContainerCreateOptions, 'HostConfig'> & {
  HostConfig?: Omit<Docker.HostConfig, HardenedKey>;
};

/** No log at all: an agent writing to PID 1's stdout would grow a json-file log on the host unbounded. */
const NO_LOG = { Type: 'none', Config: {} };
/** A sidecar's log, kept for the reason of a failed start and bounded (the agent may reach it). */
const BOUNDED_LOG = { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } };

/**
 * `options` with every hardening set over it: every capability dropped, no new privileges, never
 * privileged, memory (swap included), CPU and process bounds, no network, no log, a read-only root,
 * benchrig's labels (over any of the caller's) — each but the first three relaxed only by its field.
 */
export function hardened(options: ContainerOptions, h: Hardening): Docker.ContainerCreateOptions {
  return {
    ...options,
    Labels: { ...options.Labels, ...h.labels },
    HostConfig: {
      ...options.HostConfig,
      NetworkMode: h.network ?? 'none',
      CapDrop: ['ALL'],
      CapAdd: h.capAdd ?? [],
      // Docker's default seccomp profile applies unless an option turns it off: none is set here.
      SecurityOpt: ['no-new-privileges'],
      Privileged: false,
      Memory: h.memoryBytes,
      MemorySwap: h.memoryBytes,
      NanoCpus: Math.round(h.cpus * 1e9),
      PidsLimit: h.pids,
      Init: !h.noInit,
      LogConfig: h.boundedLog ? BOUNDED_LOG : NO_LOG,
      ReadonlyRootfs: !h.writableRoot,
    },
  };
}
