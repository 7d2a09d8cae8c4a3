// One dockerode client per process, a deadline for every Docker call, and the reachability check
// that turns a missing daemon into one clear message (exit 3) instead of a stack trace.
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import type Docker from 'dockerode';
import { abortReason, BenchrigError, SandboxError, describe, type SandboxErrorFacts } from '../../errors.ts';
import { localAddress, unreachableMessage } from './diagnose.ts';

export const DEFAULT_DEADLINE_MS = 30_000;
export const BUILD_DEADLINE_MS = 15 * 60_000;

const require = createRequire(import.meta.url);
/**
 * dockerode (CommonJS), loaded on the first client: with ssh2 and its WebAssembly it costs each
 * process and worker thread ~20 MB resident, which a run without a [sandbox] never needs.
 */
export const Dockerode = (): typeof Docker => {
  deferRarelyUsed();
  const D = require('dockerode') as typeof Docker;
  noRedirects();
  return D;
};

/**
 * Two modules dockerode loads at once and a local Docker never calls: its BuildKit session (gRPC
 * and protobufjs), for `buildImage` with `version: "2"`, which benchrig never asks for (Engine 20.10
 * builds with the classic builder), and docker-modem's ssh transport (ssh2 and its native
 * binding), for `ssh://` daemons only. Together ~0.2 s of CPU and several MB in every process and
 * worker thread. Each exports one function: its place in the module cache holds a function that
 * loads the real module on its first call.
 */
function deferRarelyUsed(): void {
  const fromDockerode = createRequire(require.resolve('dockerode'));
  deferFunctionModule(fromDockerode.resolve('./session'));
  deferFunctionModule(fromDockerode.resolve('docker-modem/lib/ssh'));
}

function deferFunctionModule(file: string): void {
  if (require.cache[file]) return;
  const load = () => {
    delete require.cache[file];
    return require(file) as (...args: unknown[]) => unknown;
  };
  const stand = new (require('node:module') as typeof import('node:module'))(file);
  Object.assign(stand, { filename: file, loaded: true, exports: (...args: unknown[]) => load()(...args) });
  require.cache[file] = stand;
}

/**
 * docker-modem formats every request's options with util.inspect (depth: null, showHidden) for its
 * debug log even when the log is off: an http.Agent among them costs ~6 ms of CPU a call. An agent
 * handed to it prints as its class name.
 */
export function quietAgent<A extends http.Agent>(agent: A): A {
  Object.defineProperty(agent, inspect.custom, { value: () => `[${agent.constructor.name}]` });
  return agent;
}

/**
 * docker-modem follows HTTP redirects, to any host, with no error handler on the new request: a
 * daemon's redirect (it answers a path with `..` in it with one) would send a request wherever
 * the path pointed and crash the process when that host is not there. The Docker API never
 * redirects, so none is followed: the call fails with an error instead.
 */
function noRedirects(): void {
  const modemHttp = createRequire(require.resolve('dockerode'))('docker-modem/lib/http') as { maxRedirects: number };
  modemHttp.maxRedirects = 0;
}

let client: Docker | undefined;

/** dockerode's defaults honour DOCKER_HOST (and DOCKER_TLS_VERIFY/DOCKER_CERT_PATH), else the local socket. */
export function docker(): Docker {
  client ??= new (Dockerode())();
  return client;
}

const fresh = new WeakMap<Docker, Docker>();

/**
 * A client for the same daemon whose every request opens its own connection. A daemon shutting
 * down stops accepting connections at once but goes on answering kept-alive ones until it exits
 * ("container is not running", its ping), so only a fresh connection tells whether it is still there.
 */
export function freshClient(client: Docker): Docker {
  let f = fresh.get(client);
  if (!f) {
    const modem = client.modem as { protocol?: string; agent?: { options?: { rejectUnauthorized?: boolean } } };
    const agent =
      modem.protocol === 'https'
        ? quietAgent(
            new https.Agent({ keepAlive: false, rejectUnauthorized: modem.agent?.options?.rejectUnauthorized ?? true }),
          )
        : quietAgent(new http.Agent({ keepAlive: false }));
    // The same modem (its class, its settings) with an agent that keeps no connection alive.
    const copy = Object.create(Object.getPrototypeOf(modem) as object | null) as object;
    f = new (Dockerode())({ modem: Object.assign(copy, modem, { agent }) } as Docker.DockerOptions);
    fresh.set(client, f);
  }
  return f;
}

/** Where we talk to Docker, for messages. */
export function dockerEndpoint(): string {
  return process.env.DOCKER_HOST || '/var/run/docker.sock';
}

/**
 * Reject with a SandboxError if `promise` has not settled within `ms`: a hung daemon must not hang
 * a trial. The underlying request is not cancelled; callers that own a stream destroy it themselves.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SandboxError(`Docker did not answer within ${ms} ms: ${what}`)), ms);
    timer.unref?.();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** HTTP status of a dockerode error (404 no such container, 409 conflict), if any. */
export function statusOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/**
 * What a failed dockerode call says, as the provider-neutral facts of a SandboxError: an HTTP status
 * means the daemon answered (404: the container is gone, 409: it is not running); none, that it did not.
 */
export function dockerFacts(err: unknown): SandboxErrorFacts {
  const status = statusOf(err);
  if (status === undefined) return { daemon: 'unreachable' };
  const service = status === 404 ? 'gone' : status === 409 ? 'stopped' : undefined;
  return { daemon: 'answered', ...(service ? { service } : {}) };
}

/** A SandboxError for a failed Docker call, carrying what the daemon's answer (or its silence) says. */
export const dockerError = (message: string, err: unknown, retryable = true): SandboxError =>
  new SandboxError(message, err, retryable, dockerFacts(err));

/** Docker's own message for a failed call, without dockerode's "(HTTP code 404) ..." prefix noise. */
export function dockerMessage(err: unknown): string {
  const json = (err as { json?: { message?: string } } | null)?.json;
  return json?.message ?? describe(err);
}

/** Throws BenchrigError('docker_unavailable'): one line naming the cause, where the address came from, and the remedy. */
export async function checkDocker(timeoutMs = 5_000): Promise<void> {
  try {
    await withDeadline(docker().ping(), timeoutMs, 'ping');
  } catch (err) {
    throw new BenchrigError('docker_unavailable', unreachableMessage(localAddress(), err, timeoutMs));
  }
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
