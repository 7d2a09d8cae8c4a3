// Placement on a fleet of Docker hosts (docs/fleet.md), in the main process so that every worker sees
// one truth: each new sandbox goes to the healthy host with the most free capacity; a host that
// fails a ping or a start cools down and comes back once it answers again; a host is prepared
// (image built there, shared volume filled) once per run before its first sandbox.
import type Docker from 'dockerode';
import { abortReason, describe, SandboxError } from '../../errors.ts';
import { withDeadline } from '../docker/client.ts';
import { clientFor, HostError, type DockerHostSpec } from '../docker/hosts.ts';
import { hostsOf } from './settings.ts';
import {
  placementFor,
  registerPlacement,
  unregisterPlacement,
  type HostFailure,
  type Placement,
  type SandboxSlot,
} from '../slots.ts';
import type { Sandbox, SandboxSpec } from '../types.ts';

export type { SandboxSlot } from '../slots.ts';

export interface FleetOptions {
  /** Live sandboxes at once across the fleet (--max-sandboxes); default: the total capacity. */
  limit?: number;
  cooldownMs?: number;
  healthIntervalMs?: number;
  /** Once per host and run, before its first sandbox (a failure cools the host down). */
  prepareHost?: (host: DockerHostSpec, client: Docker) => Promise<void>;
  /** The health check (default: the Docker API's ping through the host's client); rejects when the host is down. */
  ping?: (host: DockerHostSpec) => Promise<unknown>;
  log?: (line: string) => void;
}

export const DEFAULT_COOLDOWN_MS = 30_000;
const PING_MS = 5_000;

interface HostState {
  spec: DockerHostSpec;
  capacity: number;
  inUse: number;
  coolUntil: number;
  lastError?: string;
  ready?: Promise<void>;
  timer?: NodeJS.Timeout;
  counts: { sandboxes: number; infra_errors: number; cooldowns: number };
}

interface Waiter {
  signal?: AbortSignal;
  resolve(slot: SandboxSlot): void;
  reject(err: unknown): void;
  onAbort?: () => void;
}

export class Fleet implements Placement {
  readonly limit: number;
  readonly #hosts: HostState[];
  readonly #waiters: Waiter[] = [];
  readonly #opts: FleetOptions;
  readonly #health: NodeJS.Timeout;
  #held = 0;

  constructor(hosts: (DockerHostSpec & { capacity: number })[], opts: FleetOptions = {}) {
    this.#opts = opts;
    this.#hosts = hosts.map((spec) => ({
      spec,
      capacity: spec.capacity,
      inUse: 0,
      coolUntil: 0,
      counts: { sandboxes: 0, infra_errors: 0, cooldowns: 0 },
    }));
    this.limit = opts.limit ?? this.capacity;
    const every = opts.healthIntervalMs ?? Math.min(5_000, opts.cooldownMs ?? DEFAULT_COOLDOWN_MS);
    this.#health = setInterval(() => void this.#checkAll(), every);
    this.#health.unref();
  }

  get capacity(): number {
    return this.#hosts.reduce((n, h) => n + h.capacity, 0);
  }

  /** Resolves with a slot on a host; a refused slot (no host can take one) holds nothing. Rejects only on abort. */
  acquire(signal?: AbortSignal): Promise<SandboxSlot> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { signal, resolve, reject };
      waiter.onAbort = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        // Listened for only when there is a signal.
        if (signal) reject(abortReason(signal));
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#dispatch();
    });
  }

  /** A trial reports its host failed: a failed start cools it down at once; a run-time error if a ping fails too. */
  async fail(url: string, failure: HostFailure): Promise<void> {
    const host = this.#hosts.find((h) => h.spec.url === url);
    if (!host) return;
    host.counts.infra_errors++;
    if (failure.during === 'start') return this.#cool(host, failure.reason);
    const down = await this.#ping(host);
    if (down) this.#cool(host, down);
  }

  /** Per host: capacity and what happened there during this run. */
  summary(): Record<string, { capacity: number; sandboxes: number; infra_errors: number; cooldowns: number }> {
    return Object.fromEntries(this.#hosts.map((h) => [h.spec.url, { capacity: h.capacity, ...h.counts }]));
  }

  close(): void {
    clearInterval(this.#health);
    for (const h of this.#hosts) clearTimeout(h.timer);
    for (const w of this.#waiters.splice(0)) w.resolve(refused('the run is over'));
  }

  #dispatch(): void {
    while (this.#waiters.length > 0) {
      const now = Date.now();
      const healthy = this.#hosts.filter((h) => h.coolUntil <= now);
      if (healthy.length === 0) {
        // Nobody can take a sandbox now: say so rather than wait (the scheduler retries later).
        const why = this.#hosts.map((h) => `${h.spec.url} (${h.lastError ?? 'cooling down'})`).join('; ');
        for (const w of this.#waiters.splice(0)) this.#settle(w, refused(`no Docker host can take a sandbox: ${why}`));
        return;
      }
      if (this.#held >= this.limit) return;
      const free = healthy
        .filter((h) => h.inUse < h.capacity)
        .sort((a, b) => b.capacity - b.inUse - (a.capacity - a.inUse));
      const next = free.length > 0 ? this.#waiters.shift() : undefined;
      if (!next) return;
      this.#grant(next, free[0]);
    }
  }

  #grant(waiter: Waiter, host: HostState): void {
    host.inUse++;
    this.#held++;
    let released = false;
    const release = (failure?: HostFailure) => {
      if (released) return;
      released = true;
      host.inUse--;
      this.#held--;
      if (failure) void this.fail(host.spec.url, failure);
      this.#dispatch();
    };
    host.ready ??= (this.#opts.prepareHost?.(host.spec, clientFor(host.spec)) ?? Promise.resolve()).catch((err) => {
      host.ready = undefined; // prepared again once the host is back
      throw err;
    });
    host.ready.then(
      () => {
        if (waiter.signal?.aborted) return release();
        host.counts.sandboxes++;
        this.#settle(waiter, { host: host.spec.url, release });
      },
      (err) => {
        // Cooled before the slot goes back, so the release does not hand this host to the next waiter.
        this.#cool(host, `preparing the host failed: ${describe(err)}`);
        release();
        if (waiter.signal?.aborted) return;
        this.#waiters.unshift(waiter); // placed again, elsewhere
        this.#dispatch();
      },
    );
  }

  #settle(waiter: Waiter, slot: SandboxSlot): void {
    if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
    waiter.resolve(slot);
  }

  #cool(host: HostState, reason: string): void {
    const cooldown = this.#opts.cooldownMs ?? DEFAULT_COOLDOWN_MS;
    const fresh = host.coolUntil <= Date.now();
    host.coolUntil = Date.now() + cooldown;
    host.lastError = reason;
    if (fresh) {
      host.counts.cooldowns++;
      this.#opts.log?.(
        `Docker host ${host.spec.url} taken out of placement for ${Math.round(cooldown / 1000)} s: ${reason}`,
      );
    }
    clearTimeout(host.timer);
    host.timer = setTimeout(() => void this.#recheck(host), cooldown);
    host.timer.unref();
    this.#dispatch(); // waiters that only this host could serve are refused now
  }

  /** After a cool-down: back in placement if it answers, else another cool-down. */
  async #recheck(host: HostState): Promise<void> {
    const down = await this.#ping(host);
    if (down) return this.#cool(host, down);
    host.coolUntil = 0;
    host.lastError = undefined;
    this.#opts.log?.(`Docker host ${host.spec.url} is back in placement`);
    this.#dispatch();
  }

  async #checkAll(): Promise<void> {
    for (const host of this.#hosts.filter((h) => h.coolUntil <= Date.now())) {
      const down = await this.#ping(host);
      if (down) this.#cool(host, down);
    }
  }

  /** null when the host answers a ping, else why not. */
  async #ping(host: HostState): Promise<string | null> {
    try {
      const ping = this.#opts.ping ?? ((h: DockerHostSpec) => clientFor(h).ping());
      await withDeadline(ping(host.spec), PING_MS, `ping ${host.spec.url}`);
      return null;
    } catch (err) {
      return `health check failed: ${describe(err)}`;
    }
  }
}

const refused = (why: string): SandboxSlot => ({ refused: why, release: () => {} });

// The fleet of each run in this process (the main one): remote pools and single mode place through it.
export const registerFleet = (runId: string, fleet: Fleet) => registerPlacement(runId, fleet);
export const unregisterFleet = (runId: string) => unregisterPlacement(runId);
export const fleetFor = (runId: string): Placement | undefined => placementFor(runId);

/**
 * A trial's sandbox on the fleet: a slot (from this process's fleet in single mode, else granted by
 * the main process), a start on its host, and on a host failure the slot given back as failed and
 * the start tried on another host, at most once per host. Returns the sandbox and its slot.
 */
export async function startOnFleet<T = Sandbox>(
  runId: string,
  spec: SandboxSpec,
  acquire: ((signal: AbortSignal) => Promise<SandboxSlot>) | undefined,
  start: (spec: SandboxSpec) => Promise<T>,
  signal: AbortSignal,
): Promise<{ sandbox: T; slot?: SandboxSlot }> {
  const local = fleetFor(runId);
  let lastError: HostError | undefined;
  for (let attempt = 0; attempt < (hostsOf(spec).length || 1); attempt++) {
    const slot = local ? await local.acquire(signal) : await acquire?.(signal);
    if (slot?.refused) {
      slot.release();
      throw lastError ?? new SandboxError(slot.refused);
    }
    try {
      return { sandbox: await start({ ...spec, host: slot?.host }), slot };
    } catch (err) {
      if (!(err instanceof HostError) || signal.aborted) {
        slot?.release();
        throw err;
      }
      slot?.release({ reason: err.message, during: 'start' });
      lastError = err;
    }
  }
  // Every attempt above returns, throws, or sets lastError.
  throw lastError ?? new Error('internal: no attempt to start the sandbox was made');
}
